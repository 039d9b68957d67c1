import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { drawerCarts } from '../../examples/memory-shop/routes.ts'
import { cartDrawer, STORE_ROUTES, type CommercePort } from '../../drawer/index.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaAdminLogin } from './tea-shop.ts'

/**
 * The cart routes the drawer serves itself for a host without a Store API (`storeApi: 'drawer'`), through the example
 * host, which uses them: `{restRoot}svc/v1/store/cart`, `cart/add-item`, `cart/update-item`, `cart/remove-item`,
 * `cart/apply-coupon`, `cart/remove-coupon`. Catalog: Sencha 1 (€12.00), Strainer 3, Teapot 5 (variation 52 large),
 * Gift Box 6 (hidden, the add-on), coupon steep10.
 */

type Json = Record<string, any>

const STORE = '/api/svc/v1/store/cart'
const ORIGIN = { origin: TEA_URL }
const ABSENT_KEY = 'f'.repeat(32)

function expectError (t: Test, response: LightMyRequestResponse, status: number, code: string, what: string): Json {
  t.equal(response.statusCode, status, `${what}: ${status}`, { body: response.body })
  const body = response.json()
  t.equal(body.code, code, `${what}: ${code}`)
  t.equal(body.data?.status, status, `${what}: in the REST error shape`)
  return body
}

/** A browser of the tea shop calling the drawer's cart routes: it keeps the Cart-Token each answer sends. */
class Visitor {
  readonly #app: FastifyInstance
  token: string | null = null
  readonly headers: Record<string, string>

  constructor (app: FastifyInstance, headers: Record<string, string> = {}) {
    this.#app = app
    this.headers = headers
  }

  async send (method: InjectOptions['method'], path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({
      method,
      url: `${STORE}${path}`,
      headers: { ...ORIGIN, ...(this.token === null ? {} : { 'cart-token': this.token }), ...this.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] })
    })
    const token = response.headers['cart-token']
    if (typeof token === 'string') this.token = token
    return response
  }

  async ok (method: InjectOptions['method'], path: string, payload?: unknown, status = 200): Promise<Json> {
    const response = await this.send(method, path, payload)
    if (response.statusCode !== status) throw new Error(`${String(method)} ${path}: ${response.statusCode} ${response.body}`)
    return response.json()
  }
}

const lines = (cart: Json) => cart.items.map((item: Json) => [item.id, item.quantity])
const keyOf = (cart: Json, id: number): string => cart.items.find((item: Json) => item.id === id)?.key

