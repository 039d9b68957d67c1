import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaAdminLogin, teaCartToken } from './tea-shop.ts'

/**
 * The drawer's reactions to a cart change on a host that holds a per-cart lock around each change, its hooks and its
 * follow-up write included (examples/memory-shop/, whose lock is not re-entrant, as most shops' locks are): bundles
 * re-priced, an add-on dropped when its condition fails, reward gifts, each through the host's own cart routes. Any
 * call from a hook back into a cart operation of the same cart would wait on that lock for ever: every step has a
 * short timeout so such a wait fails fast, and closing the app must finish.
 *
 * The tea shop's catalog (examples/memory-shop/catalog.ts): Sencha 1 at €12.00, Strainer 3 at €8.00, Honey 4 at
 * €9.00, Gift Box 6 at €4.00 (hidden). The "brew" bundle here is Sencha and Strainer at 10 % off.
 */

type Json = Record<string, any>

const SVC = '/api/svc/v1'
const ORIGIN = { origin: TEA_URL }
/** Long enough for a slow machine, short enough that a lock waited on for ever fails the step quickly. */
const STEP = { timeout: 15_000 }
const SENCHA = 1
const STRAINER = 3
const HONEY = 4
const GIFT_BOX = 6

const BREW = {
  id: 'brew',
  title: 'Brew kit',
  description: 'A tea and its strainer.',
  discount_percent: 10,
  slots: [{ label: 'Tea', product_ids: [SENCHA] }, { label: 'Strainer', product_ids: [STRAINER] }]
}
const none = { match: 'all', conditions: [] }

/** Settles within `ms` or rejects: a close that waits on a lock for ever fails instead of hanging the file. */
function within<T> (promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms} ms`)), ms) })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A guest of the tea shop: the shop's own cart routes and the drawer's `svc/v1`, with one Cart-Token. */
class Shopper {
  readonly #app: FastifyInstance
  #token: string

  private constructor (app: FastifyInstance, token: string) {
    this.#app = app
    this.#token = token
  }

  static async guest (app: FastifyInstance): Promise<Shopper> {
    return new Shopper(app, await teaCartToken(app))
  }

  async #send (method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({ method, url, headers: { ...ORIGIN, 'cart-token': this.#token }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) })
    const token = response.headers['cart-token']
    if (typeof token === 'string') this.#token = token
    return response
  }

  async #ok (method: InjectOptions['method'], url: string, payload?: unknown): Promise<Json> {
    const response = await this.#send(method, url, payload)
    if (response.statusCode >= 300) throw new Error(`${String(method)} ${url}: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  /** The shop's own add (`POST /api/cart/add`). */
  add (id: number, quantity = 1): Promise<Json> {
    return this.#ok('POST', '/api/cart/add', { id, quantity, variation: {} })
  }

  /** The shop's own quantity change (`POST /api/cart/update-item`; 0 removes the line). */
  quantity (key: string, quantity: number): Promise<Json> {
    return this.#ok('POST', '/api/cart/update-item', { key, quantity })
  }

  /** The shop's own cart (`GET /api/cart`). */
  cart (): Promise<Json> {
    return this.#ok('GET', '/api/cart')
  }

  svc (method: InjectOptions['method'], path: string, payload?: unknown): Promise<Json> {
    return this.#ok(method, `${SVC}/${path}`, payload)
  }
}

/** `[product id, quantity, line total]` of each line of a shop cart answer. */
const lines = (cart: Json) => cart.items.map((item: Json) => [item.id, item.quantity, Number(item.prices.line_total)])
const keyOf = (cart: Json, id: number): string => cart.items.find((item: Json) => item.id === id)?.key

/** The answer of a change, the stored cart and the drawer's cart agree on the lines and the discount. */
async function agree (t: Test, shopper: Shopper, answer: Json, expected: Array<[number, number, number]>, discount: number, what: string): Promise<void> {
  t.same(lines(answer), expected, `${what}: the answer`)
  t.equal(Number(answer.totals.total_discount), discount, `${what}: the answer's discount`)
  const stored = await shopper.cart()
  t.same(lines(stored), expected, `${what}: the stored cart`)
  const drawer = await shopper.svc('GET', 'cart')
  t.equal(Number(drawer.cartDiscount), discount, `${what}: the drawer's discount`)
  t.equal(drawer.cartTotal, stored.totals.total_price, `${what}: the drawer's total is the shop's`)
}

