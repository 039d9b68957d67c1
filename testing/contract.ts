import type { FastifyInstance } from 'fastify'
import type { AdjustableLine } from '../kernel/domain/adjustments.ts'
import { CartActionError } from '../kernel/domain/cart-action-error.ts'
import type { CartView } from '../kernel/domain/cart-view.ts'
import { rewardAdjustments, type RewardProgram } from '../kernel/domain/rewards.ts'
import { resolveCommercePort, type CartState, type CommercePort, type ResolvedCommercePort, type StorefrontContext, type Viewer } from '../drawer/index.ts'
import { differs, fail, matches, ok, refuses, same } from './checks.ts'

/**
 * The commerce port's contract (drawer/port/port.ts): what any host must do for the cart drawer to work
 * over it, checked through the port itself and through the host's own routes (its Cart-Tokens, its login, its cart
 * response). A host runs it in its own test suite, under tap or node:test; the expected values are written from the
 * port's documentation and the host's fixtures, not read from any implementation.
 */

/** The host's products, coupon and search the contract needs: ids of its own catalog. */
export interface PortContractFixtures {
  /** Two published, visible, in-stock simple products with a regular price and no sale, not sold individually. */
  products: [number, number]
  /** A product with cross-sells, and the ids `CartState.crossSells` must then give (published, not hidden). */
  crossSells: { productId: number, expected: number[] }
  /** `listProducts({ search: term })` finds exactly these ids (at least two; simple and variable products). */
  search: { term: string, ids: number[] }
  /** A percent coupon without minimum spend, expiry or usage limit. */
  percentCoupon: { code: string, percent: number }
  /** A variable product, one of its variations and the attributes that choose it. */
  variation: { parentId: number, variationId: number, attributes: Record<string, string> }
  /** An id no product has. */
  unknownProductId: number
}

/** What the host's own cart response must show (the Store API's shape): `extensions` for the cart and each item. */
export interface HostCartResponse {
  extensions: Record<string, unknown>
  items: Array<{ key: string, extensions: Record<string, unknown> }>
}

/** A host, started for one run of the contract. */
export interface PortContractHost {
  /** The host's application, ready (`inject` reaches its routes). */
  app: FastifyInstance
  /** The port the host gives `cartDrawer`. */
  commerce: CommercePort
  /** A Cart-Token for a new, empty cart, got as a browser gets one (from the host's own cart route). */
  newCartToken (): Promise<string>
  /** Logs the shop manager in through the host's own login: the headers a browser then sends, and the REST nonce the login gave. */
  loginAsAdmin (): Promise<{ headers: Record<string, string>, nonce: string }>
  /** The host's own cart response for a Cart-Token. */
  cartResponse (token: string): Promise<HostCartResponse>
  fixtures: PortContractFixtures
  /** Closes everything the host opened (its app, its database). */
  close (): Promise<void>
}

/**
 * Starts the host. `prepare` must be called with the host's application before it is made ready: it adds one route
 * (`GET /__port-contract/login`) that calls the port's session operations with a real request of the host. The
 * contract replaces the host's locks, reconciler and filter error reporter while it runs, so the host should run
 * the Free edition of the drawer (whose parts set none of them).
 */
export type PortContractStart = (prepare: (app: FastifyInstance) => void) => Promise<PortContractHost>

/** A test's context that can run a subtest: tap's `t` and node:test's `TestContext` both are one. */
export interface ContractTestContext {
  /** Runs a subtest; the promise settles once it ended, passed or failed. */
  test (name: string, fn: () => Promise<void>): Promise<unknown>
}

/** The test runner's top-level `test` function: tap's `test` or node:test's `test` (or `it`). */
export type ContractTest = (name: string, fn: (t: ContractTestContext) => Promise<void>) => unknown

export interface PortContractOptions {
  /** The host's name, in the test's name. */
  name: string
  start: PortContractStart
}

const GUEST: Viewer = { canReadPrivate: false, userId: null }
const PROBE = '/__port-contract/login'
/** A key in the cart item key format that names no line. */
const ABSENT_KEY = 'f'.repeat(32)

/** A token with one character in its middle changed. */
function tampered (token: string): string {
  let index = Math.floor(token.length / 2)
  if (!/[A-Za-z0-9]/.test(token[index]!)) index--
  const replacement = token[index] === 'a' ? 'b' : 'a'
  return token.slice(0, index) + replacement + token.slice(index + 1)
}

