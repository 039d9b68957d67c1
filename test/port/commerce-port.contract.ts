import type { FastifyInstance } from 'fastify'
import { test, type Test } from 'tap'
import { CartActionError, type CartState, type CommercePort, type StorefrontContext, type Viewer } from '../../app.ts'

/**
 * The commerce port's contract (plugins/commerce-port/port.ts): what any host must do for the cart drawer to
 * work over it, checked through the port itself and through the host's own routes (its Cart-Tokens, its login, its
 * cart response). `test/port/reference-platform.test.ts` runs it against the reference platform,
 * `test/port/memory-shop.test.ts` against the example host (examples/memory-shop/). The expected values are written
 * from the port's documentation and the host's fixtures, not read from either implementation.
 *
 * Refusals are asserted to be `CartActionError`s with the domain's reason: the port says a refusal is "thrown as the
 * shop's own error", but the drawer's routes catch that one class (plugins/svc-free/request-cart.ts), so a host that
 * threw anything else would answer 500 where the drawer promises 400/404/409.
 */

export interface ContractFixtures {
  /** Two published, visible, in-stock simple products with a regular price and no sale, not sold individually. */
  products: [number, number]
  /** A product with cross-sells, and the ids `CartState.crossSells` must then give (published, not hidden). */
  crossSells: { productId: number, expected: number[] }
  /** `listProducts({ search: term })` finds exactly these ids (simple and variable products, any status). */
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

export interface ContractHost {
  /** The host's application, ready. */
  app: FastifyInstance
  /** The port the host gives `cartDrawer`. */
  commerce: CommercePort
  /** A Cart-Token for a new, empty cart, got as a browser gets one (from the host's own cart route). */
  newCartToken (): Promise<string>
  /** Logs the shop manager in through the host's own login: the headers a browser then sends, and the REST nonce the login gave. */
  loginAsAdmin (): Promise<{ headers: Record<string, string>, nonce: string }>
  /** The host's own cart response for a Cart-Token. */
  cartResponse (token: string): Promise<HostCartResponse>
  fixtures: ContractFixtures
}

/**
 * Builds a host for one run of the contract: `setup` must be called with the host's application before it is made
 * ready (the contract adds a route that calls the port's session operations with a real request). Everything the
 * host opens is closed through `t.teardown`. The contract replaces the host's locks, reconciler and filter error
 * reporter while it runs, so the host should run the Free edition (whose drawer sets none of them).
 */
export type HostFactory = (t: Test, setup: (app: FastifyInstance) => void) => Promise<ContractHost>

const GUEST: Viewer = { canReadPrivate: false, userId: null }
const PROBE = '/__port-contract/login'
/** A key in the cart item key format that names no line. */
const ABSENT_KEY = 'f'.repeat(32)

/** The error `promise` rejects with: a `CartActionError` with `reason` (fails the test otherwise). */
/** A refusal with one of the given reasons (a host may say more precisely why than another). */
async function refusal (t: Test, promise: Promise<unknown>, reason: string | readonly string[], what: string): Promise<void> {
  const reasons = typeof reason === 'string' ? [reason] : reason
  try {
    await promise
    t.fail(`${what}: refused`)
  } catch (error) {
    t.ok(error instanceof CartActionError, `${what}: refused with a CartActionError`, { found: error })
    const given = (error as CartActionError).domainError?.reason
    t.ok(given !== undefined && reasons.includes(given), `${what}: reason ${reasons.join(' or ')} (${given})`)
  }
}

/** A token with one character in its middle changed. */
function tampered (token: string): string {
  let index = Math.floor(token.length / 2)
  if (!/[A-Za-z0-9]/.test(token[index]!)) index--
  const replacement = token[index] === 'a' ? 'b' : 'a'
  return token.slice(0, index) + replacement + token.slice(index + 1)
}

const lineSummary = (state: CartState) => state.priced.lines.map(({ line }) => [line.productId, line.variationId, line.quantity])

export function commercePortContract (hostName: string, factory: HostFactory): void {
  test(`the commerce port's contract: ${hostName}`, async (t) => {
    const host = await factory(t, (app) => {
      // The session operations need a real request of the host: this route reports what they answer for it.
      app.get(PROBE, async (request) => {
        const { commerce } = app
        const login = await commerce.login(request)
        if (login === null) return { login: null }
        const nonce = request.headers['x-wp-nonce']
        return {
          login: { userId: login.user.id, capabilities: login.user.capabilities },
          canManageShop: commerce.canManageShop(login.user),
          restNonce: commerce.restNonce(login),
          nonceVerifies: typeof nonce === 'string' ? commerce.verifyNonce(nonce, login) : null,
          forgedNonceVerifies: commerce.verifyNonce('0123456789abcdef0123', login) || commerce.verifyNonce('', login)
        }
      })
    })
    const { app, commerce, fixtures } = host
    const [first, second] = fixtures.products

    async function newCart (): Promise<{ token: string, key: string }> {
      const token = await host.newCartToken()
      const key = commerce.cartKeyOfToken(token)
      if (key === null) throw new Error('the host refused its own Cart-Token')
      return { token, key }
    }
    async function priceOf (id: number): Promise<number> {
      const product = await commerce.getProduct(id)
      if (product?.regularPrice == null) throw new Error(`fixture ${id}: no product with a price`)
      return product.regularPrice
    }
    const keyOf = (state: CartState, productId: number): string => {
      const found = state.priced.lines.find(({ line }) => line.productId === productId)
      if (found === undefined) throw new Error(`no line of product ${productId}`)
      return found.line.key
    }

    t.test("the shop's values", async (t) => {
      t.match(commerce.restRoot, /^\/(.*\/)?$/, 'restRoot starts and ends with a slash')
      t.match(commerce.homeUrl, /^https?:\/\/[^/]+(\/.*[^/])?$/, 'homeUrl is an http(s) URL without a trailing slash')
      t.match(commerce.siteUrl, /^https?:\/\//, 'siteUrl is an http(s) URL')
      t.same(commerce.currency, commerce.config.currency, 'the currency is the pricing configuration\'s')
      t.ok(commerce.now() instanceof Date && !Number.isNaN(commerce.now().getTime()), 'now() is a date')
    })

    t.test("cartKeyOfToken accepts the host's tokens and refuses forged ones", async (t) => {
      const token = await host.newCartToken()
      const key = commerce.cartKeyOfToken(token)
      t.type(key, 'string', 'a token the host gave names a cart')
      t.not(key, '', 'a non-empty key')
      t.equal(commerce.cartKeyOfToken(token), key, 'the same cart every time')
      t.not(commerce.cartKeyOfToken(await host.newCartToken()), key, 'another new cart has another key')
      for (const [what, forged] of [
        ['empty', ''], ['not a token', 'not-a-token'], ['one character changed', tampered(token)], ['with a suffix', `${token}x`],
        ['the key alone', String(key)], ['truncated', token.slice(0, -4)]
      ] as const) {
        t.equal(commerce.cartKeyOfToken(forged), null, `refused: ${what}`)
      }
    })

    t.test('carts.ownerOf: a guest\'s cart has none, a cart a logged-in user wrote is theirs and stays theirs', async (t) => {
      const { key } = await newCart()
      t.equal(commerce.carts.ownerOf(await commerce.carts.read(key)), null, 'a cart not stored yet')
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} })
      t.equal(commerce.carts.ownerOf(await commerce.carts.read(key)), null, 'a guest\'s cart')
      await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, { canReadPrivate: false, userId: 4242 })
      t.equal(commerce.carts.ownerOf(await commerce.carts.read(key)), 4242, 'written by a logged-in user: bound to them')
      // A host may refuse the write (the reference platform does) or make it; either way the cart keeps its owner.
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, { canReadPrivate: false, userId: 4343 }).catch(() => null)
      t.equal(commerce.carts.ownerOf(await commerce.carts.read(key)), 4242, 'never moved to another user')
    })

    t.test('login, restNonce, verifyNonce and canManageShop', async (t) => {
      const guest = await app.inject({ method: 'GET', url: PROBE })
      t.same(guest.json(), { login: null }, 'a request without a login has none')

      const admin = await host.loginAsAdmin()
      const first = await app.inject({ method: 'GET', url: PROBE, headers: { ...admin.headers, 'x-wp-nonce': admin.nonce } })
      const seen = first.json()
      t.not(seen.login, null, "the host's login cookie gives a login")
      t.ok(seen.canManageShop, 'the shop manager may manage the shop')
      t.ok(seen.login.capabilities.includes('manage_shop'), 'with the manage_shop capability')
      t.equal(seen.nonceVerifies, true, 'the nonce the login gave verifies')
      t.equal(seen.forgedNonceVerifies, false, 'a made-up nonce does not')
      t.type(seen.restNonce, 'string')

      const again = await app.inject({ method: 'GET', url: PROBE, headers: { ...admin.headers, 'x-wp-nonce': seen.restNonce } })
      t.equal(again.json().nonceVerifies, true, 'the nonce restNonce gives verifies')

      const cookie = admin.headers.cookie
      if (cookie !== undefined) {
        const mangled = cookie.replace(/=(.)/g, (_match, character: string) => `=${character === 'x' ? 'y' : 'x'}`)
        const forged = await app.inject({ method: 'GET', url: PROBE, headers: { cookie: mangled } })
        t.same(forged.json(), { login: null }, 'a changed login cookie gives no login')
      }

      t.equal(commerce.canManageShop({ capabilities: ['read'] }), false, 'a user without manage_shop may not')
      t.equal(commerce.canManageShop({ capabilities: ['read', 'manage_shop'] }), true, 'a user with it may')
    })

    t.test('carts.get and carts.read on a new cart: empty', async (t) => {
      const { key } = await newCart()
      const state = await commerce.carts.get(key, GUEST)
      t.equal(state.key, key)
      t.same(state.priced.lines, [], 'no lines')
      t.equal(state.priced.itemsCount, 0, 'no items')
      t.equal(state.priced.totals.totalItems, 0, 'nothing to pay for items')
      t.same(state.stored?.data.lines ?? [], [], 'nothing stored')
      t.same(await state.crossSells(), [], 'no cross-sells')
      const read = await commerce.carts.read(key)
      t.equal(commerce.carts.priceRead(key, read, GUEST).hash, state.hash, 'priceRead of the read gives the same cart')
    })

    t.test('addItem, then get: the line and the totals', async (t) => {
      const { key } = await newCart()
      const empty = await commerce.carts.get(key, GUEST)
      const price = await priceOf(first)
      const added = await commerce.carts.addItem(key, { id: first, quantity: 2, variation: {} }, GUEST)
      t.same(lineSummary(added), [[first, 0, 2]], 'one line of two')
      t.equal(added.priced.lines[0]!.unitPrice, price, 'at the regular price')
      t.equal(added.priced.lines[0]!.lineSubtotal, 2 * price, 'line subtotal')
      t.equal(added.priced.totals.totalItems, 2 * price, 'items total')
      t.equal(added.priced.itemsCount, 2, 'two items')
      t.same(added.stored?.data.lines.map((line) => [line.productId, line.quantity]), [[first, 2]], 'stored')
      t.type(added.stored?.version, 'number', 'with a version')
      t.not(added.hash, empty.hash, 'the hash changed')

      const read = await commerce.carts.get(key, GUEST)
      t.same(lineSummary(read), lineSummary(added), 'get shows the line')
      t.equal(read.hash, added.hash, 'and the same hash')
      t.equal(read.priced.totals.totalPrice, added.priced.totals.totalPrice, 'and the same total')

      const more = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      t.same(lineSummary(more), [[first, 0, 3]], 'the same product again merges into its line')

      await refusal(t, commerce.carts.addItem(key, { id: fixtures.unknownProductId, quantity: 1, variation: {} }, GUEST),
        ['product_not_found', 'product_not_purchasable'], 'an unknown product')
      t.equal((await commerce.carts.get(key, GUEST)).hash, more.hash, 'the refused add changed nothing')
    })

    t.test('addItem of a variable product with its attributes: the variation', async (t) => {
      const { key } = await newCart()
      const { parentId, variationId, attributes } = fixtures.variation
      const state = await commerce.carts.addItem(key, { id: parentId, quantity: 1, variation: attributes }, GUEST)
      t.same(lineSummary(state), [[parentId, variationId, 1]], 'the variation the attributes choose')
      const line = state.priced.lines[0]!
      const url = commerce.productUrl(line.product, line.parent, line.line.variation)
      t.ok(url.startsWith(`${commerce.homeUrl}/`), 'its URL is on the storefront')
      for (const value of Object.values(attributes)) t.match(url, value, `and names ${value}`)
    })

    t.test('crossSells: the lines\' cross-sells not in the cart', async (t) => {
      const { key } = await newCart()
      const state = await commerce.carts.addItem(key, { id: fixtures.crossSells.productId, quantity: 1, variation: {} }, GUEST)
      const ids = (await state.crossSells()).map((product) => product.id).sort((a, b) => a - b)
      t.same(ids, [...fixtures.crossSells.expected].sort((a, b) => a - b))
    })

    t.test('removeItems removes every given line or none', async (t) => {
      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const both = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
      const keys = [keyOf(both, first), keyOf(both, second)]

      await refusal(t, commerce.carts.removeItems(key, [keys[0]!, ABSENT_KEY], GUEST), 'item_not_found', 'one unknown key among known ones')
      const after = await commerce.carts.get(key, GUEST)
      t.same(lineSummary(after), lineSummary(both), 'nothing was removed')
      t.equal(after.hash, both.hash, 'the cart is unchanged')

      const emptied = await commerce.carts.removeItems(key, keys, GUEST)
      t.same(emptied.priced.lines, [], 'both keys: both lines gone')
      t.same((await commerce.carts.get(key, GUEST)).priced.lines, [], 'as stored')
    })

    t.test('applyCoupon and removeCoupon', async (t) => {
      const { key } = await newCart()
      const { code, percent } = fixtures.percentCoupon
      const added = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const subtotal = added.priced.totals.totalItems

      const applied = await commerce.carts.applyCoupon(key, ` ${code.toUpperCase()} `, GUEST)
      t.same(applied.priced.coupons.map(({ coupon }) => coupon.code), [code], 'applied, under its normalised code')
      t.equal(applied.priced.totals.totalDiscount, Math.round(subtotal * percent / 100), `${percent} % off the items`)
      t.same(applied.stored?.data.coupons, [code], 'stored with the cart')
      t.same((await commerce.carts.get(key, GUEST)).priced.coupons.map(({ coupon }) => coupon.code), [code], 'get shows it')

      await refusal(t, commerce.carts.applyCoupon(key, code, GUEST), 'coupon_already_applied', 'the same coupon again')
      await refusal(t, commerce.carts.applyCoupon(key, 'no-such-coupon-anywhere', GUEST), 'coupon_not_found', 'an unknown coupon')
      t.equal((await commerce.carts.get(key, GUEST)).hash, applied.hash, 'the refusals changed nothing')

      const removed = await commerce.carts.removeCoupon(key, code, GUEST)
      t.same(removed.priced.coupons, [], 'removed')
      t.equal(removed.priced.totals.totalDiscount, 0, 'no discount')
      await refusal(t, commerce.carts.removeCoupon(key, code, GUEST), 'coupon_not_applied', 'a coupon that is not applied')
    })

    t.test('changeAsService: the drawer\'s own change, in one write', async (t) => {
      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const changed = await commerce.carts.changeAsService(key, GUEST, (data) => ({ ...data, lines: data.lines.map((line) => ({ ...line, quantity: 5 })) }))
      t.same(lineSummary(changed), [[first, 0, 5]], 'the change is answered')
      t.same(lineSummary(await commerce.carts.get(key, GUEST)), [[first, 0, 5]], 'and stored')

      const refused = new CartActionError({ reason: 'product_not_purchasable', message: 'Refused by the change.' })
      await refusal(t, commerce.carts.changeAsService(key, GUEST, (data) => {
        data.lines = []
        throw refused
      }), 'product_not_purchasable', 'a change that throws')
      t.same(lineSummary(await commerce.carts.get(key, GUEST)), [[first, 0, 5]], 'a change that throws stores nothing')
    })

    t.test('a lockedLines hook: removeItems refuses a locked line; changeAsService may change it', async (t) => {
      const generation = commerce.carts.lockedLinesGeneration
      const remove = commerce.carts.addHook('lockedLines', (data) => new Set(data.lines.filter((line) => line.productId === second).map((line) => line.key)))
      t.teardown(remove)
      t.ok(commerce.carts.lockedLinesGeneration > generation, 'the generation grew')

      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const both = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
      const [free, locked] = [keyOf(both, first), keyOf(both, second)]
      t.same([...commerce.carts.lockedLines(both.stored!.data)], [locked], 'lockedLines names the locked line')

      await refusal(t, commerce.carts.removeItems(key, [free, locked], GUEST), 'item_locked', 'a locked line among others')
      t.equal((await commerce.carts.get(key, GUEST)).hash, both.hash, 'nothing was removed')
      const rest = await commerce.carts.removeItems(key, [free], GUEST)
      t.same(lineSummary(rest), [[second, 0, 1]], 'the unlocked line alone can go')
      const serviced = await commerce.carts.changeAsService(key, GUEST, (data) => ({ ...data, lines: data.lines.filter((line) => line.key !== locked) }))
      t.same(serviced.priced.lines, [], 'the drawer\'s own change removes the locked line')
      const again = await commerce.carts.addItem(key, { id: second, quantity: 1, variation: {} }, GUEST)
      remove()
      t.same([...commerce.carts.lockedLines(again.stored!.data)], [], 'once the hook is removed, nothing is locked')
    })

    t.test('a reconcile hook: the lines it returns are removed after the change', async (t) => {
      const calls: Viewer[] = []
      const remove = commerce.carts.addHook('reconcile', (state, viewer) => {
        calls.push(viewer)
        return new Set(state.priced.lines.filter(({ line }) => line.productId === second && line.quantity >= 4).map(({ line }) => line.key))
      })
      t.teardown(remove)
      const { key } = await newCart()
      await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      t.ok(calls.length > 0, 'the reconciler was told of the change')
      t.same(calls[0], GUEST, 'with the viewer')
      const state = await commerce.carts.addItem(key, { id: second, quantity: 4, variation: {} }, GUEST)
      t.same(lineSummary(state), [[first, 0, 1]], 'the answered cart lacks the reconciled line')
      t.same(lineSummary(await commerce.carts.get(key, GUEST)), [[first, 0, 1]], 'and so does the stored one')
    })

    t.test('getProduct, getProducts, listProducts with search', async (t) => {
      t.equal((await commerce.getProduct(first))?.id, first, 'getProduct finds a product')
      t.equal(await commerce.getProduct(fixtures.unknownProductId), null, 'and null for an unknown id')
      const many = await commerce.getProducts([first, second, fixtures.unknownProductId])
      t.same([...many.keys()].sort((a, b) => a - b), [first, second].sort((a, b) => a - b), 'getProducts: the known ones')
      t.equal(many.get(first)?.id, first, 'keyed by id')

      const sorted = [...fixtures.search.ids].sort((a, b) => a - b)
      const found = await commerce.listProducts({ search: fixtures.search.term })
      t.same(found.products.map((product) => product.id).sort((a, b) => a - b), sorted, `search "${fixtures.search.term}"`)
      t.equal(found.total, sorted.length, 'with the total')
      const upper = await commerce.listProducts({ search: fixtures.search.term.toUpperCase() })
      t.equal(upper.total, sorted.length, 'case-insensitive')
      const page = await commerce.listProducts({ search: fixtures.search.term, perPage: 1, page: 2 })
      t.equal(page.products.length, 1, 'one per page')
      t.equal(page.total, sorted.length, 'the total of every page')
      t.same((await commerce.listProducts({ ids: [first] })).products.map((product) => product.id), [first], 'by ids')
      t.same((await commerce.listProducts({ search: 'zz-no-such-product-zz' })).products, [], 'no match: nothing')
    })

    t.test("productUrl: the host's page of the product", async (t) => {
      const product = (await commerce.getProduct(first))!
      const url = commerce.productUrl(product, product)
      t.ok(url.startsWith(`${commerce.homeUrl}/`), 'on the storefront', { url })
      const { pathname, search } = new URL(url)
      const page = await app.inject({ method: 'GET', url: pathname + search })
      t.equal(page.statusCode, 200, 'the host serves it')
      t.match(page.body, product.name, 'the product\'s page')
      t.not(commerce.productUrl((await commerce.getProduct(second))!, (await commerce.getProduct(second))!), url, 'another product, another URL')
    })

    t.test("extendCart: the data shows in the host's cart response", async (t) => {
      commerce.extendCart({
        namespace: 'port_contract',
        cart: (state) => ({ lines: state.priced.lines.length, hash: state.hash }),
        item: async (line) => ({ key: line.line.key, product: line.product.id })
      })
      const { token, key } = await newCart()
      const state = await commerce.carts.addItem(key, { id: first, quantity: 1, variation: {} }, GUEST)
      const cart = await host.cartResponse(token)
      t.same(cart.extensions.port_contract, { lines: 1, hash: state.hash }, 'the cart\'s extension data')
      t.same(cart.items.map((item) => item.extensions.port_contract), [{ key: keyOf(state, first), product: first }], 'each item\'s')
    })

    t.test('filters: add, apply by priority, has, remove', async (t) => {
      const name = 'svc_rest_trusted_proxy_cidrs'
      t.equal(commerce.filters.has(name), false, 'nothing added yet')
      const removers = [
        commerce.filters.add(name, (value) => [...value, 'late'], 20),
        commerce.filters.add(name, async (value) => [...value, 'default']),
        commerce.filters.add(name, (value) => [...value, 'early'], 5),
        commerce.filters.add(name, (value) => [...value, 'default-second'])
      ]
      t.equal(commerce.filters.has(name), true, 'has: true once added')
      t.same(await commerce.filters.apply(name, ['start']), ['start', 'early', 'default', 'default-second', 'late'],
        'by priority, then in the order added, each given the previous value')
      for (const remove of removers) remove()
      t.equal(commerce.filters.has(name), false, 'has: false once removed')
      t.same(await commerce.filters.apply(name, ['start']), ['start'], 'no callbacks: the value as given')

      const context: StorefrontContext = { page: 'product', user: null, restNonce: null }
      const remove = commerce.filters.add('storefront_header_links', (links, given) => [...links, { href: '/contract', label: given.page }])
      t.teardown(remove)
      const links = await commerce.filters.apply('storefront_header_links', [], context)
      t.same(links.filter((link) => link.href === '/contract'), [{ href: '/contract', label: 'product' }], 'callbacks get the arguments')
    })

    // Last: it replaces the error reporter the drawer set.
    t.test('filters: a callback that throws is reported and its input value kept', async (t) => {
      const name = 'svc_rest_trusted_proxy_cidrs'
      const reported: Array<[string, unknown]> = []
      commerce.filters.setErrorReporter((filter, error) => { reported.push([filter, error]) })
      const failure = new Error('callback failed')
      const removers = [
        commerce.filters.add(name, (value) => [...value, 'before']),
        commerce.filters.add(name, () => { throw failure }),
        commerce.filters.add(name, (value) => [...value, 'after'])
      ]
      t.teardown(() => { for (const remove of removers) remove() })
      t.same(await commerce.filters.apply(name, []), ['before', 'after'], 'the next callback gets the thrower\'s input')
      t.same(reported, [[name, failure]], 'the error is reported with the filter\'s name')
    })
  })
}
