import { test } from 'tap'
import { buildTestApp, StoreApiClient, STORE_API } from '../../../helpers/app.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'

const TOP_LEVEL_KEYS = ['items', 'coupons', 'fees', 'totals', 'shipping_address', 'billing_address', 'needs_payment',
  'needs_shipping', 'payment_requirements', 'has_calculated_shipping', 'shipping_rates', 'items_count', 'items_weight',
  'cross_sells', 'errors', 'payment_methods', 'extensions']

for (const backend of storageBackends()) {
  test(`Store API cart on ${backend.name}`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())
    const app = await buildTestApp(t, storage)

    t.test('an empty cart has the Store API shape, a Cart-Token and a cart cookie', async (t) => {
      const shopper = new StoreApiClient(app)
      const response = await shopper.cart()
      t.equal(response.statusCode, 200)
      const cart = response.json()
      t.same(Object.keys(cart), TOP_LEVEL_KEYS)
      t.same(cart.items, [])
      t.same(Object.keys(cart.extensions), ['svc'], 'the cart drawer service\'s namespace only')
      t.equal(cart.items_count, 0)
      t.equal(cart.totals.total_price, '0')
      t.equal(cart.totals.currency_code, 'USD')
      t.equal(cart.totals.currency_minor_unit, 2)
      t.equal(cart.totals.total_shipping, null, 'shipping is not calculated for an empty cart')
      t.match(response.headers['cart-token'], /^[\w-]+\.[\w-]+\.[\w-]+$/)
      t.equal(response.headers['cart-hash'], '')
      const setCookie = String(response.headers['set-cookie'])
      t.match(setCookie, /svc_cart=/)
      t.match(setCookie, /HttpOnly/)
      t.match(setCookie, /SameSite=Lax/)
      const [, payload] = String(response.headers['cart-token']).split('.')
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
      t.equal(claims.iss, 'store-api')
      t.match(claims.user_id, /^t_[0-9a-f]{30}$/)
      t.equal(claims.exp - claims.iat, 48 * 3600)
    })

    t.test('add-item answers 201 with the line, its limits and the totals (10 % tax, $5 shipping)', async (t) => {
      const shopper = new StoreApiClient(app)
      const response = await shopper.add(101, 2)
      t.equal(response.statusCode, 201)
      const cart = response.json()
      t.equal(cart.items.length, 1)
      const [item] = cart.items
      t.match(item.key, /^[0-9a-f]{32}$/)
      t.equal(item.id, 101)
      t.equal(item.quantity, 2)
      t.same(item.quantity_limits, { minimum: 1, maximum: 9999, multiple_of: 1, editable: true })
      t.equal(item.prices.price, '1800', 'the sale price')
      t.equal(item.prices.regular_price, '2000')
      t.equal(item.totals.line_subtotal, '3600')
      t.equal(item.totals.line_total_tax, '360')
      t.same(Object.keys(item.extensions), ['svc'], 'the cart drawer service\'s namespace only')
      t.equal(cart.items_count, 2)
      t.equal(cart.totals.total_items, '3600')
      t.equal(cart.totals.total_shipping, '500')
      t.equal(cart.totals.total_shipping_tax, '50')
      t.equal(cart.totals.total_tax, '410')
      t.equal(cart.totals.total_price, String(3600 + 360 + 500 + 50))
      t.same(cart.totals.tax_lines, [{ name: 'Sales tax', price: '410', rate: '10%' }])
      t.same(cart.cross_sells.map((product: { id: number }) => product.id), [102, 103], 'cross-sells of the beanie')
      t.not(response.headers['cart-hash'], '')

      const again = await shopper.add(101, 1)
      t.equal(again.json().items.length, 1, 'the same product merges into one line')
      t.equal(again.json().items[0].quantity, 3)
      t.equal(again.json().items[0].key, item.key, 'the line key is stable')
      t.not(again.headers['cart-hash'], response.headers['cart-hash'], 'the cart hash follows the cart')
    })

    t.test('every catalog case in add-item', async (t) => {
      const cases: Array<[string, number, number, number, string?, Array<{ attribute: string, value: string }>?]> = [
        ['unknown product', 999999, 1, 400, 'woocommerce_rest_cart_invalid_product'],
        ['draft', 114, 1, 400, 'woocommerce_rest_product_not_purchasable'],
        ['private, for a guest', 115, 1, 400, 'woocommerce_rest_product_not_purchasable'],
        ['no price', 119, 1, 400, 'woocommerce_rest_product_not_purchasable'],
        ['out of stock', 109, 1, 400, 'woocommerce_rest_product_out_of_stock'],
        ['out-of-stock variation', 1064, 1, 400, 'woocommerce_rest_product_out_of_stock'],
        ['more than the stock', 108, 4, 400, 'woocommerce_rest_product_partially_out_of_stock'],
        ['variable product without a choice', 106, 1, 400, 'woocommerce_rest_missing_variation_data'],
        ['variable product with an unknown value', 106, 1, 400, 'woocommerce_rest_invalid_variation_data', [{ attribute: 'pa_color', value: 'purple' }, { attribute: 'pa_size', value: 'small' }]],
        ['negative quantity', 101, -1, 400, 'woocommerce_rest_product_invalid_quantity'],
        ['zero quantity', 101, 0, 400, 'woocommerce_rest_product_invalid_quantity'],
        ['simple product', 103, 1, 201],
        ['hidden but published', 116, 1, 201],
        ['search-only', 118, 1, 201],
        ['the whole stock', 108, 3, 201],
        ['backorders allowed beyond stock', 111, 5, 201],
        ['quantity rules met', 113, 4, 201],
        ['variation by id', 1062, 1, 201],
        ['variation by attributes', 106, 1, 201, undefined, [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'small' }]],
        ['variation with an "any" attribute', 106, 1, 201, undefined, [{ attribute: 'attribute_pa_color', value: 'green' }, { attribute: 'pa_size', value: 'large' }]],
        ['sold individually', 112, 1, 201]
      ]
      for (const [name, id, quantity, status, code, variation] of cases) {
        const shopper = new StoreApiClient(app)
        const response = await shopper.add(id, quantity, variation)
        t.equal(response.statusCode, status, `${name}: status`)
        if (code) {
          t.equal(response.json().code, code, `${name}: code`)
          t.equal(response.json().data.status, status, `${name}: data.status`)
          t.type(response.json().message, 'string')
          t.ok(response.headers['cart-token'], `${name}: a failed response still carries the Cart-Token (WooCommerce)`)
          t.ok(response.headers.nonce, `${name}: and a fresh Nonce`)
        }
      }
    })

    t.test('variations, backorders, sold individually and quantity rules show on the line', async (t) => {
      const shopper = new StoreApiClient(app)
      const variable = await shopper.add(106, 1, [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }])
      const [line] = variable.json().items
      t.equal(line.id, 1062, 'the item id is the variation id')
      t.equal(line.type, 'variation')
      t.equal(line.prices.price, '4800')
      t.same(line.variation, [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'large' }])
      t.match(line.permalink, /\/product\/hoodie\/\?attribute_pa_color=blue&attribute_pa_size=large$/)

      const backorder = (await shopper.add(110, 1)).json().items.find((item: { id: number }) => item.id === 110)
      t.equal(backorder.backorders_allowed, true)
      t.equal(backorder.show_backorder_badge, true)

      const single = (await shopper.add(112, 1)).json().items.find((item: { id: number }) => item.id === 112)
      t.same(single.quantity_limits, { minimum: 1, maximum: 1, multiple_of: 1, editable: false })
      const twice = await shopper.add(112, 1)
      t.equal(twice.statusCode, 400)
      t.equal(twice.json().code, 'woocommerce_rest_cart_product_sold_individually')

      const packs = (await shopper.add(113, 4)).json().items.find((item: { id: number }) => item.id === 113)
      t.same(packs.quantity_limits, { minimum: 2, maximum: 10, multiple_of: 2, editable: true })
      const low = (await shopper.add(108, 1)).json().items.find((item: { id: number }) => item.id === 108)
      t.equal(low.low_stock_remaining, 3)
      t.equal(low.quantity_limits.maximum, 3, 'managed stock caps the maximum')
    })

    t.test('update-item and remove-item; an unknown key is a 409 carrying the cart', async (t) => {
      const shopper = new StoreApiClient(app)
      const key = (await shopper.add(103, 1)).json().items[0].key
      const updated = await shopper.request('POST', 'cart/update-item', { key, quantity: 4 })
      t.equal(updated.statusCode, 200)
      t.equal(updated.json().items[0].quantity, 4)

      const tooMany = await shopper.request('POST', 'cart/update-item', { key, quantity: 10000 })
      t.equal(tooMany.statusCode, 400)
      t.equal(tooMany.json().code, 'woocommerce_rest_product_invalid_quantity')

      const unknown = await shopper.request('POST', 'cart/update-item', { key: 'f'.repeat(32), quantity: 1 })
      t.equal(unknown.statusCode, 409)
      t.equal(unknown.json().code, 'woocommerce_rest_cart_invalid_key')
      t.equal(unknown.json().data.status, 409)
      t.same(Object.keys(unknown.json().data.cart), TOP_LEVEL_KEYS)
      t.equal(unknown.json().data.cart.items[0].quantity, 4, 'the 409 carries the unchanged cart')
      t.ok(unknown.headers['cart-token'], 'the 409 carries the Cart-Token, as every Store API cart answer')

      const removedUnknown = await shopper.request('POST', 'cart/remove-item', { key: 'e'.repeat(32) })
      t.equal(removedUnknown.statusCode, 409)

      const removed = await shopper.request('POST', 'cart/remove-item', { key })
      t.equal(removed.statusCode, 200)
      t.same(removed.json().items, [])
      t.equal(removed.headers['cart-hash'], '')
    })

    t.test('coupons through the Store API', async (t) => {
      const shopper = new StoreApiClient(app)
      await shopper.add(105, 2) // 2 × 4500
      const applied = await shopper.request('POST', 'cart/apply-coupon', { code: '  SAVE10 ' })
      t.equal(applied.statusCode, 200)
      const cart = applied.json()
      t.same(cart.coupons.map((coupon: { code: string }) => coupon.code), ['save10'])
      t.equal(cart.coupons[0].totals.total_discount, '900')
      t.equal(cart.totals.total_discount, '900')
      t.equal(cart.totals.total_price, String(9000 - 900 + 810 + 500 + 50))

      const again = await shopper.request('POST', 'cart/apply-coupon', { code: 'save10' })
      t.equal(again.statusCode, 400)
      t.equal(again.json().code, 'woocommerce_rest_cart_coupon_error')

      const small = new StoreApiClient(app)
      await small.add(103, 1)
      const belowMinimum = await small.request('POST', 'cart/apply-coupon', { code: 'big50' })
      t.equal(belowMinimum.json().data.reason, 'minimum_spend', belowMinimum.json().message)
      t.match(belowMinimum.json().message, '$50.00')
      for (const [code, reason] of [['nope', 'not_found'], ['expired', 'expired'], ['usedup', 'usage_limit']]) {
        const refused = await shopper.request('POST', 'cart/apply-coupon', { code })
        t.equal(refused.statusCode, 400, `${code} is refused`)
        t.equal(refused.json().data.reason, reason, `${code}: ${refused.json().message}`)
      }

      const freeShipping = (await shopper.request('POST', 'cart/apply-coupon', { code: 'FreeShip' })).json()
      t.equal(freeShipping.totals.total_shipping, '0')
      t.equal(freeShipping.shipping_rates[0].shipping_rates[0].method_id, 'free_shipping')

      const removed = await shopper.request('POST', 'cart/remove-coupon', { code: 'save10' })
      t.equal(removed.statusCode, 200)
      t.same(removed.json().coupons.map((coupon: { code: string }) => coupon.code), ['freeship'])
      const notApplied = await shopper.request('POST', 'cart/remove-coupon', { code: 'save10' })
      t.equal(notApplied.statusCode, 409, 'an existing coupon that is not applied: 409 with the cart (CartRemoveCoupon)')
      t.equal(notApplied.json().code, 'woocommerce_rest_cart_coupon_invalid_code')
      t.ok(notApplied.json().data.cart)
      const unknownCode = await shopper.request('POST', 'cart/remove-coupon', { code: 'no-such-coupon' })
      t.equal(unknownCode.statusCode, 400)
      t.equal(unknownCode.json().code, 'woocommerce_rest_cart_coupon_error')
    })

    t.test('Cart-Token round trip, tampering and the cookie-to-token handover', async (t) => {
      const shopper = new StoreApiClient(app)
      await shopper.add(101, 1)
      const token = shopper.token!
      const same = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
      t.equal(same.json().items_count, 1, 'the token names the cart')
      t.notOk(same.headers['set-cookie'], 'no cookie for a token request')

      const [header, payload, signature] = token.split('.') as [string, string, string]
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
      const forged = Buffer.from(JSON.stringify({ ...claims, user_id: 't_' + '0'.repeat(30) })).toString('base64url')
      for (const [name, bad] of [
        ['payload changed', `${header}.${forged}.${signature}`],
        ['signature changed', `${header}.${payload}.${signature.slice(0, -2)}AA`],
        ['alg none', `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`],
        ['garbage', 'not-a-token']
      ]) {
        const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': bad! } })
        t.equal(response.statusCode, 200, `${name}: ignored`)
        t.equal(response.json().items_count, 0, `${name}: a new cart starts`)
        t.not(response.headers['cart-token'], token)
      }

      // A page's own script writes with the cart cookie and the nonce the page embeds (no Cart-Token).
      const page = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
      const cookie = String(page.headers['set-cookie']).split(';')[0]!
      const browser = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie, nonce: String(page.headers.nonce) }, payload: { id: 103, quantity: 2 } })
      t.equal(browser.statusCode, 201)
      const handover = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { cookie } })
      t.equal(handover.json().items_count, 2, 'the cookie names the cart')
      const drawer = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': String(handover.headers['cart-token']) } })
      t.equal(drawer.json().items_count, 2, 'the token from the cookie session names the same cart')
      t.equal(drawer.json().items[0].key, browser.json().items[0].key)
    })

    t.test('50 concurrent add-item calls on one cart end at the serial result', async (t) => {
      const shopper = new StoreApiClient(app)
      await shopper.cart()
      const responses = await Promise.all(Array.from({ length: 50 }, () => shopper.add(104, 1)))
      t.ok(responses.every((response) => response.statusCode === 201), 'every call succeeded')
      const cart = (await shopper.cart()).json()
      t.equal(cart.items.length, 1)
      t.equal(cart.items[0].quantity, 50)
      const counts = responses.map((response) => response.json().items[0].quantity).sort((a: number, b: number) => a - b)
      t.same(counts, Array.from({ length: 50 }, (_, index) => index + 1), 'each call saw its own serial step')
    })
  })
}