const lineSummary = (state: CartState) => state.priced.lines.map(({ line }) => [line.productId, line.variationId, line.quantity])
const byId = (a: number, b: number) => a - b

interface ProbeAnswer {
  login: null | { userId: number, capabilities: string[] }
  canManageShop?: boolean
  restNonce?: unknown
  nonceVerifies?: boolean | null
  forgedNonceVerifies?: boolean
}

/**
 * Registers the contract as one test of `test` (tap's or node:test's) with a subtest per duty of the port; a failed
 * subtest's message names the port member and the duty it broke (`carts.addItem: …`). The host is started once,
 * before the first subtest, and closed after the last.
 */
export function commercePortContract (test: ContractTest, { name, start }: PortContractOptions): void {
  test(`the commerce port's contract: ${name}`, async (t) => {
    let port: ResolvedCommercePort | undefined
    const host = await start((app) => {
      // The session operations need a real request of the host: this route reports what they answer for it.
      app.get(PROBE, async (request) => {
        if (port === undefined) throw new Error('the host answered a request before start() returned')
        const login = await port.login(request)
        if (login === null) return { login: null }
        const nonce = request.headers['x-wp-nonce']
        return {
          login: { userId: login.user.id, capabilities: login.user.capabilities },
          canManageShop: port.canManageShop(login.user),
          restNonce: port.restNonce(login),
          nonceVerifies: typeof nonce === 'string' ? port.verifyNonce(nonce, login) : null,
          forgedNonceVerifies: port.verifyNonce('0123456789abcdef0123', login) || port.verifyNonce('', login)
        }
      })
    })
    try {
      // The port as the drawer uses it: the documented defaults stand in for the optional members the host left out.
      // With the drawer's secrets when the host registered it: the tokens and nonces it leaves to the drawer verify.
      const secrets = host.app.hasDecorator('drawerSecrets') ? (host.app as FastifyInstance & { drawerSecrets: readonly string[] }).drawerSecrets : []
      port = resolveCommercePort(host.commerce, { secrets })
      await runDuties(t, host, port)
    } finally {
      await host.close()
    }
  })
}

