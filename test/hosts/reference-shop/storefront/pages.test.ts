import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { DEFAULT_DEMO_USERS } from '../../../../config/env.ts'
import type { NewOrder } from '../../../../kernel/domain/types.ts'
import { STOREFRONT_CART_SCRIPT, STOREFRONT_CART_SCRIPT_PATH } from '../../../../hosts/reference-shop/storefront/cart-script.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { build, createStorage, SITE_URL, STORE_API } from '../../../helper.ts'

/**
 * The storefront's cart, checkout, order-received and account-orders pages, server side: what they show, that every
 * text is escaped and no script is inline, that an order is shown only with its key, and who sees the order list.
 */

const SHOPPER = DEFAULT_DEMO_USERS.shopper

/** A browser in miniature: its cookies, and the last Store API nonce it was given (as the page script keeps it). */
class Visitor {
  readonly cookies = new Map<string, string>()
  nonce = ''
  readonly #app: FastifyInstance

  constructor (app: FastifyInstance) {
    this.#app = app
  }

  async request (method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {}
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    if (method !== 'GET' && this.nonce !== '') headers.nonce = this.nonce
    const response = await this.#app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) })
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    const nonce = response.headers.nonce
    if (typeof nonce === 'string' && nonce !== '') this.nonce = nonce
    return response
  }

  page (path: string): Promise<LightMyRequestResponse> {
    return this.request('GET', path)
  }

  /** A Store API call, as the page script makes it: the cookie session and the last nonce. */
  async storeApi (method: 'GET' | 'POST', path: string, body?: unknown): Promise<LightMyRequestResponse> {
    if (method !== 'GET' && this.nonce === '') await this.request('GET', `${STORE_API}/cart`)
    return this.request(method, `${STORE_API}/${path}`, body)
  }