test('the drawer\'s own cart routes on the example host (storeApi: drawer)', async (t) => {
  const { app, shop } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'pro' })
  t.teardown(() => app.close())
  await app.ready()

  t.test('registered as svc/v1 cart-session routes; the host serves no Store API cart', async (t) => {
    const store = app.svcRoutes.filter((route) => route.path.startsWith('/store/'))
    t.same(store.map((route) => `${route.method} ${route.path}`).sort(), [...STORE_ROUTES].sort(), 'every route of STORE_ROUTES')
    t.ok(store.every((route) => route.access === 'cart' && route.edition === 'free'), 'access group cart, in both editions')
    t.ok(store.filter((route) => route.method === 'POST').every((route) => route.rateLimit !== null && route.bodyLimit !== null), 'writes are rate and body limited')
    t.equal((await app.inject({ method: 'GET', url: '/api/wc/store/v1/cart' })).statusCode, 404, 'no Store API cart of the host')
    const page = await app.inject({ method: 'GET', url: '/' })
    const config = JSON.parse(/<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/s.exec(page.body)?.[1] ?? 'null')
    t.equal(config.storeApi, 'drawer', 'the page tells the script to use them')
  })

  t.test('GET cart: a Cart-Token issued for the session\'s cart, the cart with extensions.svc', async (t) => {
    const visitor = new Visitor(app)
    const first = await visitor.send('GET', '')
    t.equal(first.statusCode, 200, { body: first.body })
    t.type(first.headers['cart-token'], 'string', 'a Cart-Token without one sent')
    t.equal(app.commerce.cartKeyOfToken(String(first.headers['cart-token'])) !== null, true, 'which the port accepts')
    t.match(first.headers['cache-control'], /no-store/, 'never cached')
    const cart = first.json()
    t.match(cart, { items: [], items_count: 0, coupons: [], totals: { total_price: '0', currency_code: 'EUR' } })
    t.type(cart.extensions.svc.drawer_config, 'object', 'the drawer settings the script reads')
    t.type(cart.extensions.svc.launcher, 'object')

    // The page's own add goes to the cart cookie the drawer's answer set: the drawer's next read sees it.
    const cookie = first.cookies.map(({ name, value }) => `${name}=${value}`).join('; ')
    const added = await app.inject({ method: 'POST', url: '/api/cart/add', headers: { cookie }, payload: { id: 1, quantity: 2 } })
    t.equal(added.statusCode, 201)
    t.same(lines(await visitor.ok('GET', '')), [[1, 2]], 'the token\'s cart is the page\'s cart')
    const again = await app.inject({ method: 'GET', url: STORE, headers: { ...ORIGIN, cookie } })
    t.equal(again.json().items_count, 2, 'without a token, the session cookie\'s cart')

    expectError(t, await app.inject({ method: 'GET', url: STORE, headers: { ...ORIGIN, 'cart-token': 'forged' } }), 403, 'svc_invalid_cart_token', 'an invalid token')
    expectError(t, await app.inject({ method: 'GET', url: STORE, headers: { origin: 'https://evil.test' } }), 403, 'svc_forbidden_origin', 'another origin')
    expectError(t, await app.inject({ method: 'GET', url: STORE, headers: { ...ORIGIN, 'x-wp-nonce': 'abc' } }), 403, 'svc_invalid_nonce', 'a guest sending a nonce')
  })

  t.test('add-item, update-item, remove-item', async (t) => {
    const visitor = new Visitor(app)
    await visitor.ok('GET', '')
    const before = visitor.token
    const added = await visitor.ok('POST', '/add-item', { id: 1, quantity: 2 }, 201)
    t.same(lines(added), [[1, 2]], 'add-item adds (201)')
    t.match(added.items[0], { name: 'Sencha Green Tea', prices: { price: '1200', line_subtotal: '2400' }, extensions: { svc: { key: added.items[0].key } } })
    t.ok(visitor.token !== null && visitor.token !== '' && app.commerce.cartKeyOfToken(visitor.token) === app.commerce.cartKeyOfToken(before!), 'a fresh Cart-Token of the same cart')
    const teapot = await visitor.ok('POST', '/add-item', { id: 5, variation: [{ attribute: 'pa_size', value: 'large' }] }, 201)
    t.same(lines(teapot), [[1, 2], [52, 1]], 'the Store API\'s variation list chooses the variation')

    const sencha = keyOf(added, 1)
    t.same(lines(await visitor.ok('POST', '/update-item', { key: sencha, quantity: 5 })), [[1, 5], [52, 1]], 'update-item sets the quantity')
    t.same(lines(await visitor.ok('POST', '/update-item', { key: sencha, quantity: 0 })), [[52, 1]], 'and 0 removes the line')
    const removed = await visitor.ok('POST', '/remove-item', { key: keyOf(teapot, 52) })
    t.same(removed.items, [], 'remove-item removes')
    t.equal(removed.items_count, 0)

    expectError(t, await visitor.send('POST', '/add-item', { id: 'one' }), 400, 'svc_invalid_params', 'add-item: an id that is no number')
    expectError(t, await visitor.send('POST', '/add-item', { id: 1, quantity: 0 }), 400, 'svc_invalid_params', 'add-item: quantity 0')
    expectError(t, await visitor.send('POST', '/add-item', { id: 1, extra: true }), 400, 'svc_invalid_params', 'add-item: an unknown property')
    expectError(t, await visitor.send('POST', '/add-item', { id: 999 }), 400, 'woocommerce_rest_cart_invalid_product', 'add-item: an unknown product (the shop\'s refusal)')
    expectError(t, await visitor.send('POST', '/update-item', { key: 'nope', quantity: 1 }), 400, 'svc_invalid_params', 'update-item: a key that is no key')
    expectError(t, await visitor.send('POST', '/update-item', { key: ABSENT_KEY, quantity: -1 }), 400, 'svc_invalid_params', 'update-item: a negative quantity')
    expectError(t, await visitor.send('POST', '/update-item', { key: ABSENT_KEY }), 400, 'svc_invalid_params', 'update-item: no quantity')
    expectError(t, await visitor.send('POST', '/update-item', '{"key":', { 'content-type': 'application/json' }), 400, 'svc_invalid_json', 'update-item: broken JSON')
    const gone = expectError(t, await visitor.send('POST', '/update-item', { key: ABSENT_KEY, quantity: 2 }), 409, 'svc_cart_invalid_key', 'update-item: a line not in the cart')
    t.same(gone.data.keys, [ABSENT_KEY], 'naming the key')
    t.match(gone.data.cart, { items: [], items_count: 0 }, 'with the cart as it stands')
    expectError(t, await visitor.send('POST', '/remove-item', { key: ABSENT_KEY }), 409, 'svc_cart_invalid_key', 'remove-item: a line not in the cart')
    expectError(t, await visitor.send('POST', '/remove-item', {}), 400, 'svc_invalid_params', 'remove-item: no key')
    expectError(t, await visitor.send('POST', '/add-item', { id: 1, pad: 'x'.repeat(20_000) }), 413, 'svc_body_too_large', 'a body over the write limit')
    expectError(t, await visitor.send('POST', '/update-item', { key: ABSENT_KEY, quantity: 1 }, { 'cart-token': 'forged' }), 403, 'svc_invalid_cart_token', 'a write with an invalid token')
  })

  t.test('apply-coupon and remove-coupon', async (t) => {
    const visitor = new Visitor(app)
    await visitor.ok('GET', '')
    await visitor.ok('POST', '/add-item', { id: 1, quantity: 2 }, 201)
    const applied = await visitor.ok('POST', '/apply-coupon', { code: ' STEEP10 ' })
    t.same(applied.coupons.map((coupon: Json) => coupon.code), ['steep10'], 'applied')
    t.equal(applied.coupons[0].discount, '240', 'ten percent off')
    expectError(t, await visitor.send('POST', '/apply-coupon', { code: 'steep10' }), 409, 'svc_coupon_already_applied', 'twice')
    const unknown = expectError(t, await visitor.send('POST', '/apply-coupon', { code: 'nope' }), 400, 'svc_coupon_invalid', 'an unknown coupon')
    t.equal(unknown.data.reason, 'not_found')
    expectError(t, await visitor.send('POST', '/apply-coupon', { code: ' ' }), 400, 'svc_invalid_params', 'a blank code')
    t.same((await visitor.ok('POST', '/remove-coupon', { code: 'steep10' })).coupons, [], 'removed')
    expectError(t, await visitor.send('POST', '/remove-coupon', { code: 'steep10' }), 404, 'svc_coupon_not_applied', 'not applied')
  })

  t.test('a locked line (a Pro add-on) is refused by update-item and remove-item', async (t) => {
    const admin = await teaAdminLogin(app)
    const saved = await app.settings.save({
      smart_addons: { addons: [{ id: 'gift-box', product_id: 6, label: 'Gift box', description: 'Packed as a present.', conditions: { match: 'all', conditions: [] } }] }
    })
    t.ok(saved.ok, 'the add-on configured')
    t.teardown(async () => { await app.inject({ method: 'DELETE', url: '/api/svc/v1/settings', headers: { ...ORIGIN, cookie: admin.cookie, 'x-wp-nonce': admin.nonce } }) })
    const visitor = new Visitor(app)
    await visitor.ok('GET', '')
    await visitor.ok('POST', '/add-item', { id: 1 }, 201)
    const toggled = await app.inject({ method: 'POST', url: '/api/svc/v1/smart-addons/toggle', headers: { ...ORIGIN, 'cart-token': visitor.token! }, payload: { addon_id: 'gift-box', active: true } })
    t.equal(toggled.statusCode, 200, { body: toggled.body })
    const cart = await visitor.ok('GET', '')
    const addonKey = keyOf(cart, 6)
    t.same(cart.extensions.svc.optional_locked_keys, [addonKey], 'the add-on line is locked')
    t.equal(cart.items.find((item: Json) => item.id === 6).extensions.svc.removable, false)

    const update = expectError(t, await visitor.send('POST', '/update-item', { key: addonKey, quantity: 3 }), 409, 'svc_cart_item_locked', 'update-item of the locked line')
    t.same(update.data.keys, [addonKey])
    t.same(lines(update.data.cart), [[1, 1], [6, 1]], 'with the cart unchanged')
    expectError(t, await visitor.send('POST', '/update-item', { key: addonKey, quantity: 0 }), 409, 'svc_cart_item_locked', 'update-item to 0 of the locked line')
    expectError(t, await visitor.send('POST', '/remove-item', { key: addonKey }), 409, 'svc_cart_item_locked', 'remove-item of the locked line')
    t.same(lines(await visitor.ok('GET', '')), [[1, 1], [6, 1]], 'nothing changed')
    // The host's own quantity change, as the drawer calls it, refuses the line itself (a change racing the drawer's check).
    const key = app.commerce.cartKeyOfToken(visitor.token!)!
    await t.rejects(drawerCarts(shop).setQuantity!(key, addonKey, 2, { canReadPrivate: false }),
      { name: 'CartActionError', domainError: { reason: 'item_locked' } }, 'the capability refuses the locked line')
  })

  t.test('a cart bound to a user is refused to a guest\'s token; the shopper gets it with the nonce', async (t) => {
    const admin = await teaAdminLogin(app)
    const shopper = new Visitor(app, { cookie: admin.cookie, 'x-wp-nonce': admin.nonce })
    await shopper.ok('GET', '')
    const cart = await shopper.ok('POST', '/add-item', { id: 3 }, 201)
    t.same(lines(cart), [[3, 1]], 'the logged-in shopper adds (the cart is now bound to them)')
    expectError(t, await app.inject({ method: 'GET', url: STORE, headers: { ...ORIGIN, cookie: admin.cookie } }), 403, 'svc_invalid_nonce', 'logged in without the nonce')

    const guest = new Visitor(app)
    guest.token = shopper.token
    expectError(t, await guest.send('GET', ''), 403, 'svc_invalid_cart_token', 'GET cart with the bound cart\'s token, as a guest')
    expectError(t, await guest.send('POST', '/add-item', { id: 1 }), 403, 'svc_invalid_cart_token', 'add-item, as a guest')
    expectError(t, await guest.send('POST', '/update-item', { key: keyOf(cart, 3), quantity: 4 }), 403, 'svc_invalid_cart_token', 'update-item, as a guest')
    t.same(lines(await shopper.ok('GET', '')), [[3, 1]], 'the shopper\'s cart is untouched')
  })
})

