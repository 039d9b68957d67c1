import Fastify from 'fastify'
import { test, type Test } from 'tap'
import { cartDrawer, healthPlugin, shopPlugin } from '../../app.ts'
import { installErrorHandling } from '../../kernel/errors/index.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'

const SITE = 'https://shop.example'
const SECRET = 'embedding-test-secret-at-least-32-bytes'

/** A seeded PGlite storage and in-process counters, closed when the test ends. */
async function seededStores (t: Test) {
  const storage = await createTestPgliteStorage()
  const rateCounter = createMemoryRateCounter()
  t.teardown(async () => { await rateCounter.close(); await storage.close() })
  await seedDemoShop(storage, SITE)
  return { storage, rateCounter }
}

/**
 * The README's embedding recipe on a host's own Fastify instance (PGlite and in-process counters in place of
 * PostgreSQL and Redis): registering `cartDrawer` after the platform gives the whole drawer.
 */
test("the README's embedding recipe: one cartDrawer registration gives the host the whole drawer", async (t) => {
  const { storage, rateCounter } = await seededStores(t)

  const app = Fastify()
  t.teardown(() => app.close())
  installErrorHandling(app)
  await app.register(healthPlugin, { storage, rateCounter })
  await app.register(shopPlugin, { storage, secrets: [SECRET], restRoot: '/wp-json/', siteUrl: SITE, homeUrl: SITE, config: demoShopConfig })
  await app.register(cartDrawer, (parent) => ({
    edition: 'pro' as const,
    commerce: parent.shop.commerce,
    stores: { settings: storage, analytics: storage },
    secrets: [SECRET],
    rateCounter
  }))
  // The host's own route keeps working beside the drawer.
  app.get('/host/hello', async () => ({ hello: 'host' }))
  await app.ready()

  const origin = { origin: SITE }
  // As the drawer's client: a first read gives the Cart-Token the write goes with (a write without one needs a nonce).
  const first = await app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart', headers: origin })
  const added = await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers: { ...origin, 'cart-token': String(first.headers['cart-token']) }, payload: { id: 101, quantity: 2 } })
  t.equal(added.statusCode, 201, 'the platform adds to the cart', { found: added.body })
  const token = String(added.headers['cart-token'])
  t.ok(added.json().extensions.svc, 'the Store API cart carries extensions.svc')

  const cart = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/cart', headers: { ...origin, 'cart-token': token } })
  t.equal(cart.statusCode, 200, 'svc/v1/cart answers', { found: cart.body })
  t.equal(cart.json().cartItems.length, 1, "the drawer sees the platform's cart")
  t.equal(cart.json().cartCount, 2, 'two items')

  const meter = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/shipping-meter', headers: { ...origin, 'cart-token': token } })
  t.equal(meter.statusCode, 200, 'a Pro route answers', { found: meter.body })

  const refused = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/cart', headers: { origin: 'https://evil.example', 'cart-token': token } })
  t.equal(refused.statusCode, 403, "the drawer's request rules hold: another origin is refused")
  t.same(Object.keys(refused.json()).sort(), ['code', 'data', 'message'], 'in the WordPress REST error shape')

  const script = await app.inject({ method: 'GET', url: '/assets/svc-drawer.js' })
  t.equal(script.statusCode, 200, 'the drawer script is served')
  t.match(String(script.headers['content-type']), /javascript/)

  const page = await app.inject({ method: 'GET', url: '/' })
  t.equal(page.statusCode, 200)
  t.match(page.body, /\/assets\/svc-drawer\.js\?v=/, 'the storefront page loads the drawer script')

  const admin = await app.inject({ method: 'GET', url: '/admin/cart-drawer/' })
  t.equal(admin.statusCode, 401, 'the admin screen asks a guest to log in')
  t.match(admin.body, /<form/, 'with the login form')

  const hello = await app.inject({ method: 'GET', url: '/host/hello' })
  t.same(hello.json(), { hello: 'host' }, "the host's own route is untouched")
})

test("the drawer's routes answer in the WordPress REST shape whatever the host's own error handler does", async (t) => {
  const { storage, rateCounter } = await seededStores(t)

  const app = Fastify()
  t.teardown(() => app.close())
  // A host with an error shape of its own, and no installErrorHandling.
  app.setErrorHandler((error, _request, reply) => reply.code(500).send({ hostError: String(error) }))
  await app.register(shopPlugin, { storage, secrets: [SECRET], restRoot: '/wp-json/', siteUrl: SITE, homeUrl: SITE, config: demoShopConfig })
  await app.register(cartDrawer, (parent) => ({
    commerce: parent.shop.commerce,
    stores: { settings: storage, analytics: storage },
    secrets: [SECRET],
    rateCounter
  }))
  app.get('/host/fails', async () => { throw new Error('host failure') })
  await app.ready()

  const forged = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/cart', headers: { origin: SITE, 'cart-token': 'forged' } })
  t.equal(forged.statusCode, 403)
  t.match(forged.json(), { code: 'svc_invalid_cart_token', data: { status: 403 } }, 'a refused Cart-Token in the REST shape')
  const unknown = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/no-such-route', headers: { origin: SITE } })
  t.match(unknown.json(), { code: 'svc_not_found', data: { status: 404 } }, 'an unknown svc/v1 path in the REST shape')
  const badBody = await app.inject({ method: 'POST', url: '/wp-json/svc/v1/coupon', headers: { origin: SITE, 'cart-token': 'forged', 'content-type': 'application/json' }, payload: '{' })
  t.equal(badBody.json().data?.status, badBody.statusCode, 'a refused write in the REST shape')
  const host = await app.inject({ method: 'GET', url: '/host/fails' })
  t.same(host.json(), { hostError: 'Error: host failure' }, "the host's own routes keep the host's error shape")
})
