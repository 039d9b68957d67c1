import { test } from 'tap'
import { addedRoutes, cartDrawer, specifiedRoutes, STORE_ROUTES } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { newCartToken } from '../../../helpers/security.ts'
import { backendSkip, build, buildPlatform, pluginMeta, SITE_URL, STORE_API, SVC, TEST_SECRET, type PlatformHost } from '../../../helper.ts'

function registerCartDrawer (host: PlatformHost, edition: 'free' | 'pro'): void {
  host.app.register(cartDrawer, {
    edition,
    commerce: host.app.shop.commerce,
    stores: { settings: host.storage, analytics: host.storage },
    secrets: [TEST_SECRET],
    rateCounter: host.rateCounter
  })
}

/** cartDrawer alone on the platform: one registration brings every part of the drawer, in either edition. */
test('cart-drawer alone: one registration over the commerce port gives the whole drawer', async (t) => {
  const host = await buildPlatform(t)
  registerCartDrawer(host, 'free')
  const { app } = host
  await app.ready()
  for (const decorator of ['commerce', 'drawerStores', 'settings', 'drawerCart', 'svcRoutes', 'drawerDataSections']) {
    t.ok(app.hasDecorator(decorator), `fastify.${decorator}`)
  }
  t.same(app.svcRoutes.map((route) => `${route.method} ${route.path}`).sort(), [...specifiedRoutes('free')].sort(), 'the Free routes')
  const token = await newCartToken(app)
  t.equal((await app.inject({ url: `${SVC}/cart`, headers: { origin: SITE_URL, 'cart-token': token } })).statusCode, 200, 'svc/v1/cart')
  t.equal((await app.inject({ url: `${SVC}/shipping-meter`, headers: { origin: SITE_URL, 'cart-token': token } })).statusCode, 404, 'no Pro route in Free')
  t.type((await app.inject({ url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json().extensions.svc, 'object', 'extensions.svc')
  t.match((await app.inject({ url: '/' })).body, /\/assets\/svc-drawer\.js\?v=/, 'the drawer script on the storefront')
  t.equal((await app.inject({ url: '/admin/cart-drawer/' })).statusCode, 401, 'the admin screen')
})

test('cart-drawer in Pro registers every route of the Pro edition', async (t) => {
  const host = await buildPlatform(t)
  registerCartDrawer(host, 'pro')
  await host.app.ready()
  t.same(host.app.svcRoutes.map((route) => `${route.method} ${route.path}`).sort(), [...specifiedRoutes('pro'), ...addedRoutes('pro')].sort())
})

test('cart-drawer declares no dependency (it registers its parts), and does not start without a route its edition promises', async (t) => {
  t.same(pluginMeta(cartDrawer), { name: 'cart-drawer', dependencies: [] })
  const host = await buildPlatform(t)
  // A host hook that moves GET /cart out of svc/v1 before the drawer's rules see it.
  host.app.addHook('onRoute', (route) => {
    if (route.url === `${SVC}/cart` && route.method === 'GET') route.url = '/elsewhere/cart'
  })
  registerCartDrawer(host, 'free')
  await t.rejects(async () => { await host.app.ready() }, /The free edition lacks svc\/v1 route\(s\) of the specification: GET \/cart/)
})

test('cart-drawer over the example host (build with host memory-shop): the same drawer through another shop\'s port', async (t) => {
  const app = await build(t, { host: 'memory-shop', edition: 'free' })
  const token = String((await app.inject({ url: '/api/cart' })).headers['cart-token'])
  const cart = await app.inject({ url: '/api/svc/v1/cart', headers: { origin: SITE_URL, 'cart-token': token } })
  t.equal(cart.statusCode, 200, 'svc/v1/cart under the host\'s REST root', { found: cart.body })
  t.match(cart.json(), { cartItems: [], cartCount: 0 })
  t.same(app.svcRoutes.map((route) => `${route.method} ${route.path}`).sort(), [...specifiedRoutes('free'), ...STORE_ROUTES].sort(),
    'the Free routes, and the cart routes the drawer serves for a host without a Store API (storeApi: drawer)')
  t.equal((await app.inject({ url: '/api/svc/v1/shipping-meter', headers: { origin: SITE_URL, 'cart-token': token } })).statusCode, 404, 'no Pro route in Free')
})

for (const backend of ['pglite', 'memory', 'postgres'] as const) {
  test(`cart-drawer in the whole app on the ${backend} backend (build)`, { skip: backendSkip(backend) }, async (t) => {
    const app = await build(t, { backend, edition: 'pro' })
    const first = await app.inject({ url: `${STORE_API}/cart`, headers: { origin: SITE_URL } })
    const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { origin: SITE_URL, 'cart-token': String(first.headers['cart-token']) }, payload: { id: 101, quantity: 2 } })
    t.equal(added.statusCode, 201, 'the seeded catalog sells product 101', { found: added.body })
    const headers = { origin: SITE_URL, 'cart-token': String(added.headers['cart-token']) }
    const cart = await app.inject({ url: `${SVC}/cart`, headers })
    t.equal(cart.statusCode, 200, { found: cart.body })
    t.equal(cart.json().cartCount, 2, 'the drawer reads the cart the platform wrote')
    t.equal((await app.inject({ url: `${SVC}/shipping-meter`, headers })).statusCode, 200, 'a Pro route')
  })
}