test('storeApi: drawer does not start without the carts option, and names what it lacks', async (t) => {
  const ownTokens = { cartKeyOfToken: () => null } as unknown as CommercePort
  const options = { commerce: ownTokens, stores: {} as never, secrets: [TEA_SECRET], rateCounter: createMemoryRateCounter() }
  t.teardown(() => options.rateCounter.close())
  const app = Fastify()
  app.register(cartDrawer, { ...options, storeApi: 'drawer' })
  await t.rejects(async () => { await app.ready() }, /storeApi 'drawer' serves the cart routes itself and needs the carts option with carts\.sessionCartKey, carts\.issueToken/)
  const partial = Fastify()
  partial.register(cartDrawer, { ...options, storeApi: 'drawer', carts: { setQuantity: async () => { throw new Error('unused') } } as never })
  await t.rejects(async () => { await partial.ready() }, /needs the carts option with carts\.sessionCartKey, carts\.issueToken/)
  // A port that leaves the Cart-Tokens to the drawer needs no issueToken: the drawer sends its own.
  const drawerTokens = Fastify()
  drawerTokens.register(cartDrawer, { ...options, commerce: {} as CommercePort, storeApi: 'drawer' })
  await t.rejects(async () => { await drawerTokens.ready() }, /needs the carts option with carts\.sessionCartKey \(see/)
  const wrong = Fastify()
  wrong.register(cartDrawer, { ...options, storeApi: 'both' as never })
  await t.rejects(async () => { await wrong.ready() }, /storeApi must be 'host' or 'drawer'/)
})
