import { test } from 'tap'
import fp from 'fastify-plugin'
import { cartDrawer, commercePlugin, missingRoutes } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { securityPlugin, type SvcRouteSpec } from '../../../../drawer/plugins/security/index.ts'
import { buildPlatform } from '../../../helper.ts'
import { registeredSvcRoutes, SVC_ROUTES } from '../../../helpers/routes.ts'
import {
  buildSecurityApp, createSecurityStorage, credentialsFor, expectError, expectThrough, label, login, newCartToken,
  svcInject, USERS
} from '../../../helpers/security.ts'

/**
 * Specification §4.2, copied by hand. Each route declares its own rules; the suite drives the routes as registered
 * (`SVC_ROUTES`, read from an app), so what they declare must be the specification's table (rate limits) and the
 * design's (body limits, §3.6).
 */
const KiB = 1024
const SPEC_TABLE: Array<[string, 'free' | 'pro', 'cart' | 'admin' | 'public', string | null, number | null]> = [
  ['GET /cart', 'free', 'cart', null, null],
  ['POST /cart/remove-items', 'free', 'cart', '30/min', 16 * KiB],
  ['POST /coupon', 'free', 'cart', '10/min', 8 * KiB],
  ['DELETE /coupon', 'free', 'cart', '20/min', 8 * KiB],
  ['GET /drawer-data', 'free', 'cart', null, null],
  ['GET /recommendations', 'free', 'cart', null, null],
  ['POST /recommendations/add', 'free', 'cart', '20/min', 16 * KiB],
  ['GET /settings', 'free', 'admin', null, null],
  ['POST /settings', 'free', 'admin', '30/min', 64 * KiB],
  ['DELETE /settings', 'free', 'admin', '5/hour', 16 * KiB],
  ['GET /settings/export', 'free', 'admin', null, null],
  ['POST /settings/import', 'free', 'admin', '5/hour', 256 * KiB],
  ['GET /shipping-meter', 'pro', 'cart', null, null],
  ['GET /smart-addons', 'pro', 'cart', null, null],
  ['POST /smart-addons/toggle', 'pro', 'cart', '30/min', 16 * KiB],
  ['GET /bundle-builder/companions', 'pro', 'cart', null, null],
  ['GET /bundle-builder/configs', 'pro', 'public', null, null],
  ['POST /bundle-builder/add', 'pro', 'cart', '20/min', 16 * KiB],
  ['POST /spotlight/add', 'pro', 'cart', '20/min', 16 * KiB],
  ['POST /analytics/events', 'pro', 'cart', '60/min', 32 * KiB],
  ['GET /analytics/summary', 'pro', 'admin', null, null],
  // Beyond §4.2: the analytics CSV export, an admin read like the summary.
  ['GET /analytics/export', 'pro', 'admin', null, null],
  ['DELETE /analytics/reset', 'pro', 'admin', '5/hour', 16 * KiB],
  ['GET /products/search', 'pro', 'admin', null, null],
  ['GET /conditions/types', 'pro', 'admin', null, null]
]

function rateOf (spec: SvcRouteSpec): string | null {
  if (spec.rateLimit === null) return null
  const unit = spec.rateLimit.windowMs === 60_000 ? 'min' : spec.rateLimit.windowMs === 3_600_000 ? 'hour' : `${spec.rateLimit.windowMs}ms`
  return `${spec.rateLimit.max}/${unit}`
}

const byLabel = (a: { 0: string }, b: { 0: string }) => a[0].localeCompare(b[0])
const rowOf = (spec: SvcRouteSpec) => [label(spec), spec.edition, spec.access, rateOf(spec), spec.bodyLimit] as const

test('the registered svc/v1 routes declare the route table of specification §4.2 with the body limits of design §3.6', async (t) => {
  t.same(SVC_ROUTES.map(rowOf).sort(byLabel), [...SPEC_TABLE].sort(byLabel), 'Pro registers every row, with its rules')
  const free = await registeredSvcRoutes('free')
  t.same(free.map(rowOf).sort(byLabel), SPEC_TABLE.filter((row) => row[1] === 'free').sort(byLabel), 'Free registers the Free rows only')
  t.same(missingRoutes('pro', SVC_ROUTES), [], 'nothing of Pro is missing')
})

test('a route the edition promises but no plugin adds stops the server at start, naming the route', async (t) => {
  const { app, storage, rateCounter } = await buildPlatform(t)
  // A host hook that moves GET /cart out of svc/v1 before the drawer's rules see it: the Free edition lacks it.
  app.addHook('onRoute', (route) => {
    if (route.url === '/wp-json/svc/v1/cart' && route.method === 'GET') route.url = '/elsewhere/cart'
  })
  await app.register(cartDrawer, { edition: 'free', rateCounter, commerce: app.shop.commerce, stores: { settings: storage, analytics: storage }, secrets: ['x'.repeat(32)] })
  t.same(missingRoutes('free', app.svcRoutes), ['GET /cart'], 'missingRoutes names it')
  t.same(missingRoutes('pro', app.svcRoutes).length, 13, 'and a Pro edition would lack it and the twelve Pro routes')
  await t.rejects(async () => { await app.ready() }, /The free edition lacks svc\/v1 route\(s\) of the specification: GET \/cart/)
})

test('an svc/v1 route that declares no rules cannot be added', async (t) => {
  const { app, storage, rateCounter } = await buildPlatform(t)
  // The security plugin alone, over the platform's side of the commerce port.
  await app.register(commercePlugin, { commerce: app.shop.commerce, stores: { settings: storage, analytics: storage }, secrets: ['x'.repeat(32)] })
  await app.register(securityPlugin, { rateCounter })
  await t.rejects(async () => {
    await app.register(fp(async (scope) => {
      scope.get('/wp-json/svc/v1/undeclared', async () => ({ ok: true }))
    }))
    await app.ready()
  }, /svc\/v1 route GET \/wp-json\/svc\/v1\/undeclared declares no rules/)
})

test('editions: every row exists in Pro; in Free the Pro rows answer 404 and the Free rows exist', async (t) => {
  const storage = await createSecurityStorage(t)
  const pro = await buildSecurityApp(t, { storage, edition: 'pro' })
  const free = await buildSecurityApp(t, { storage, edition: 'free' })
  const admin = await login(pro.app, USERS.admin)
  const cartToken = await newCartToken(pro.app)
  const freePaths = new Set(SVC_ROUTES.filter((spec) => spec.edition === 'free').map((spec) => spec.path))

  for (const spec of SVC_ROUTES) {
    t.test(label(spec), async (t) => {
      const headers = credentialsFor(spec, { cartToken, admin })
      expectThrough(t, await svcInject(pro.app, spec, { headers }), spec, 'Pro')
      const inFree = await svcInject(free.app, spec, { headers })
      if (spec.edition === 'free') {
        expectThrough(t, inFree, spec, 'Free')
        return
      }
      expectError(t, inFree, 404, 'svc_not_found', 'Free')
      if (!freePaths.has(spec.path)) {
        // No method of the path exists in Free: not a 405, and no preflight either.
        for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
          expectError(t, await svcInject(free.app, spec, { method, headers }), 404, 'svc_not_found', `Free ${method}`)
        }
      }
    })
  }

  t.test('an unknown path below svc/v1 is a 404 in the error shape, with the no-store headers', async (t) => {
    for (const app of [pro.app, free.app]) {
      expectError(t, await svcInject(app, { method: 'GET', path: '/no-such-route' }), 404, 'svc_not_found')
      expectError(t, await svcInject(app, { method: 'POST', path: '/cart/no-such-route' }), 404, 'svc_not_found')
    }
  })
})