  async logIn (who: { email: string, password: string }): Promise<void> {
    const response = await this.request('POST', '/account/login', who)
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`)
  }
}

/** Every `<script>` element of a page either loads a file or is a JSON data block: none runs inline code. */
function inlineScripts (html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = '', content = '']) => !/\bsrc="/.test(attributes) && !/type="application\/json"/.test(attributes) && content.trim() !== '')
    .map(([element]) => element)
}

/** The ids of the page's own form controls (in `<main>`; the header's login form wraps its labels) that no `<label for>` names. */
function unlabelled (page: string): string[] {
  const html = page.slice(page.indexOf('<main>'), page.indexOf('</main>'))
  const labelled = new Set([...html.matchAll(/<label[^>]* for="([^"]+)"/g)].map((match) => match[1]))
  return [...html.matchAll(/<(input|select|textarea)\b([^>]*)>/g)]
    .filter(([, , attributes = '']) => !/type="hidden"/.test(attributes))
    .map(([, , attributes = '']) => /\bid="([^"]+)"/.exec(attributes)?.[1] ?? `(no id) ${attributes}`)
    .filter((id) => !labelled.has(id))
}

function order (overrides: Partial<NewOrder> = {}): NewOrder {
  const address = { firstName: 'Ada', lastName: 'Lovelace', company: '', address1: '1 Analytical Way', address2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '' }
  return {
    key: 'wc_order_abcDEF1234567',
    status: 'processing',
    customerId: null,
    billing: { ...address, email: 'ada@example.test' },
    shipping: address,
    customerNote: '',
    paymentMethod: 'cod',
    paymentMethodTitle: 'Cash on delivery',
    lines: [{ key: 'a'.repeat(32), productId: 101, variationId: 0, name: 'Beanie', sku: '', variation: {}, quantity: 2, unitPrice: 1800, subtotal: 3600, subtotalTax: 360, total: 3600, totalTax: 360 }],
    coupons: [],
    fees: [],
    shippingLines: [{ methodId: 'flat_rate', name: 'Flat rate', total: 500, totalTax: 50 }],
    totals: {
      totalItems: 3600,
      totalItemsTax: 360,
      totalFees: 0,
      totalFeesTax: 0,
      totalDiscount: 0,
      totalDiscountTax: 0,
      totalShipping: 500,
      totalShippingTax: 50,
      totalPrice: 4510,
      totalTax: 410,
      taxLines: [{ name: 'Sales tax', price: 410, rate: '10' }]
    },
    currency: 'USD',
    createdAt: '2025-03-04T10:00:00.000Z',
    ...overrides
  }
}

async function app (t: Test): Promise<{ app: FastifyInstance, storage: Storage }> {
  const storage = await createStorage(t, { users: DEFAULT_DEMO_USERS })
  return { app: await build(t, { storage, seed: false }), storage }
}

test('the cart page', async (t) => {
  const { app: shop } = await app(t)

  t.test('an empty cart: a message and a link back to the shop, the header\'s Cart link, no inline script', async (t) => {
    const visitor = new Visitor(shop)
    const page = await visitor.page('/cart/')
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /^text\/html/)
    t.match(page.headers['content-security-policy'], /script-src 'self'/)
    t.equal(page.headers['cache-control'], 'no-store, private')
    t.match(page.body, '<p class="cart-empty">Your cart is currently empty.</p>')
    t.match(page.body, `<a href="${SITE_URL}/">Return to the shop</a>`)
    t.match(page.body, '<nav class="shop-links" aria-label="Shop"><a href="/cart/">Cart <span class="cart-count">(0)</span></a></nav>', 'the header links the cart page, with the empty cart\'s count')
    t.notMatch(page.body, 'My orders', 'a guest has no orders link')
    t.notMatch(page.body, 'class="mini-cart"', 'the cart page shows no second (mini) cart')
    t.notMatch(page.body, 'svc-drawer', 'nor the drawer')
    t.match(page.body, `<script type="module" src="${STOREFRONT_CART_SCRIPT_PATH}"></script>`)
    t.match(page.body, `data-store-api="/wp-json/wc/store/v1/" data-home-url="${SITE_URL}"`)
    t.same(inlineScripts(page.body), [])
  })

  t.test('the script is served as a file', async (t) => {
    const script = await shop.inject({ method: 'GET', url: STOREFRONT_CART_SCRIPT_PATH })
    t.equal(script.statusCode, 200)
    t.match(script.headers['content-type'], /^text\/javascript/)
    t.equal(script.body, STOREFRONT_CART_SCRIPT)
    t.doesNotThrow(() => new Function(script.body.replace(/^\s*(import|export)\b.*$/gm, '')), 'it parses') // eslint-disable-line no-new-func
  })

  t.test('lines, quantity inputs, remove buttons, coupon form and the Store API\'s totals, formatted', async (t) => {
    const visitor = new Visitor(shop)
    await visitor.page('/cart/')
    t.equal((await visitor.storeApi('POST', 'cart/add-item', { id: 101, quantity: 2 })).statusCode, 201, 'a cookie-session write with the nonce')
    t.equal((await visitor.storeApi('POST', 'cart/add-item', { id: 120, quantity: 1 })).statusCode, 201)
    t.equal((await visitor.storeApi('POST', 'cart/apply-coupon', { code: 'fiver' })).statusCode, 200)
    const cart = (await visitor.storeApi('GET', 'cart')).json()
    const page = await visitor.page('/cart/')
    t.equal(page.statusCode, 200)
    const beanie = cart.items.find((item: { id: number }) => item.id === 101)
    t.match(page.body, `<input id="quantity-${beanie.key}" class="quantity" type="number" inputmode="numeric" name="quantity" value="2" min="1"`)
    t.match(page.body, `<label class="visually-hidden" for="quantity-${beanie.key}">Quantity of Beanie</label>`)
    t.match(page.body, 'aria-label="Remove Beanie from the cart">Remove</button>')
    t.match(page.body, '<a href="http://shop.test/product/wallet-limited/">Wallet &lt;Limited&gt; &amp; &quot;Special&quot;</a>', 'a product name is escaped')
    t.match(page.body, 'aria-label="Remove Wallet &lt;Limited&gt; &amp; &quot;Special&quot; from the cart"')
    t.notMatch(page.body, 'Wallet <Limited>')
    t.match(page.body, '<label for="coupon-code">Coupon code</label>')
    t.match(page.body, 'aria-label="Remove coupon fiver"')
    const money = (minor: string) => `$${(Number(minor) / 100).toFixed(2)}`
    t.equal(cart.totals.total_items, '7100', 'two beanies at $18 and a wallet at $35')
    t.match(page.body, `<tr class="subtotal"><th scope="row">Subtotal</th><td>${money(cart.totals.total_items)}</td></tr>`)
    t.match(page.body, `<tr class="discount"><th scope="row">Discount</th><td>-${money(cart.totals.total_discount)}</td></tr>`)
    t.match(page.body, `<tr class="shipping"><th scope="row">Shipping</th><td>${money(cart.totals.total_shipping)} <span class="rate-name">Flat rate</span></td></tr>`)
    t.match(page.body, `<tr class="tax"><th scope="row">Tax</th><td>${money(cart.totals.total_tax)}</td></tr>`)
    t.match(page.body, `<tr class="order-total"><th scope="row">Total</th><td><strong>${money(cart.totals.total_price)}</strong></td></tr>`)
    t.match(page.body, `<a class="button checkout-button" href="${SITE_URL}/checkout/">Proceed to checkout</a>`)
    t.match(page.body, /data-nonce="[\w-]{10,}"/, 'the page gives its script a Store API nonce')
    t.same(inlineScripts(page.body), [])
    t.same(unlabelled(page.body), [], 'every input has a label')
    t.match(page.body, `<a href="/cart/">Cart <span class="cart-count">(${cart.items_count})</span></a>`, 'the header counts the cart\'s items')
    const shopPage = await visitor.page('/')
    t.match(shopPage.body, `<span class="cart-count">(${cart.items_count})</span>`, 'on the shop page too')
    const hash: string = (await visitor.request('GET', '/?wc-ajax=get_refreshed_fragments')).json().cart_hash
    t.not(hash, '', 'a cart with lines has a hash')
    t.match(shopPage.body, `<details class="mini-cart" data-cart-hash="${hash}">`, 'whose mini cart carries the hash of the cart it shows')
  })
})

test('the checkout page', async (t) => {
  const { app: shop } = await app(t)

  t.test('an empty cart: nothing to check out', async (t) => {
    const page = await new Visitor(shop).page('/checkout/')
    t.equal(page.statusCode, 200)
    t.match(page.body, 'Your cart is currently empty')
    t.match(page.body, `<a href="${SITE_URL}/">Return to the shop</a>`)
    t.notMatch(page.body, 'id="checkout-form"')
  })

  t.test('the form: addresses, note, payment methods from the cart, the order summary; every control labelled', async (t) => {
    const visitor = new Visitor(shop)
    await visitor.page('/')
    await visitor.storeApi('POST', 'cart/add-item', { id: 120, quantity: 2 })
    const cart = (await visitor.storeApi('GET', 'cart')).json()
    const page = await visitor.page('/checkout/')
    t.equal(page.statusCode, 200)
    for (const field of ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode', 'country', 'phone', 'email']) {
      t.match(page.body, `id="billing_${field}"`, `billing ${field}`)
      if (field !== 'email') t.match(page.body, `id="shipping_${field}"`, `shipping ${field}`)
    }
    t.notMatch(page.body, 'id="shipping_email"')
    t.match(page.body, '<input id="ship-to-different-address" type="checkbox" name="ship_to_different_address"><label for="ship-to-different-address">Ship to a different address?</label>')
    t.match(page.body, '<div id="shipping-fields" hidden>')
    t.match(page.body, '<option value="US">United States</option>', 'a country select')
    t.match(page.body, '<label for="order_comments">Order notes (optional)</label>')
    for (const id of cart.payment_methods as string[]) t.match(page.body, `<input id="payment_method_${id}" type="radio" name="payment_method" value="${id}"`)
    if ((cart.payment_methods as string[]).includes('cod')) t.match(page.body, '<label for="payment_method_cod">Cash on delivery</label>')
    if ((cart.payment_methods as string[]).includes('bacs')) t.match(page.body, '<label for="payment_method_bacs">Direct bank transfer</label>')
    t.match(page.body, '<span class="summary-name">Wallet &lt;Limited&gt; &amp; &quot;Special&quot;</span> <span class="summary-quantity">× 2</span>')
    t.match(page.body, `<tr class="order-total"><th scope="row">Total</th><td><strong>$${(Number(cart.totals.total_price) / 100).toFixed(2)}</strong></td></tr>`)
    t.match(page.body, '<div id="checkout-error" class="checkout-error" role="alert" tabindex="-1"></div>')
    t.match(page.body, '<button type="submit" id="place-order">Place order</button>')
    t.match(page.body, /data-nonce="[\w-]{10,}"/)
    t.same(unlabelled(page.body), [], 'every input, select and textarea has a label')
    t.same(inlineScripts(page.body), [])
    t.match(page.body, '<input id="billing_email" name="billing_email" type="email" autocomplete="billing email" value="" required')
  })

  t.test('a logged-in shopper\'s e-mail fills the billing e-mail', async (t) => {
    const visitor = new Visitor(shop)
    await visitor.logIn(SHOPPER)
    await visitor.storeApi('POST', 'cart/add-item', { id: 101, quantity: 1 })
    const page = await visitor.page('/checkout/')
    t.match(page.body, `<input id="billing_email" name="billing_email" type="email" autocomplete="billing email" value="${SHOPPER.email}" required`)
    t.match(page.body, '<a href="/account/orders/">My orders</a>', 'the header links the shopper\'s orders')
  })
})

test('the order-received page', async (t) => {
  const { app: shop, storage } = await app(t)
  const placed = await storage.createOrder(order({
    billing: { ...order().billing, firstName: '<img src=x onerror=alert(1)>', email: 'ada@example.test' },
    customerNote: 'Leave it with "the neighbour" <b>please</b>',
    lines: [{ ...order().lines[0]!, name: 'Wallet <Limited> & "Special"' }]
  }), { stock: [], coupons: [] })
  const url = `/checkout/order-received/${placed.id}/?key=${placed.key}`

  t.test('with its key: number, date, e-mail, total, payment method, lines, addresses; all escaped', async (t) => {
    const page = await shop.inject({ method: 'GET', url })
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /^text\/html/)
    t.match(page.body, `<li class="order-number">Order number: <strong>${placed.id}</strong></li>`)
    t.match(page.body, '<li class="order-date">Date: <strong>March 4, 2025</strong></li>')
    t.match(page.body, '<li class="order-email">Email: <strong>ada@example.test</strong></li>')
    t.match(page.body, '<li class="order-total">Total: <strong>$45.10</strong></li>')
    t.match(page.body, '<li class="order-payment-method">Payment method: <strong>Cash on delivery</strong></li>')
    t.match(page.body, 'Wallet &lt;Limited&gt; &amp; &quot;Special&quot; <strong class="product-quantity">× 2</strong></td><td>$36.00</td>')
    t.match(page.body, '<th scope="row">Shipping</th><td>$5.00 <span class="rate-name">Flat rate</span></td>')
    t.match(page.body, '<th scope="row">Tax</th><td>$4.10</td>')
    t.match(page.body, 'Leave it with &quot;the neighbour&quot; &lt;b&gt;please&lt;/b&gt;')
    t.match(page.body, '&lt;img src=x onerror=alert(1)&gt; Lovelace<br>1 Analytical Way<br>London, N1 9GU<br>GB')
    t.notMatch(page.body, '<img src=x')
    t.notMatch(page.body, 'Our bank details', 'no bank details for cash on delivery')
    t.same(inlineScripts(page.body), [])
  })

  t.test('a bank transfer shows the transfer instructions', async (t) => {
    const bacs = await storage.createOrder(order({ key: 'wc_order_bacs000000000', paymentMethod: 'bacs', paymentMethodTitle: 'Direct bank transfer', status: 'on-hold' }), { stock: [], coupons: [] })
    const page = await shop.inject({ method: 'GET', url: `/checkout/order-received/${bacs.id}/?key=${bacs.key}` })
    t.equal(page.statusCode, 200)
    t.match(page.body, '<h2>Our bank details</h2><p>Please transfer the order total')
    t.match(page.body, '<dt>IBAN</dt><dd>DE00 0000 0000 0000 0000 00</dd>')
    t.match(page.body, `<dt>Reference</dt><dd>Order ${bacs.id}</dd>`)
    t.match(page.body, 'Payment method: <strong>Direct bank transfer</strong>')
    t.match(page.body, 'Status: <strong>On hold</strong>')
  })

  t.test('without its key, a storefront 404 page that tells nothing of the order', async (t) => {
    const other = await storage.createOrder(order({ key: 'wc_order_other00000000' }), { stock: [], coupons: [] })
    for (const wrong of [
      `/checkout/order-received/${placed.id}/`,
      `/checkout/order-received/${placed.id}/?key=`,
      `/checkout/order-received/${placed.id}/?key=wc_order_wrong`,
      `/checkout/order-received/${placed.id}/?key=${placed.key.slice(0, -1)}X`,
      `/checkout/order-received/${placed.id}/?key=${other.key}`,
      `/checkout/order-received/99999/?key=${placed.key}`,
      `/checkout/order-received/abc/?key=${placed.key}`,
      `/checkout/order-received/0${placed.id}/?key=${placed.key}`
    ]) {
      const page = await shop.inject({ method: 'GET', url: wrong })
      t.equal(page.statusCode, 404, wrong)
      t.match(page.headers['content-type'], /^text\/html/)
      t.match(page.body, '<h1>Order not found</h1>')
      t.match(page.body, '<header class="site-header">', 'in the storefront\'s layout')
      for (const secret of ['ada@example.test', 'Lovelace', 'Wallet', '$45.10', 'Analytical']) t.notMatch(page.body, secret, `${wrong}: no ${secret}`)
    }
  })
})

test('the account\'s orders', async (t) => {
  const { app: shop, storage } = await app(t)
  const shopper = await storage.getUserByEmail(SHOPPER.email)
  if (shopper === null) throw new Error('the demo shopper was not seeded')
  const first = await storage.createOrder(order({ key: 'wc_order_first000000000', customerId: shopper.id, createdAt: '2025-01-02T10:00:00.000Z' }), { stock: [], coupons: [] })
  await storage.createOrder(order({ key: 'wc_order_guest000000000', customerId: null, billing: { ...order().billing, email: 'guest@example.test' } }), { stock: [], coupons: [] })
  const second = await storage.createOrder(order({
    key: 'wc_order_second00000000',
    customerId: shopper.id,
    status: 'on-hold',
    totals: { ...order().totals, totalPrice: 123456 },
    createdAt: '2025-02-03T10:00:00.000Z'
  }), { stock: [], coupons: [] })

  t.test('a guest is sent to the shop page and its login form', async (t) => {
    const response = await shop.inject({ method: 'GET', url: '/account/orders/' })
    t.equal(response.statusCode, 302)
    t.equal(response.headers.location, `${SITE_URL}/?login=orders#login`)
    const home = await shop.inject({ method: 'GET', url: '/' })
    t.match(home.body, '<form id="login"', 'where the login form is')
  })

  t.test('a logged-in shopper sees their own orders, newest first, each linked to its page', async (t) => {
    const visitor = new Visitor(shop)
    await visitor.logIn(SHOPPER)
    const page = await visitor.page('/account/orders/')
    t.equal(page.statusCode, 200)
    t.match(page.body, '<h1>My orders</h1>')
    const rows = [...page.body.matchAll(/<tr data-order-id="(\d+)">/g)].map((match) => Number(match[1]))
    t.same(rows, [second.id, first.id], 'theirs only, newest first')
    t.match(page.body, `<th scope="row"><a href="${SITE_URL}/checkout/order-received/${second.id}/?key=wc_order_second00000000">#${second.id}</a></th><td>February 3, 2025</td><td>On hold</td><td>$1,234.56 for 2 items</td>`)
    t.match(page.body, '<a href="/account/orders/">My orders</a>')
    t.notMatch(page.body, 'guest@example.test')
    const linked = await visitor.page(`/checkout/order-received/${second.id}/?key=wc_order_second00000000`)
    t.equal(linked.statusCode, 200, 'the link opens the order')

    t.equal((await visitor.page('/account/rest-nonce')).statusCode, 200, 'the other /account/ URLs still answer')
    t.equal((await visitor.page('/account/orders/?page=2')).statusCode, 200)
    t.equal((await visitor.page('/account/orders/?page=0')).statusCode, 400, 'a page below 1 is refused')
  })

  t.test('a shopper without orders is told so', async (t) => {
    const { app: fresh } = await app(t)
    const visitor = new Visitor(fresh)
    await visitor.logIn(SHOPPER)
    const page = await visitor.page('/account/orders/')
    t.equal(page.statusCode, 200)
    t.match(page.body, 'No order has been made yet.')
  })
})
