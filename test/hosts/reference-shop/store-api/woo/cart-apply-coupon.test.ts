/**
 * A port of WooCommerce's Store API route test class `CartApplyCoupon` (CartApplyCoupon.php) over HTTP.
 * Covers: test_apply_single_coupon, test_apply_multiple_coupons (percent before fixed_cart, whatever the order they
 * were applied in), test_prevent_duplicate_coupon, test_coupon_usage_limit, test_apply_invalid_coupon, plus the
 * minimum spend and WooCommerce's check_cart_coupons (a coupon that stops holding after a change is removed).
 * Deliberately different: test_apply_coupon_when_disabled (the platform has no "coupons disabled" setting);
 * fixed_product coupons (the platform has none); test_get_item_schema (an OPTIONS schema: ours is the OpenAPI document).
 */
import { test } from 'tap'
import { shopperWith, wooApp } from './helpers.ts'

test('WooCommerce CartApplyCoupon route tests', async (t) => {
  const app = await wooApp(t)

  t.test('test_apply_single_coupon', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/apply-coupon', { code: 'fiver' })
    t.equal(response.statusCode, 200)
    t.equal(response.json().totals.total_discount, '500')
  })

  t.test('test_apply_multiple_coupons: percent applies before fixed_cart', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]]) // 4500
    const fixed = await shopper.request('POST', 'cart/apply-coupon', { code: 'fiver' })
    t.equal(fixed.json().totals.total_discount, '500')
    const percent = await shopper.request('POST', 'cart/apply-coupon', { code: 'save10' })
    const cart = percent.json()
    // 10 % of 4500 = 450 first, then $5: 950 in all (fixed first would give 500 + 400 = 900).
    t.equal(cart.totals.total_discount, '950')
    t.same(cart.coupons.map((c: { code: string, totals: { total_discount: string } }) => [c.code, c.totals.total_discount]),
      [['fiver', '500'], ['save10', '450']], 'listed in the order they were applied')
  })

  t.test('test_prevent_duplicate_coupon', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]], ['fiver'])
    const response = await shopper.request('POST', 'cart/apply-coupon', { code: 'fiver' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_coupon_error')
    t.equal(response.json().message, 'Coupon code "fiver" has already been applied.')
  })

  t.test('test_coupon_usage_limit', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/apply-coupon', { code: 'usedup' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_coupon_error')
    t.equal(response.json().message, 'Usage limit for coupon "usedup" has been reached.')
  })

  t.test('test_apply_invalid_coupon', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/apply-coupon', { code: 'invalid_coupon_code' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_coupon_error')
    t.equal(response.json().message, 'Coupon "invalid_coupon_code" does not exist!')
  })

  t.test('minimum spend: refused below it, with the amount', async (t) => {
    const shopper = await shopperWith(app, [[103, 1]])
    const response = await shopper.request('POST', 'cart/apply-coupon', { code: 'big50' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().message, 'The minimum spend for this coupon is $50.00.')
  })

  t.test('check_cart_coupons: a coupon whose minimum spend stops holding is removed, with a notice', async (t) => {
    const shopper = await shopperWith(app, [[105, 1], [103, 1]])
    const lines = (await shopper.cart()).json().items
    const applied = await shopper.request('POST', 'cart/apply-coupon', { code: 'big50' })
    t.equal(applied.statusCode, 200, applied.body)
    const removed = await shopper.request('POST', 'cart/remove-item', { key: lines[0].key })
    t.equal(removed.statusCode, 200)
    t.same(removed.json().coupons, [], 'the coupon is gone from the cart')
    t.same(removed.json().errors, [{
      code: 'woocommerce_rest_cart_coupon_error',
      message: 'The "big50" coupon has been removed from your cart: The minimum spend for this coupon is $50.00.'
    }])
    const later = (await shopper.cart()).json()
    t.same(later.coupons, [])
    t.same(later.errors, [], 'the notice is shown once')
  })
})
