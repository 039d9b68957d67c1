import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaAdminLogin, teaCartToken } from './tea-shop.ts'

/**
 * The drawer's `svc/v1` routes a shop relies on, through the example host (examples/memory-shop/, Pro edition): the
 * tea shop's own Cart-Tokens, login and catalog behind the drawer's cart, coupon, recommendation, Pro and admin
 * routes, its request rules, the fragment and `extensions.svc` on the shop's own cart answers, the storefront script
 * and the admin screens. Statuses, codes and bodies as the specification gives them; the tea shop's catalog is in
 * examples/memory-shop/catalog.ts (Sencha 1, €12.00; Strainer 3, €8.00; Honey 4; Gift Box 6, hidden; coupon steep10).
 */

type Json = Record<string, any>

const SVC = '/api/svc/v1'
const ORIGIN = { origin: TEA_URL }
const ABSENT_KEY = 'f'.repeat(32)

function expectError (t: Test, response: LightMyRequestResponse, status: number, code: string, what: string): Json {
  t.equal(response.statusCode, status, `${what}: ${status}`, { body: response.body })
  const body = response.json()
  t.equal(body.code, code, `${what}: ${code}`)
  t.equal(body.data?.status, status, `${what}: in the REST error shape`)
  return body
}

/** A shopper of the tea shop: its Cart-Token from the shop's cart route, its adds through the shop's own API. */
class Shopper {
  readonly #app: FastifyInstance
  token: string
  readonly headers: Record<string, string>

  constructor (app: FastifyInstance, token: string, headers: Record<string, string> = {}) {
    this.#app = app
    this.token = token
    this.headers = headers
  }

  static async guest (app: FastifyInstance): Promise<Shopper> {
    return new Shopper(app, await teaCartToken(app))
  }

  /** `POST /api/cart/add` (201 expected): the shop's answer. */
  async add (id: number, quantity = 1, variation: Record<string, string> = {}): Promise<Json> {
    const response = await this.#app.inject({ method: 'POST', url: '/api/cart/add', headers: { ...ORIGIN, 'cart-token': this.token }, payload: { id, quantity, variation } })
    if (response.statusCode !== 201) throw new Error(`add ${id}: ${response.statusCode} ${response.body}`)
    this.token = String(response.headers['cart-token'])
    return response.json()
  }

  svc (method: InjectOptions['method'], path: string, payload?: unknown, extra: Partial<InjectOptions> = {}): Promise<LightMyRequestResponse> {
    return this.#app.inject({ method, url: `${SVC}/${path}`, headers: { ...ORIGIN, 'cart-token': this.token, ...this.headers }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }), ...extra })
  }

  async ok (method: InjectOptions['method'], path: string, payload?: unknown): Promise<Json> {
    const response = await this.svc(method, path, payload)
    if (response.statusCode !== 200) throw new Error(`${String(method)} ${path}: ${response.statusCode} ${response.body}`)
    return response.json()
  }
}

const keyOf = (cart: Json, productId: number): string => cart.cartItems.find((item: Json) => item.product_id === productId)?.key