async function runDuties (t: ContractTestContext, host: PortContractHost, commerce: ResolvedCommercePort): Promise<void> {
  const { app, fixtures } = host
  const [first, second] = fixtures.products

  async function newCart (): Promise<{ token: string, key: string }> {
    const token = await host.newCartToken()
    const key = commerce.cartKeyOfToken(token)
    if (key === null) fail('cartKeyOfToken: must accept a Cart-Token the host itself gave (it answered null)')
    return { token, key }
  }
  async function priceOf (id: number): Promise<number> {
    const product = await commerce.getProduct(id)
    if (product?.regularPrice == null) throw new Error(`fixtures.products: ${id} is no product with a regular price`)
    return product.regularPrice
  }
  const keyOf = (state: CartState, productId: number, duty: string): string => {
    const found = state.priced.lines.find(({ line }) => line.productId === productId)
    if (found === undefined) fail(`${duty}: the cart has no line of product ${productId}`)
    return found.line.key
  }
  const probe = async (headers: Record<string, string> = {}): Promise<ProbeAnswer> =>
    (await app.inject({ method: 'GET', url: PROBE, headers })).json()

  await t.test("the shop's values: restRoot, homeUrl, siteUrl, currency, urls, now", async () => {
    matches(commerce.restRoot, /^\/(.*\/)?$/, 'restRoot: must start and end with a slash')
    matches(commerce.homeUrl, /^https?:\/\/[^/]+(\/.*[^/])?$/, 'homeUrl: must be an http(s) URL without a trailing slash')
    matches(commerce.siteUrl, /^https?:\/\//, 'siteUrl: must be an http(s) URL')
    same(commerce.currency, commerce.config.currency, 'currency: must be the pricing configuration\'s (config.currency)')
    const now = commerce.now()
    ok(now instanceof Date && !Number.isNaN(now.getTime()), 'now(): must answer a valid Date', now)
    for (const url of ['checkout', 'restNonce', 'login', 'logout'] as const) {
      ok(typeof commerce.urls[url] === 'string' && commerce.urls[url] !== '', `urls.${url}: must be a non-empty address`, commerce.urls[url])
    }
  })

  await t.test("cartKeyOfToken: accepts the host's Cart-Tokens and refuses forged ones", async () => {
    const token = await host.newCartToken()
    const key = commerce.cartKeyOfToken(token)
    ok(typeof key === 'string' && key !== '', 'cartKeyOfToken: must answer a non-empty cart key for a Cart-Token the host gave', key)
    same(commerce.cartKeyOfToken(token), key, 'cartKeyOfToken: must answer the same cart for the same token every time')
    differs(commerce.cartKeyOfToken(await host.newCartToken()), key, 'cartKeyOfToken: must answer another key for another new cart\'s token')
    for (const [what, forged] of [
      ['an empty token', ''], ['not a token', 'not-a-token'], ['a token with one character changed', tampered(token)],
      ['a token with a suffix', `${token}x`], ['the cart key alone', String(key)], ['a truncated token', token.slice(0, -4)]
    ] as const) {
      same(commerce.cartKeyOfToken(forged), null, `cartKeyOfToken: must refuse (answer null for) ${what}`)
    }
  })

  await t.test("carts.ownerOf: a guest's cart has none, a cart a logged-in user wrote is theirs and stays theirs", async () => {
    const { key } = await newCart()
    same(commerce.carts.ownerOf(await commerce.carts.read(key)), null, 'carts.ownerOf: must answer null for a cart not stored yet')
    await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} })
    same(commerce.carts.ownerOf(await commerce.carts.read(key)), null, 'carts.ownerOf: must answer null for a guest\'s cart')
    await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, { canReadPrivate: false, userId: 4242 })
    same(commerce.carts.ownerOf(await commerce.carts.read(key)), 4242, 'carts.ownerOf: a cart a logged-in user wrote to must be bound to them')
    // A host may refuse the write (the reference platform does) or make it; either way the cart keeps its owner.
    await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, { canReadPrivate: false, userId: 4343 }).catch(() => null)
    same(commerce.carts.ownerOf(await commerce.carts.read(key)), 4242, 'carts.ownerOf: a cart bound to a user must never move to another user')
  })

  await t.test('login, restNonce, verifyNonce, canManageShop and urls.restNonce', async () => {
    same(await probe(), { login: null }, 'login: must answer null for a request without the host\'s login')

    const admin = await host.loginAsAdmin()
    const seen = await probe({ ...admin.headers, 'x-wp-nonce': admin.nonce })
    ok(seen.login !== null, "login: must answer the user for a request with the host's login cookie")
    ok(seen.canManageShop === true, 'canManageShop: must allow the shop manager', seen.canManageShop)
    ok(seen.login?.capabilities.includes('manage_shop'), "login: the shop manager's capabilities must include manage_shop", seen.login)
    same(seen.nonceVerifies, true, 'verifyNonce: must accept the nonce the login gave')
    same(seen.forgedNonceVerifies, false, 'verifyNonce: must refuse a made-up or empty nonce')
    ok(typeof seen.restNonce === 'string' && seen.restNonce !== '', 'restNonce: must answer a non-empty nonce', seen.restNonce)
    const again = await probe({ ...admin.headers, 'x-wp-nonce': String(seen.restNonce) })
    same(again.nonceVerifies, true, 'verifyNonce: must accept the nonce restNonce gives')

    const { pathname, search } = new URL(commerce.urls.restNonce, commerce.homeUrl)
    const renewed = await app.inject({ method: 'GET', url: pathname + search, headers: admin.headers })
    same(renewed.statusCode, 200, 'urls.restNonce: the host must answer GET with the login (200)')
    const fresh: unknown = renewed.json<{ nonce?: unknown }>().nonce
    same((await probe({ ...admin.headers, 'x-wp-nonce': String(fresh) })).nonceVerifies, true, 'urls.restNonce: must answer {nonce} that verifyNonce accepts')
    same((await app.inject({ method: 'GET', url: pathname + search })).statusCode, 401, 'urls.restNonce: must answer 401 without a login')

    const cookie = admin.headers.cookie
    if (cookie !== undefined) {
      const mangled = cookie.replace(/=(.)/g, (_match, character: string) => `=${character === 'x' ? 'y' : 'x'}`)
      same(await probe({ cookie: mangled }), { login: null }, 'login: must answer null for a changed login cookie')
    }

    same(commerce.canManageShop({ capabilities: ['read'] }), false, 'canManageShop: must refuse a user without manage_shop')
    same(commerce.canManageShop({ capabilities: ['read', 'manage_shop'] }), true, 'canManageShop: must allow a user with manage_shop')
  })

  await t.test('carts.get, carts.read and carts.priceRead on a new cart: empty', async () => {
    const { key } = await newCart()
    const state = await commerce.carts.get(key, GUEST)
    same(state.key, key, 'carts.get: must answer the cart of the key asked')
    same(state.priced.lines, [], 'carts.get: a new cart must have no lines')
    same(state.priced.itemsCount, 0, 'carts.get: a new cart must have no items')
    same(state.priced.totals.totalItems, 0, 'carts.get: a new cart must have nothing to pay for items')
    same(state.stored?.data.lines ?? [], [], 'carts.get: a new cart must have nothing stored')
    same(await state.crossSells(), [], 'CartState.crossSells: a new cart must have no cross-sells')
    const read = await commerce.carts.read(key)
    same(commerce.carts.priceRead(key, read, GUEST).hash, state.hash, 'carts.priceRead: must price a read as carts.get does (the same hash)')
  })

  await t.test('carts.addItem adds the quantity given at the regular price; carts.get shows it', async () => {
    const { key } = await newCart()
    const empty = await commerce.carts.get(key, GUEST)
    const price = await priceOf(first)
    const added = await commerce.carts.addItem(key, { id: first, quantity: 2, variation: {} }, GUEST)
    same(lineSummary(added), [[first, 0, 2]], 'carts.addItem: must add one line with the quantity given (2)')
    same(added.priced.lines[0]?.unitPrice, price, 'carts.addItem: the line must be priced at the product\'s regular price')
    same(added.priced.lines[0]?.lineSubtotal, 2 * price, 'carts.addItem: the line subtotal must be quantity × unit price')
    same(added.priced.totals.totalItems, 2 * price, 'carts.addItem: the items total must be the lines\' subtotals')
    same(added.priced.itemsCount, 2, 'carts.addItem: the items count must be the quantities\' sum')
    same(added.stored?.data.lines.map((line) => [line.productId, line.quantity]), [[first, 2]], 'carts.addItem: must answer the cart as stored (CartState.stored)')
    ok(typeof added.stored?.version === 'number', 'carts.addItem: the stored cart must have a numeric version', added.stored?.version)
    differs(added.hash, empty.hash, 'carts.addItem: a change must change the cart hash')

    const read = await commerce.carts.get(key, GUEST)
    same(lineSummary(read), lineSummary(added), 'carts.get: must show the line addItem stored')
    same(read.hash, added.hash, 'carts.get: must answer the hash addItem answered for the same cart')
    same(read.priced.totals.totalPrice, added.priced.totals.totalPrice, 'carts.get: must answer the total addItem answered')

    const more = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
    same(lineSummary(more), [[first, 0, 3]], 'carts.addItem: the same product again must merge into its line')

    await refuses(commerce.carts.addItem(key, { id: fixtures.unknownProductId, quantity: 1, variation: {} }, GUEST),
      ['product_not_found', 'product_not_purchasable'], 'carts.addItem of an unknown product')
    same((await commerce.carts.get(key, GUEST)).hash, more.hash, 'carts.addItem: a refused add must change nothing')
  })

  await t.test('carts.addItem of a variable product with its attributes: the variation; productUrl names it', async () => {
    const { key } = await newCart()
    const { parentId, variationId, attributes } = fixtures.variation
    const state = await commerce.carts.addItem(key, { id: parentId, quantity: 1, variation: attributes }, GUEST)
    same(lineSummary(state), [[parentId, variationId, 1]], 'carts.addItem: a variable product\'s attributes must choose the variation')
    const line = state.priced.lines[0]!
    const url = commerce.productUrl(line.product, line.parent, line.line.variation)
    ok(url.startsWith(`${commerce.homeUrl}/`), 'productUrl: a variation\'s URL must be on the storefront (under homeUrl)', url)
    for (const value of Object.values(attributes)) matches(url, value, `productUrl: a variation's URL must name its attribute value ${value}`)
  })

  await t.test("CartState.crossSells: the lines' cross-sells not in the cart", async () => {
    const { key } = await newCart()
    const state = await commerce.carts.addItem(key, { id: fixtures.crossSells.productId, quantity: 1, variation: {} }, GUEST)
    const ids = (await state.crossSells()).map((product) => product.id).sort(byId)
    same(ids, [...fixtures.crossSells.expected].sort(byId), 'CartState.crossSells: must give the lines\' published cross-sells not in the cart')
  })

  await t.test('carts.removeItems removes every given line or none', async () => {
    const { key } = await newCart()
    await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
    const both = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
    const keys = [keyOf(both, first, 'carts.addItem'), keyOf(both, second, 'carts.addItem')]

    await refuses(commerce.carts.removeItems(key, [keys[0]!, ABSENT_KEY], GUEST), 'item_not_found', 'carts.removeItems with an unknown key among known ones')
    const after = await commerce.carts.get(key, GUEST)
    same(lineSummary(after), lineSummary(both), 'carts.removeItems: a refused removal must remove nothing')
    same(after.hash, both.hash, 'carts.removeItems: a refused removal must leave the cart unchanged')

    const emptied = await commerce.carts.removeItems(key, keys, GUEST)
    same(emptied.priced.lines, [], 'carts.removeItems: must remove every line given')
    same((await commerce.carts.get(key, GUEST)).priced.lines, [], 'carts.removeItems: the removal must be stored')
  })

  await t.test('carts.applyCoupon and carts.removeCoupon', async () => {
    const { key } = await newCart()
    const { code, percent } = fixtures.percentCoupon
    const added = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
    const subtotal = added.priced.totals.totalItems

    const applied = await commerce.carts.applyCoupon(key, ` ${code.toUpperCase()} `, GUEST)
    same(applied.priced.coupons.map(({ coupon }) => coupon.code), [code], 'carts.applyCoupon: must apply the coupon under its normalised code (trimmed, lower case)')
    same(applied.priced.totals.totalDiscount, Math.round(subtotal * percent / 100), `carts.applyCoupon: a ${percent} % coupon must take ${percent} % off the items`)
    same(applied.stored?.data.coupons, [code], 'carts.applyCoupon: the coupon must be stored with the cart')
    same((await commerce.carts.get(key, GUEST)).priced.coupons.map(({ coupon }) => coupon.code), [code], 'carts.get: must show the applied coupon')

    await refuses(commerce.carts.applyCoupon(key, code, GUEST), 'coupon_already_applied', 'carts.applyCoupon of a coupon already applied')
    await refuses(commerce.carts.applyCoupon(key, 'no-such-coupon-anywhere', GUEST), 'coupon_not_found', 'carts.applyCoupon of an unknown coupon')
    same((await commerce.carts.get(key, GUEST)).hash, applied.hash, 'carts.applyCoupon: a refusal must change nothing')

    const removed = await commerce.carts.removeCoupon(key, code, GUEST)
    same(removed.priced.coupons, [], 'carts.removeCoupon: must remove the coupon')
    same(removed.priced.totals.totalDiscount, 0, 'carts.removeCoupon: must remove its discount')
    await refuses(commerce.carts.removeCoupon(key, code, GUEST), 'coupon_not_applied', 'carts.removeCoupon of a coupon not applied')
  })

  await t.test('carts.change applies a list of changes in order, together or not at all', async () => {
    const { key } = await newCart()
    const price = await priceOf(first)
    const added = await commerce.carts.change(key, [{ type: 'add', id: first, quantity: 2 }, { type: 'add', id: second, quantity: 1 }], GUEST)
    same(lineSummary(added).filter(([id]) => id === first), [[first, 0, 2]], 'carts.change: must add one line with the quantity given (2)')
    same(lineSummary(added).filter(([id]) => id === second), [[second, 0, 1]], 'carts.change: must apply every change of the list (the second add)')
    same(added.priced.lines.find(({ line }) => line.productId === first)?.lineSubtotal, 2 * price, 'carts.change: the line subtotal must be quantity × unit price')
    same(lineSummary(await commerce.carts.get(key, GUEST)), lineSummary(added), 'carts.change: must store the change')

    const refusal = await commerce.carts.change(key, [{ type: 'add', id: first, quantity: 1 }, { type: 'remove', keys: ['no-such-line'] }], GUEST).then(() => null, (error: unknown) => error)
    ok(refusal instanceof CartActionError, 'carts.change: a refused change must be thrown as CartActionError', refusal)
    same((refusal as CartActionError | null)?.changeIndex, 1, 'carts.change: the CartActionError must name the refused change\'s position (changeIndex 1)')
    same((await commerce.carts.get(key, GUEST)).hash, added.hash, 'carts.change: a refused list must change nothing, not even its earlier changes')

    const marked = await commerce.carts.change(key, [{ type: 'add', id: first, quantity: 1, mark: 'addon:kit', ifAbsent: true }], GUEST, { service: true })
    const markedLines = marked.stored!.data.lines.filter((line) => line.mark === 'addon:kit')
    same(markedLines.map((line) => [line.productId, line.quantity]), [[first, 1]], 'carts.change: an add with a mark must be a line of its own, keeping the mark as given')
    const again = await commerce.carts.change(key, [{ type: 'add', id: first, quantity: 1, mark: 'addon:kit', ifAbsent: true }], GUEST, { service: true })
    same(again.stored!.data.lines.filter((line) => line.mark === 'addon:kit').map((line) => line.quantity), [1], 'carts.change: an ifAbsent add of a mark already in the cart must add nothing')
    const unmarked = await commerce.carts.change(key, [{ type: 'removeMarked', mark: 'addon:kit' }], GUEST, { service: true })
    same(lineSummary(unmarked), lineSummary(added), 'carts.change: removeMarked must remove the marked lines and nothing else')
  })

  await t.test('a lockedLines hook: carts.removeItems refuses a locked line; the drawer\'s own change (service) may remove it', async () => {
    const generation = commerce.carts.lockedLinesGeneration
    const remove = commerce.carts.addHook('lockedLines', (data) => new Set(data.lines.filter((line) => line.productId === second).map((line) => line.key)))
    try {
      ok(commerce.carts.lockedLinesGeneration > generation, 'carts.lockedLinesGeneration: must grow when a lockedLines hook is added',
        { before: generation, after: commerce.carts.lockedLinesGeneration })

      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const both = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
      const [free, locked] = [keyOf(both, first, 'carts.addItem'), keyOf(both, second, 'carts.addItem')]
      same([...commerce.carts.lockedLines(both.stored!.data)], [locked], 'carts.lockedLines: must name the lines the lockedLines hooks name')

      await refuses(commerce.carts.removeItems(key, [free, locked], GUEST), 'item_locked', 'carts.removeItems with a locked line among others')
      same((await commerce.carts.get(key, GUEST)).hash, both.hash, 'carts.removeItems: a removal refused for a locked line must remove nothing')
      const rest = await commerce.carts.removeItems(key, [free], GUEST)
      same(lineSummary(rest), [[second, 0, 1]], 'carts.removeItems: must remove the lines that are not locked')
      await refuses(commerce.carts.change(key, [{ type: 'remove', keys: [locked] }], GUEST), 'item_locked', 'carts.change removing a locked line without service')
      const serviced = await commerce.carts.change(key, [{ type: 'remove', keys: [locked] }], GUEST, { service: true })
      same(serviced.priced.lines, [], 'carts.change: locks must not apply to the drawer\'s own change (service)')
      const again = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
      const before = commerce.carts.lockedLinesGeneration
      remove()
      ok(commerce.carts.lockedLinesGeneration > before, 'carts.lockedLinesGeneration: must grow when a lockedLines hook is removed',
        { before, after: commerce.carts.lockedLinesGeneration })
      same([...commerce.carts.lockedLines(again.stored!.data)], [], 'carts.addHook: the function it returns must remove the lockedLines hook')
    } finally {
      remove()
    }
  })

  await t.test('a reconcile hook: the lines it names are removed after the change', async () => {
    const calls: Viewer[] = []
    const remove = commerce.carts.addHook('reconcile', (state, viewer) => {
      calls.push(viewer)
      return new Set(state.priced.lines.filter(({ line }) => line.productId === second && line.quantity >= 4).map(({ line }) => line.key))
    })
    try {
      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      ok(calls.length > 0, 'carts.addHook(\'reconcile\'): the reconciler must be told of every change')
      same(calls[0], GUEST, 'carts.addHook(\'reconcile\'): the reconciler must be given the change\'s viewer')
      const state = await commerce.carts.addItem(key, { id: second, quantity: 4, variation: {} }, GUEST)
      same(lineSummary(state), [[first, 0, 1]], 'carts.addItem: must answer the cart without the lines the reconciler named')
      same(lineSummary(await commerce.carts.get(key, GUEST)), [[first, 0, 1]], 'carts.addItem: the reconciler\'s removal must be stored')
    } finally {
      remove()
    }
  })

  await t.test('a rewards hook: the host takes the line adjustments off its lines and applies the tiers\' adjustments in its totals', async () => {
    const price = await priceOf(first)
    const { key } = await newCart()
    await commerce.carts.change(key, [{ type: 'add', id: first, quantity: 2 }, { type: 'add', id: second, quantity: 1, mark: 'kit:marked' }], GUEST)
    const before = await commerce.carts.get(key, GUEST)
    const seen: AdjustableLine[][] = []
    // 150 off the first product's line; a 10 % discount tier from the first unit, and free shipping.
    const program: RewardProgram = {
      basis: { measure: 'subtotal', afterDiscounts: true, includeTax: false },
      tiers: [
        { id: 'kit-ten', label: 'Kit 10 %', threshold: 1, kind: 'percent_discount', amount: 10, productId: 0 },
        { id: 'kit-ship', label: 'Kit shipping', threshold: 1, kind: 'free_shipping', amount: 0, productId: 0 }
      ]
    }
    let viewed: CartView | null = null
    const remove = commerce.carts.addHook('rewards', {
      prepare: async () => {},
      adjust: (view) => {
        if (view.lines.length > 0) viewed = view
        return rewardAdjustments(program, view)
      },
      lineAdjuster: () => (lines) => {
        seen.push([...lines])
        return lines.filter((line) => line.productId === first).map((line) => ({ lineKey: line.key, amount: 150, label: 'Kit', rule: 'kit:adjuster' }))
      },
      report: () => {}
    })
    try {
      const after = await commerce.carts.get(key, GUEST)
      const firstLine = after.priced.lines.find(({ line }) => line.productId === first)
      ok(seen.some((lines) => lines.some((line) => line.productId === first && line.unitPrice === price && line.quantity === 2)),
        'CartRewards.lineAdjuster: the host must call it with its lines (key, product, quantity, its unit price)', seen)
      ok(seen.some((lines) => lines.some((line) => line.productId === second && line.mark === 'kit:marked')),
        'CartRewards.lineAdjuster: the host must hand each line\'s mark back as it was given', seen)
      const view = viewed as CartView | null
      ok(view !== null && view.lines.some((line) => line.productId === first && line.total === 2 * price - 150),
        'CartRewards.adjust: the host must call it with its cart\'s view, each line\'s total after the line adjustments', view)
      const discounted = view === null ? 0 : view.lines.reduce((total, line) => total + line.total, 0)
      const tier = Math.round(discounted / 10)
      same(firstLine?.lineTotal, 2 * price - 150 - (tier === 0 ? 0 : Math.round(tier * (2 * price - 150) / discounted)),
        'the host\'s totals must take the line adjustment (150) and the line\'s share of the tier\'s cart adjustment off the line')
      same(after.priced.totals.totalDiscount - before.priced.totals.totalDiscount, 150 + tier,
        'the host\'s discount total must grow by the line adjustment and the tier\'s cart adjustment (10 % of what was left)')
      same(after.priced.totals.totalShipping, 0, 'the tiers\' shipping adjustment must waive the shipping')
      ok(after.priced.rewards !== null && after.priced.rewards !== undefined, 'CartState.priced.rewards: the host must pass on the tiers\' outcome, which the drawer shows')
    } finally {
      remove()
    }
    same((await commerce.carts.get(key, GUEST)).priced.totals.totalDiscount, before.priced.totals.totalDiscount, 'carts.addHook: the function it returns must remove the rewards hook')
  })

  await t.test('getProduct, getProducts, listProducts by search and by ids', async () => {
    same((await commerce.getProduct(first))?.id, first, 'getProduct: must find a product by id')
    same(await commerce.getProduct(fixtures.unknownProductId), null, 'getProduct: must answer null for an unknown id')
    const many = await commerce.getProducts([first, second, fixtures.unknownProductId])
    same([...many.keys()].sort(byId), [first, second].sort(byId), 'getProducts: must answer the known ids only')
    same(many.get(first)?.id, first, 'getProducts: must key the products by id')

    const sorted = [...fixtures.search.ids].sort(byId)
    const { term } = fixtures.search
    const found = await commerce.listProducts({ search: term })
    same(found.products.map((product) => product.id).sort(byId), sorted, `listProducts: a search for "${term}" must find exactly fixtures.search.ids`)
    same(found.total, sorted.length, 'listProducts: must answer the total of matches')
    same((await commerce.listProducts({ search: term.toUpperCase() })).total, sorted.length, 'listProducts: the search must ignore case')
    const page = await commerce.listProducts({ search: term, perPage: 1, page: 2 })
    same(page.products.length, 1, 'listProducts: perPage must limit the page')
    same(page.total, sorted.length, 'listProducts: the total must count every page')
    same((await commerce.listProducts({ ids: [first] })).products.map((product) => product.id), [first], 'listProducts: must find by ids')
    same((await commerce.listProducts({ search: 'zz-no-such-product-zz' })).products, [], 'listProducts: a search without matches must find nothing')
  })

  await t.test("productUrl: the host's page of the product", async () => {
    const product = (await commerce.getProduct(first))!
    const url = commerce.productUrl(product, product)
    ok(url.startsWith(`${commerce.homeUrl}/`), 'productUrl: must be on the storefront (under homeUrl)', url)
    const { pathname, search } = new URL(url)
    const page = await app.inject({ method: 'GET', url: pathname + search })
    same(page.statusCode, 200, 'productUrl: the host must serve the product\'s page there')
    matches(page.body, product.name, 'productUrl: the page there must be the product\'s (show its name)')
    const other = (await commerce.getProduct(second))!
    differs(commerce.productUrl(other, other), url, 'productUrl: another product must have another URL')
  })

  await t.test("extendCart: the data shows in the host's cart response", async () => {
    commerce.extendCart({
      namespace: 'port_contract',
      cart: (state) => ({ lines: state.priced.lines.length, hash: state.hash }),
      item: async (line) => ({ key: line.line.key, product: line.product.id })
    })
    const { token, key } = await newCart()
    const state = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
    const cart = await host.cartResponse(token)
    same(cart.extensions?.port_contract, { lines: 1, hash: state.hash }, 'extendCart: the host\'s cart response must carry the cart callback\'s data in extensions[namespace]')
    same(cart.items?.map((item) => item.extensions?.port_contract), [{ key: keyOf(state, first, 'carts.addItem'), product: first }],
      'extendCart: each item of the host\'s cart response must carry the item callback\'s data in extensions[namespace]')
  })

  await t.test('filters: add, apply by priority, has, remove', async () => {
    const filter = 'svc_rest_trusted_proxy_cidrs'
    same(commerce.filters.has(filter), false, 'filters.has: must be false before a callback is added')
    const removers = [
      commerce.filters.add(filter, (value) => [...value, 'late'], 20),
      commerce.filters.add(filter, async (value) => [...value, 'default']),
      commerce.filters.add(filter, (value) => [...value, 'early'], 5),
      commerce.filters.add(filter, (value) => [...value, 'default-second'])
    ]
    try {
      same(commerce.filters.has(filter), true, 'filters.has: must be true once a callback is added')
      same(await commerce.filters.apply(filter, ['start']), ['start', 'early', 'default', 'default-second', 'late'],
        'filters.apply: must run the callbacks by priority (default 10), then in the order added, each given the previous value')
    } finally {
      for (const remove of removers) remove()
    }
    same(commerce.filters.has(filter), false, 'filters.add: the function it returns must remove the callback (has: false)')
    same(await commerce.filters.apply(filter, ['start']), ['start'], 'filters.apply: without callbacks must answer the value as given')

    const context: StorefrontContext = { page: 'product', user: null, restNonce: null }
    const remove = commerce.filters.add('storefront_header_links', (links, given) => [...links, { href: '/contract', label: given.page }])
    try {
      const links = await commerce.filters.apply('storefront_header_links', [], context)
      same(links.filter((link) => link.href === '/contract'), [{ href: '/contract', label: 'product' }], 'filters.apply: must give the callbacks its arguments')
    } finally {
      remove()
    }
  })

  // Last: it replaces the error reporter the drawer set.
  await t.test('filters: a callback that throws is reported and its input value kept', async () => {
    const filter = 'svc_rest_trusted_proxy_cidrs'
    const reported: Array<[string, unknown]> = []
    commerce.filters.setErrorReporter((name, error) => { reported.push([name, error]) })
    const failure = new Error('callback failed')
    const removers = [
      commerce.filters.add(filter, (value) => [...value, 'before']),
      commerce.filters.add(filter, () => { throw failure }),
      commerce.filters.add(filter, (value) => [...value, 'after'])
    ]
    try {
      same(await commerce.filters.apply(filter, []), ['before', 'after'], 'filters.apply: the callback after one that throws must get the thrower\'s input')
      same(reported, [[filter, failure]], 'filters.setErrorReporter: a callback\'s error must be reported with the filter\'s name')
    } finally {
      for (const remove of removers) remove()
    }
  })
}
