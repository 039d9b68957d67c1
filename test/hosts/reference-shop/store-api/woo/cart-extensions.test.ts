/**
 * A port of WooCommerce's Store API route test class `CartExtensions` (CartExtensions.php) over HTTP.
 * Covers: test_invalid_namespace (400), test_cart_being_updated (the callback changes the cart, the answer shows it),
 * test_rejected_cart_update… (a bad nonce: 403 and the callback does not run).
 * Deliberately different: the callback in WooCommerce adds a fee through a hook; ours adds a line through the
 * platform's cart service (the platform's fees are configuration, not per cart). The pending-order tests need
 * orders (another engineer's checkout work).
 */
import { test } from 'tap'
import { shopperWith, STORE_API, wooApp } from './helpers.ts'

test('WooCommerce CartExtensions route tests', async (t) => {
  const app = await wooApp(t)
  let calls = 0
  app.shop.extendSchema.registerUpdateCallback({
    namespace: 'valid-test-plugin',
    callback: async ({ cartKey, viewer, data }) => {
      calls++
      await app.shop.carts.addItem(cartKey, { id: 103, quantity: Number(data.quantity ?? 1), variation: {} }, viewer)
    }
  })

  t.test('test_invalid_namespace: 400 woocommerce_rest_cart_extensions_error', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/extensions', { namespace: 'test-plugin' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_extensions_error')
    t.equal(response.json().message, 'There is no such namespace registered: test-plugin.')
  })

  t.test('test_cart_being_updated: the callback runs and the cart answers its change', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/extensions', { namespace: 'valid-test-plugin', data: { quantity: 2 } })
    t.equal(response.statusCode, 200)
    t.equal(response.json().items_count, 3)
  })

  t.test('a rejected update (bad nonce) does not run the callback', async (t) => {
    const before = calls
    const page = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    const cookie = String(page.headers['set-cookie']).split(';')[0]!
    const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/extensions`, headers: { cookie, nonce: 'invalid' }, payload: { namespace: 'valid-test-plugin' } })
    t.equal(response.statusCode, 403)
    t.equal(calls, before)
  })
})
