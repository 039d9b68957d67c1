/**
 * The `svc/v1` routes of the specification's section 4.2, with the body limits of design §3.6. Route plugins take
 * their access group, rate limit and body limit from here, and the security tests drive every row.
 */

export type Edition = 'free' | 'pro'
export type AccessGroup = 'cart' | 'admin' | 'public'
export type HttpMethod = 'GET' | 'POST' | 'DELETE'

export interface RateLimit {
  max: number
  windowMs: number
}

export interface SvcRouteSpec {
  method: HttpMethod
  /** Path below `{restRoot}svc/v1`. */
  path: string
  edition: Edition
  access: AccessGroup
  rateLimit: RateLimit | null
  /** Largest accepted request body in bytes (write routes). */
  bodyLimit: number | null
}

const MINUTE = 60_000
const HOUR = 3_600_000
const KiB = 1024

/** Design §3.6. */
export const BODY_LIMITS = {
  coupon: 8 * KiB,
  settings: 64 * KiB,
  settingsImport: 256 * KiB,
  analyticsEvents: 32 * KiB,
  write: 16 * KiB
} as const

const perMinute = (max: number): RateLimit => ({ max, windowMs: MINUTE })
const perHour = (max: number): RateLimit => ({ max, windowMs: HOUR })

function row (method: HttpMethod, path: string, edition: Edition, access: AccessGroup, rateLimit: RateLimit | null, bodyLimit?: number): SvcRouteSpec {
  return { method, path, edition, access, rateLimit, bodyLimit: bodyLimit ?? (method === 'GET' ? null : BODY_LIMITS.write) }
}

export const SVC_ROUTES: readonly SvcRouteSpec[] = [
  row('GET', '/cart', 'free', 'cart', null),
  row('POST', '/cart/remove-items', 'free', 'cart', perMinute(30)),
  row('POST', '/coupon', 'free', 'cart', perMinute(10), BODY_LIMITS.coupon),
  row('DELETE', '/coupon', 'free', 'cart', perMinute(20), BODY_LIMITS.coupon),
  row('GET', '/drawer-data', 'free', 'cart', null),
  row('GET', '/recommendations', 'free', 'cart', null),
  row('POST', '/recommendations/add', 'free', 'cart', perMinute(20)),
  row('GET', '/settings', 'free', 'admin', null),
  row('POST', '/settings', 'free', 'admin', perMinute(30), BODY_LIMITS.settings),
  row('DELETE', '/settings', 'free', 'admin', perHour(5)),
  row('GET', '/settings/export', 'free', 'admin', null),
  row('POST', '/settings/import', 'free', 'admin', perHour(5), BODY_LIMITS.settingsImport),
  row('GET', '/shipping-meter', 'pro', 'cart', null),
  row('GET', '/smart-addons', 'pro', 'cart', null),
  row('POST', '/smart-addons/toggle', 'pro', 'cart', perMinute(30)),
  row('GET', '/bundle-builder/companions', 'pro', 'cart', null),
  row('GET', '/bundle-builder/configs', 'pro', 'public', null),
  row('POST', '/bundle-builder/add', 'pro', 'cart', perMinute(20)),
  row('POST', '/spotlight/add', 'pro', 'cart', perMinute(20)),
  row('POST', '/analytics/events', 'pro', 'cart', perMinute(60), BODY_LIMITS.analyticsEvents),
  row('GET', '/analytics/summary', 'pro', 'admin', null),
  row('DELETE', '/analytics/reset', 'pro', 'admin', perHour(5)),
  row('GET', '/products/search', 'pro', 'admin', null),
  row('GET', '/conditions/types', 'pro', 'admin', null)
]

export function routesOfEdition (edition: Edition): SvcRouteSpec[] {
  return SVC_ROUTES.filter((route) => edition === 'pro' || route.edition === 'free')
}

export function findRoute (method: string, path: string): SvcRouteSpec {
  const found = SVC_ROUTES.find((route) => route.method === method && route.path === path)
  if (found === undefined) throw new Error(`No svc/v1 route ${method} ${path} in the route table`)
  return found
}
