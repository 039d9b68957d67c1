/**
 * A port of WooCommerce's Store API route test class `CartCoupons` (CartCoupons.php) over HTTP: `cart/coupons` and
 * `cart/coupons/{code}`. Covers: test_get_items, test_get_item, test_create_item (201), test_invalid_create_item
 * (400), test_delete_item (204, then 404 twice), test_delete_items (200 []).
 * Deliberately different: test_prepare_item / test_get_item_schema are PHP-internal; the fixture's zero-amount
 * fixed_cart coupon is our `fiver` ($5), so the discounts are not 0.
 */
import { test } from 'tap'
import { shopperWith, wooApp } from './helpers.ts'

test('WooCommerce CartCoupons route tests', async (t) => {
  const app = await wooApp(t)

  t.test('test_get_items', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]], ['fiver'])
    const response = await shopper.request('GET', 'cart/coupons')
    t.equal(response.statusCode, 200)
    t.equal(response.json().length, 1)
    t.equal(response.json()[0].code, 'fiver')
    t.equal(response.json()[0].discount_type, 'fixed_cart')
    t.equal(response.json()[0].totals.total_discount, '500')
    t.equal(response.json()[0].totals.total_discount_tax, '50')
  })

  t.test('test_get_item; a coupon not applied is a 404', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]], ['fiver'])
    const found = await shopper.request('GET', 'cart/coupons/fiver')
    t.equal(found.statusCode, 200)
    t.equal(found.json().code, 'fiver')
    const missing = await shopper.request('GET', 'cart/coupons/save10')
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'woocommerce_rest_cart_coupon_invalid_code')
    t.equal(missing.json().message, 'Coupon does not exist in the cart.')
  })

  t.test('test_create_item: 201 with the coupon', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]])
    const response = await shopper.request('POST', 'cart/coupons', { code: 'fiver' })
    t.equal(response.statusCode, 201)
    t.equal(response.json().code, 'fiver')
  })

  t.test('test_invalid_create_item: 400', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]])
    const response = await shopper.request('POST', 'cart/coupons', { code: 'IDONOTEXIST' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_coupon_error')
  })

  t.test('test_delete_item: 204, then 404, and 404 for an unknown code', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]], ['fiver'])
    const deleted = await shopper.request('DELETE', 'cart/coupons/fiver')
    t.equal(deleted.statusCode, 204)
    t.equal((await shopper.cart()).json().totals.total_discount, '0')
    t.equal((await shopper.request('DELETE', 'cart/coupons/fiver')).statusCode, 404)
    t.equal((await shopper.request('DELETE', 'cart/coupons/i-do-not-exist')).statusCode, 404)
  })

  t.test('test_delete_items: 200 []', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]], ['fiver', 'save10'])
    const response = await shopper.request('DELETE', 'cart/coupons')
    t.equal(response.statusCode, 200)
    t.same(response.json(), [])
    t.same((await shopper.cart()).json().coupons, [])
    t.equal((await shopper.cart()).json().items_count, 2, 'the items stay')
  })
})
