/**
 * A port of WooCommerce's Store API route test class `Cart` (tests/php/src/Blocks/StoreApi/Routes/Cart.php) over HTTP.
 * Covers: test_get_item, test_remove_bad_cart_item, test_remove_cart_item, test_update_item, test_apply_coupon (case),
 * test_remove_coupon, plus the no-op update-item of CartExtensions' test_successful_no_op_cart_update…
 * Deliberately different: test_update_customer* live in customer.test.ts; test_prepare_item / test_get_item_schema are
 * PHP-internal (our response schemas are checked by fast-json-stringify and the OpenAPI drift test); `items_weight` is
 * 0 (the demo catalog has no weights); prices carry our 10 % tax and $5 flat rate instead of the fixture's untaxed $10.
 */
import { test } from 'tap'
import { shopperWith, wooApp } from './helpers.ts'

test('WooCommerce Cart route tests', async (t) => {
  const app = await wooApp(t)

  t.test('test_get_item: the cart with its lines, coupon, totals and cross-sells', async (t) => {
    const shopper = await shopperWith(app, [[105, 2], [103, 1]], ['fiver'])
    const response = await shopper.cart()
    t.equal(response.statusCode, 200)
    const cart = response.json()
    t.equal(cart.items_count, 3)
    t.equal(cart.items.length, 2)
    t.equal(cart.needs_payment, true)
    t.equal(cart.needs_shipping, true)
    t.equal(cart.totals.total_discount, '500')
    t.equal(cart.totals.currency_code, 'USD')
    t.equal(cart.totals.currency_prefix, '$')
    t.same(cart.totals.tax_lines.map((line: { rate: string }) => line.rate), ['10%'], 'the rate as WooCommerce writes it')
  })

  t.test('test_remove_bad_cart_item: 409 woocommerce_rest_cart_invalid_key with the cart', async (t) => {
    const shopper = await shopperWith(app, [[103, 1]])
    const response = await shopper.request('POST', 'cart/remove-item', { key: 'bad_item_key_123' })
    t.equal(response.statusCode, 409)
    t.equal(response.json().code, 'woocommerce_rest_cart_invalid_key')
    t.equal(response.json().data.cart.items_count, 1)
  })

  t.test('test_remove_cart_item: removes once, then 409', async (t) => {
    const shopper = await shopperWith(app, [[105, 2], [103, 1]])
    const key = (await shopper.cart()).json().items[0].key
    const removed = await shopper.request('POST', 'cart/remove-item', { key })
    t.equal(removed.statusCode, 200)
    t.equal(removed.json().items_count, 1)
    t.equal(removed.json().items.length, 1)
    const again = await shopper.request('POST', 'cart/remove-item', { key })
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'woocommerce_rest_cart_invalid_key')
  })

  t.test('test_update_item: sets the quantity', async (t) => {
    const shopper = await shopperWith(app, [[105, 2], [103, 1]])
    const key = (await shopper.cart()).json().items[0].key
    const response = await shopper.request('POST', 'cart/update-item', { key, quantity: 10 })
    t.equal(response.statusCode, 200)
    t.equal(response.json().items_count, 11)
    t.equal(response.json().items[0].quantity, 10)
    t.ok(Number(response.json().totals.total_items) > 10 * 4500, 'total_items follows the quantity')
  })

  t.test('update-item with only a key is a 200 no-op answering the cart', async (t) => {
    const shopper = await shopperWith(app, [[103, 3]])
    const before = (await shopper.cart()).json()
    const response = await shopper.request('POST', 'cart/update-item', { key: before.items[0].key })
    t.equal(response.statusCode, 200)
    t.same(response.json().items, before.items)
    const unknown = await shopper.request('POST', 'cart/update-item', { key: 'f'.repeat(32) })
    t.equal(unknown.statusCode, 200, 'WooCommerce checks nothing without a quantity')
  })

  t.test('test_apply_coupon: applies, and codes are case-insensitive', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]])
    const applied = await shopper.request('POST', 'cart/apply-coupon', { code: 'FIVER' })
    t.equal(applied.statusCode, 200)
    t.equal(applied.json().totals.total_discount, '500')
    t.same(applied.json().coupons.map((c: { code: string }) => c.code), ['fiver'])
  })

  t.test('test_remove_coupon: an unknown code 400, an applied one removed', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]], ['fiver'])
    const unknown = await shopper.request('POST', 'cart/remove-coupon', { code: 'doesnotexist' })
    t.equal(unknown.statusCode, 400)
    t.equal(unknown.json().code, 'woocommerce_rest_cart_coupon_error')
    t.equal(unknown.json().message, 'Invalid coupon code.')
    const removed = await shopper.request('POST', 'cart/remove-coupon', { code: 'fiver' })
    t.equal(removed.statusCode, 200)
    t.equal(removed.json().totals.total_discount, '0')
    const notApplied = await shopper.request('POST', 'cart/remove-coupon', { code: 'fiver' })
    t.equal(notApplied.statusCode, 409)
    t.equal(notApplied.json().code, 'woocommerce_rest_cart_coupon_invalid_code')
    t.equal(notApplied.json().message, 'Coupon cannot be removed because it is not already applied to the cart.')
  })

  t.test('not purchasable products: woocommerce_rest_product_not_purchasable with WooCommerce\'s message', async (t) => {
    const shopper = await shopperWith(app, [])
    const draft = await shopper.add(114, 1)
    t.equal(draft.statusCode, 400)
    t.equal(draft.json().code, 'woocommerce_rest_product_not_purchasable')
    t.match(draft.json().message, /^".+" is not available for purchase\.$/)
    const unknown = await shopper.add(999999, 1)
    t.equal(unknown.json().code, 'woocommerce_rest_cart_invalid_product')
    t.equal(unknown.json().message, 'Product with ID "999999" was not found and cannot be added to the cart.')
  })

  t.test('caching headers: no-store and Vary on answers and errors', async (t) => {
    const shopper = await shopperWith(app, [])
    for (const response of [await shopper.cart(), await shopper.add(999999, 1)]) {
      t.match(response.headers['cache-control'], /no-store/)
      t.match(response.headers['cache-control'], /private/)
      t.match(response.headers.vary, /Cart-Token/)
      t.match(response.headers.vary, /Cookie/)
      t.match(response.headers.vary, /Nonce/)
    }
  })
})