test('the drawer\'s reactions on a host that locks each cart change, hooks included', { timeout: 120_000 }, async (t) => {
  const { app } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'pro' })
  let closed = false
  // A fallback for a failed run: a close that hangs must not hold the file until tap's own timeout.
  t.teardown(async () => { if (!closed) await within(app.close(), 5_000, 'app.close()').catch(() => {}) })
  await app.ready()
  const admin = await teaAdminLogin(app)
  const configure = async (t: Test, patch: Json) => {
    const headers = { ...ORIGIN, cookie: admin.cookie, 'x-wp-nonce': admin.nonce }
    const saved = await app.inject({ method: 'POST', url: `${SVC}/settings`, headers, payload: { settings: patch } })
    if (saved.statusCode !== 200) throw new Error(`POST settings: ${saved.statusCode} ${saved.body}`)
    t.teardown(async () => { await app.inject({ method: 'DELETE', url: `${SVC}/settings`, headers }) })
  }

  t.test('a bundle: raised and lowered through the shop\'s quantity route, broken and formed again', STEP, async (t) => {
    await configure(t, { bundles: { enabled: true, bundles: [BREW] } })
    const shopper = await Shopper.guest(app)
    await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'brew', product_ids: [SENCHA, STRAINER] })
    const added = await shopper.cart()
    await agree(t, shopper, added, [[SENCHA, 1, 1080], [STRAINER, 1, 720]], 200, 'the bundle added')
    const sencha = keyOf(added, SENCHA)
    const strainer = keyOf(added, STRAINER)

    await agree(t, shopper, await shopper.quantity(sencha, 2), [[SENCHA, 2, 2280], [STRAINER, 1, 720]], 200, 'a second Sencha: not part of a bundle')
    await agree(t, shopper, await shopper.quantity(strainer, 2), [[SENCHA, 2, 2160], [STRAINER, 2, 1440]], 400, 'a second Strainer: two bundles')
    await agree(t, shopper, await shopper.quantity(sencha, 1), [[SENCHA, 1, 1080], [STRAINER, 2, 1520]], 200, 'one Sencha again: one bundle')
    await agree(t, shopper, await shopper.quantity(strainer, 0), [[SENCHA, 1, 1200]], 0, 'no Strainer: the bundle broken')

    await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'brew', product_ids: [SENCHA, STRAINER] })
    await agree(t, shopper, await shopper.cart(), [[SENCHA, 2, 2280], [STRAINER, 1, 720]], 200, 'added again: one bundle with the Sencha already there')
  })

  t.test('a smart add-on: toggled on, then dropped by the shop\'s change that fails its condition', STEP, async (t) => {
    await configure(t, {
      smart_addons: {
        enabled: true,
        addons: [{ id: 'gift-box', product_id: GIFT_BOX, label: 'Gift box', description: 'With a strainer only.', conditions: { match: 'all', conditions: [{ type: 'product_in_cart', operator: 'contains_any', value: [STRAINER] }] } }]
      }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(SENCHA)
    const withStrainer = await shopper.add(STRAINER)
    const toggled = await shopper.svc('POST', 'smart-addons/toggle', { addon_id: 'gift-box', active: true })
    t.ok(toggled.cartItems.some((item: Json) => item.product_id === GIFT_BOX), 'the gift box is in the cart')
    const removed = await shopper.quantity(keyOf(withStrainer, STRAINER), 0)
    await agree(t, shopper, removed, [[SENCHA, 1, 1200]], 0, 'the Strainer removed: the gift box goes with it')
    t.same(await shopper.svc('GET', 'smart-addons'), [], 'and is no longer offered')
  })

  t.test('a reward gift: reached when the bundle\'s re-pricing lifts the cart past the tier, lost below it', STEP, async (t) => {
    await configure(t, {
      bundles: { enabled: true, bundles: [BREW] },
      rewards: { tiers: [{ id: 'honey', label: 'Free honey', reward: 'gift', threshold: 2900, amount: 0, product_id: HONEY, conditions: none }] }
    })
    const shopper = await Shopper.guest(app)
    await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'brew', product_ids: [SENCHA, STRAINER] })
    const sencha = keyOf(await shopper.cart(), SENCHA)
    // Two Sencha at the bundle's 10 % would be €28.80, below the tier; re-priced (one of them at full price) €30.00.
    await agree(t, shopper, await shopper.quantity(sencha, 2), [[SENCHA, 2, 2280], [STRAINER, 1, 720], [HONEY, 1, 0]], 200, 'the tier reached: the honey at zero')
    await agree(t, shopper, await shopper.quantity(sencha, 1), [[SENCHA, 1, 1080], [STRAINER, 1, 720]], 200, 'below the tier: the honey gone')
  })

  t.test('changes of one cart at once: each waits its turn, none is lost', STEP, async (t) => {
    await configure(t, {
      bundles: { enabled: true, bundles: [BREW] },
      smart_addons: { enabled: true, addons: [{ id: 'gift-box', product_id: GIFT_BOX, label: 'Gift box', description: '', conditions: none }] }
    })
    const shopper = await Shopper.guest(app)
    await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'brew', product_ids: [SENCHA, STRAINER] })
    const sencha = keyOf(await shopper.cart(), SENCHA)
    // Changes that commute: whatever order the lock lets them in, the cart ends the same.
    await Promise.all([
      shopper.quantity(sencha, 2),
      shopper.svc('POST', 'smart-addons/toggle', { addon_id: 'gift-box', active: true }),
      shopper.svc('POST', 'coupon', { code: 'steep10' }),
      shopper.add(HONEY)
    ])
    const cart = await shopper.cart()
    t.same(cart.items.map((item: Json) => [item.id, item.quantity]).sort(), [[GIFT_BOX, 1], [HONEY, 1], [SENCHA, 2], [STRAINER, 1]].sort(), 'every change landed')
    t.same(cart.coupons.map((coupon: Json) => coupon.code), ['steep10'], 'the coupon too')
    // One Sencha at the bundle's 10 % and one at full price (€22.80), then the coupon's 10 %.
    t.same(lines(cart).find(([id]: number[]) => id === SENCHA), [SENCHA, 2, 2052], 'the bundle re-priced, under the coupon')
  })

  t.test('the app closes', STEP, async (t) => {
    closed = true
    await within(app.close(), 5_000, 'app.close()')
    t.pass('closed')
  })
})