test('the drawer on the example host (Pro)', async (t) => {
  const { app } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'pro' })
  t.teardown(() => app.close())
  await app.ready()
  const admin = await teaAdminLogin(app)
  const asAdmin = { ...ORIGIN, cookie: admin.cookie, 'x-wp-nonce': admin.nonce }
  const adminSvc = (method: InjectOptions['method'], path: string, payload?: unknown) =>
    app.inject({ method, url: `${SVC}/${path}`, headers: asAdmin, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) })
  const settings = async (patch: Json) => {
    const response = await adminSvc('POST', 'settings', { settings: patch })
    if (response.statusCode !== 200) throw new Error(`POST settings: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  t.test('the storefront pages load the drawer script; the manager gets the admin link', async (t) => {
    const page = await app.inject({ method: 'GET', url: '/' })
    t.equal(page.statusCode, 200)
    t.match(page.body, /<script src="\/assets\/svc-drawer\.js\?v=[^"]+" defer><\/script>/, 'the drawer script, from storefront_scripts')
    const config = JSON.parse(/<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/s.exec(page.body)?.[1] ?? 'null')
    t.match(config, { restRoot: '/api/', edition: 'pro', loggedIn: false, nonce: null }, 'with its configuration')
    t.notMatch(page.body, '/admin/cart-drawer/', 'no admin link for a guest')

    const managed = await app.inject({ method: 'GET', url: '/', headers: { cookie: admin.cookie } })
    t.match(managed.body, 'href="/admin/cart-drawer/"', 'the admin screen linked for the manager (storefront_header_links)')
    t.match(managed.body, '"loggedIn":true', 'the logged-in configuration')

    const product = await app.inject({ method: 'GET', url: '/product/cast-iron-teapot/' })
    t.equal(product.statusCode, 200)
    t.match(product.body, '/assets/svc-drawer.js?v=', 'the product page too')
  })

  t.test('the drawer script and the admin screens', async (t) => {
    const script = await app.inject({ method: 'GET', url: '/assets/svc-drawer.js' })
    t.equal(script.statusCode, 200, 'the script is served')
    t.match(String(script.headers['content-type']), /javascript/)

    const guest = await app.inject({ method: 'GET', url: '/admin/cart-drawer/' })
    t.equal(guest.statusCode, 401, 'the admin screen asks a guest to log in')
    t.match(guest.body, /<form/, 'with the login form')
    const manager = await app.inject({ method: 'GET', url: '/admin/cart-drawer/', headers: { cookie: admin.cookie } })
    t.equal(manager.statusCode, 200, 'the manager gets the settings screen')
  })

  t.test("the shop's own cart answers carry the fragment and extensions.svc", async (t) => {
    const shopper = await Shopper.guest(app)
    const added = await shopper.add(1, 2)
    const fragment = added.fragments?.['.svc-cart-json']
    t.match(fragment, /^<script type="application\/json" class="svc-cart-json">/, 'the .svc-cart-json fragment on the add')
    const state = JSON.parse(/>(.*)<\/script>$/s.exec(String(fragment))?.[1] ?? 'null')
    t.match(state, { cartCount: 2, cartSubtotal: '2400' }, 'holding the drawer\'s cart state')

    const cart = (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': shopper.token } })).json()
    t.same(Object.keys(cart.extensions.svc).sort(), ['coupons', 'drawer_config', 'item_presentations', 'launcher', 'optional_locked_keys'], 'extensions.svc on the cart')
    t.equal(cart.items[0].extensions.svc.key, cart.items[0].key, 'and on each item')
    t.equal(cart.extensions.svc.item_presentations[0].key, cart.items[0].key, 'with the presentation rows')
  })

  t.test('GET cart: the drawer\'s cart state', async (t) => {
    const shopper = await Shopper.guest(app)
    const empty = await shopper.ok('GET', 'cart')
    t.match(empty, { cartItems: [], cartCount: 0, cartHash: '' }, 'a new cart is empty')
    await shopper.add(1, 2)
    await shopper.add(5, 1, { pa_size: 'large' })
    const cart = await shopper.ok('GET', 'cart')
    t.same(cart.cartItems.map((item: Json) => [item.product_id, item.variation_id, item.quantity]), [[1, 0, 2], [5, 52, 1]], 'the shop\'s lines')
    t.equal(cart.cartCount, 3)
    t.equal(cart.cartSubtotal, String(2 * 1200 + 4500), 'the items before discounts')
    t.equal(cart.currency.currency_code, 'EUR', 'in the shop\'s currency')
    t.equal(cart.cartItems[0].permalink, `${TEA_URL}/product/sencha-green-tea/`, 'links from productUrl')
    t.match(cart.cartItems[1].permalink, /cast-iron-teapot\/\?attribute_pa_size=large$/, 'a variation\'s with its attribute')
  })

  t.test('remove-items: all or none, 409 with the cart on an unknown key', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(1)
    await shopper.add(3)
    const before = await shopper.ok('GET', 'cart')
    const keys = [keyOf(before, 1), keyOf(before, 3)]

    const refused = expectError(t, await shopper.svc('POST', 'cart/remove-items', { keys: [keys[0], ABSENT_KEY] }), 409, 'svc_cart_invalid_key', 'an unknown key')
    t.same(refused.data.keys, [ABSENT_KEY], 'naming the unknown key')
    t.same(refused.data.cart, before, 'with the cart as it stands')
    t.same(await shopper.ok('GET', 'cart'), before, 'nothing removed')

    const removed = await shopper.ok('POST', 'cart/remove-items', { keys })
    t.same(removed.cartItems, [], 'both removed')
    t.equal(removed.cartCount, 0)
  })

  t.test('coupon: apply and remove', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(1)
    const applied = await shopper.ok('POST', 'coupon', { code: 'STEEP10' })
    t.same(applied.coupons.map((coupon: Json) => coupon.code), ['steep10'], 'applied')
    t.equal(applied.cartDiscount, '120', '10 % of 1200')
    expectError(t, await shopper.svc('POST', 'coupon', { code: 'steep10' }), 409, 'svc_coupon_already_applied', 'the same coupon again')
    const unknown = expectError(t, await shopper.svc('POST', 'coupon', { code: 'no-such-coupon' }), 400, 'svc_coupon_invalid', 'an unknown coupon')
    t.equal(unknown.data.reason, 'not_found')

    const removed = await shopper.ok('DELETE', 'coupon', { code: 'steep10' })
    t.same(removed.coupons, [], 'removed')
    t.equal(removed.cartDiscount, '0')
    expectError(t, await shopper.svc('DELETE', 'coupon', { code: 'steep10' }), 404, 'svc_coupon_not_applied', 'removed again')
  })

  t.test('drawer-data, recommendations and recommendations/add', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(1)
    const recommended = await shopper.ok('GET', 'recommendations')
    t.equal(recommended.source, 'cross_sells')
    t.same(recommended.products.map((product: Json) => product.id), [3, 4], 'Sencha\'s cross-sells')
    t.match(recommended.products[0], { name: 'Tea Strainer', permalink: `${TEA_URL}/product/tea-strainer/`, prices: { price: '800' } })

    const data = await shopper.ok('GET', 'drawer-data')
    t.same(Object.keys(data).sort(), ['cart', 'recommendations', 'shipping_meter', 'smart_addons', 'spotlight'], 'every section of Pro')
    t.same(data.recommendations, recommended, 'the same recommendations')
    t.equal(data.cart.cartCount, 1)
    t.same(Object.keys(await shopper.ok('GET', 'drawer-data?fields=cart')), ['cart'], 'only the sections asked for')
    expectError(t, await shopper.svc('GET', 'drawer-data?fields=nonsense'), 400, 'svc_invalid_params', 'an unknown section')

    const added = await shopper.ok('POST', 'recommendations/add', { product_id: 3 })
    t.same(added.cartItems.map((item: Json) => [item.product_id, item.quantity]), [[1, 1], [3, 1]], 'the strainer is added')
    t.same((await shopper.ok('GET', 'recommendations')).products.map((product: Json) => product.id), [4], 'and no longer recommended')
    expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: 999 }), 404, 'svc_product_not_found', 'an unknown product')
    expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: 5 }), 400, 'svc_product_not_addable', 'a variable product')
    expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: 6 }), 400, 'svc_product_not_addable', 'a hidden product')
  })

  t.test('the access rules', async (t) => {
    const shopper = await Shopper.guest(app)
    expectError(t, await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: ORIGIN }), 403, 'svc_invalid_cart_token', 'no Cart-Token')
    const forged = shopper.token.replace(/\.[^.]+$/, '.forged-signature')
    expectError(t, await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: { ...ORIGIN, 'cart-token': forged } }), 403, 'svc_invalid_cart_token', 'a forged Cart-Token')
    expectError(t, await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: { origin: 'https://evil.example', 'cart-token': shopper.token } }), 403, 'svc_forbidden_origin', 'another origin')
    expectError(t, await shopper.svc('GET', 'cart', undefined, { headers: { ...ORIGIN, 'cart-token': shopper.token, 'x-wp-nonce': admin.nonce } }), 403, 'svc_invalid_nonce', 'a guest sending a nonce')

    for (const [method, path] of [['GET', 'settings'], ['POST', 'settings'], ['GET', 'analytics/summary'], ['GET', 'products/search?search=tea']] as const) {
      expectError(t, await app.inject({ method, url: `${SVC}/${path}`, headers: ORIGIN, ...(method === 'POST' ? { payload: { settings: {} } } : {}) }), 401, 'svc_not_logged_in', `${method} ${path} without a login`)
    }
    expectError(t, await app.inject({ method: 'GET', url: `${SVC}/settings`, headers: { ...ORIGIN, cookie: admin.cookie } }), 403, 'svc_invalid_nonce', 'the manager without the nonce')
    expectError(t, await app.inject({ method: 'GET', url: `${SVC}/settings`, headers: { ...ORIGIN, cookie: admin.cookie, 'x-wp-nonce': 'made-up-nonce' } }), 403, 'svc_invalid_nonce', 'the manager with a made-up nonce')

    const read = await adminSvc('GET', 'settings')
    t.equal(read.statusCode, 200, 'the manager reads the settings')
    const saved = await adminSvc('POST', 'settings', { settings: { rewards: { tiers: [{ id: 'ship', label: 'Free shipping', reward: 'free_shipping', threshold: 3000, amount: 0, product_id: 0, conditions: { match: 'all', conditions: [] } }] } }, version: read.json().version })
    t.equal(saved.statusCode, 200, 'and saves them with the nonce', { body: saved.body })
    t.equal(saved.json().settings.rewards.tiers[0].threshold, 3000, 'saved')
    t.equal(saved.json().version, read.json().version + 1, 'a new version')
    t.teardown(async () => { await adminSvc('DELETE', 'settings') })
    const meter = await shopper.ok('GET', 'shipping-meter')
    t.equal(meter.threshold, '3000', 'the drawer reads the saved settings on the next cart request')

    const search = await adminSvc('GET', 'products/search?search=green')
    t.equal(search.statusCode, 200, 'an admin picker searches the shop\'s catalog', { body: search.body })
    t.match(search.body, 'Sencha Green Tea')
  })

  t.test('a rate limit reaches 429', async (t) => {
    const shopper = await Shopper.guest(app)
    const remoteAddress = '203.0.113.17'
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await shopper.svc('POST', 'coupon', { code: 'no-such-coupon' }, { remoteAddress })).statusCode)
    t.same(statuses, Array(10).fill(400), 'ten coupon attempts a minute are answered')
    const limited = await shopper.svc('POST', 'coupon', { code: 'steep10' }, { remoteAddress })
    expectError(t, limited, 429, 'svc_rate_limit_exhausted', 'the eleventh')
    t.match(limited.headers['retry-after'], /^\d+$/, 'with Retry-After')
    t.equal(limited.headers['x-ratelimit-remaining'], '0')
  })

  t.test('Pro: shipping-meter, smart-addons, spotlight', async (t) => {
    t.teardown(async () => { await adminSvc('DELETE', 'settings') })
    await settings({
      rewards: { tiers: [{ id: 'ship', label: 'Free shipping', reward: 'free_shipping', threshold: 5000, amount: 0, product_id: 0, conditions: { match: 'all', conditions: [] } }] },
      smart_addons: { addons: [{ id: 'gift-box', product_id: 6, label: 'Gift box', description: 'Packed as a present.', conditions: { match: 'all', conditions: [] } }] },
      spotlight: { enabled: true, product_id: 4, title: 'Sweeten it', text: 'Heather honey from the moor.', conditions: { match: 'all', conditions: [] } }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(1, 2)

    const meter = await shopper.ok('GET', 'shipping-meter')
    t.match(meter, { enabled: true, threshold: '5000', basis: '2400', remaining: '2600', reached: false }, 'the shipping meter')
    t.equal((await shopper.ok('GET', 'cart')).cartShipping, '450', 'below the tier the host charges its flat rate')
    await shopper.add(1, 3)
    t.match(await shopper.ok('GET', 'shipping-meter'), { basis: '6000', reached: true }, 'past the tier')
    t.equal((await shopper.ok('GET', 'cart')).cartShipping, '0', 'and the example host\'s own totals ship free (the rewards hook)')

    const addons = await shopper.ok('GET', 'smart-addons')
    t.match(addons, [{ id: 'gift-box', label: 'Gift box', active: false, key: null }], 'the add-on offered')
    const toggled = await shopper.ok('POST', 'smart-addons/toggle', { addon_id: 'gift-box', active: true })
    const addonKey = keyOf(toggled, 6)
    t.ok(addonKey, 'the gift box is in the cart')
    t.same(toggled.optionalLockedKeys, [addonKey], 'as a locked line')
    const locked = expectError(t, await shopper.svc('POST', 'cart/remove-items', { keys: [addonKey] }), 409, 'svc_cart_item_locked', 'remove-items of the locked line')
    t.same(locked.data.keys, [addonKey])
    const update = await app.inject({ method: 'POST', url: '/api/cart/update-item', headers: { 'cart-token': shopper.token }, payload: { key: addonKey, quantity: 3 } })
    t.equal(update.statusCode, 409, 'the shop\'s own quantity change refuses it too (the port\'s locks)', { body: update.body })
    const untoggled = await shopper.ok('POST', 'smart-addons/toggle', { addon_id: 'gift-box', active: false })
    t.equal(keyOf(untoggled, 6), undefined, 'the toggle removes it')

    const data = await shopper.ok('GET', 'drawer-data?fields=spotlight')
    t.match(data.spotlight, { title: 'Sweeten it', product: { id: 4, name: 'Heather Honey' }, in_cart: false }, 'the spotlight offer')
    const spotlit = await shopper.ok('POST', 'spotlight/add', { product_id: 4 })
    t.same(spotlit.cartItems.map((item: Json) => [item.product_id, item.quantity]), [[1, 5], [4, 1]], 'spotlight/add adds the honey')
    expectError(t, await shopper.svc('POST', 'spotlight/add', { product_id: 3 }), 400, 'svc_spotlight_unavailable', 'another product')
  })

  t.test('Pro: analytics events land in the memory store', async (t) => {
    const shopper = await Shopper.guest(app)
    const recorded = await shopper.svc('POST', 'analytics/events', { events: [{ type: 'drawer_open' }, { type: 'drawer_open' }] })
    t.equal(recorded.statusCode, 202, { body: recorded.body })
    t.same(recorded.json(), { accepted: 2 })
    const summary = await adminSvc('GET', 'analytics/summary')
    t.equal(summary.statusCode, 200, { body: summary.body })
    t.equal(summary.json().totals.drawer_open, 2, 'counted')
    t.equal(summary.json().visitors, 1, 'one visitor')
  })
})
