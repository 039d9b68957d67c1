import type { Edition, SvcRouteSpec } from '../security/index.ts'

/**
 * The `svc/v1` routes specification §4.2 promises in each edition, by method and path only: the routes themselves
 * declare their rules where they are added. Checked when the server starts (`missingRoutes`), so an edition that
 * lacks a promised route does not start.
 */
const FREE = [
  'GET /cart', 'POST /cart/remove-items', 'POST /coupon', 'DELETE /coupon', 'GET /drawer-data', 'GET /recommendations',
  'POST /recommendations/add', 'GET /settings', 'POST /settings', 'DELETE /settings', 'GET /settings/export',
  'POST /settings/import'
]
const PRO = [
  ...FREE, 'GET /shipping-meter', 'GET /smart-addons', 'POST /smart-addons/toggle', 'GET /bundle-builder/companions',
  'GET /bundle-builder/configs', 'POST /bundle-builder/add', 'POST /spotlight/add', 'POST /analytics/events',
  'GET /analytics/summary', 'DELETE /analytics/reset', 'GET /products/search', 'GET /conditions/types'
]

export function specifiedRoutes (edition: Edition): readonly string[] {
  return edition === 'pro' ? PRO : FREE
}

/**
 * The routes an edition adds beyond the specification's (documented in docs/api.md and the OpenAPI document; the
 * specification promises none of them): the analytics CSV export.
 */
export function addedRoutes (edition: Edition): readonly string[] {
  return edition === 'pro' ? ['GET /analytics/export'] : []
}

/** The routes of the edition that no plugin has added, as `METHOD /path`. */
export function missingRoutes (edition: Edition, registered: readonly SvcRouteSpec[]): string[] {
  const present = new Set(registered.map((route) => `${route.method} ${route.path}`))
  return specifiedRoutes(edition).filter((route) => !present.has(route))
}
