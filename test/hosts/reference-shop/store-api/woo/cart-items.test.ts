/**
 * A port of WooCommerce's Store API route test class `CartItems` (CartItems.php) over HTTP: `cart/items` and
 * `cart/items/{key}`. Covers: test_get_items, test_get_item, test_create_item (201 with the item),
 * test_invalid_create_item (an unknown product), test_update_item, test_delete_item (204, then 409),
 * test_delete_items (200 []), and the quantity normalisation of CartController::add_to_cart.
 * Deliberately different: test_prepare_item / test_get_item_schema are PHP-internal; a missing product id is refused
 * by our request schema (400 `rest_invalid_param`) before the route.
 */
import { test } from 'tap'
import { shopperWith, wooApp } from './helpers.ts'

test('WooCommerce CartItems route tests', async (t) => {
  const app = await wooApp(t)

  t.test('test_get_items: the lines', async (t) => {
    const shopper = await shopperWith(app, [[105, 2], [103, 1]])
    const response = await shopper.request('GET', 'cart/items')
    t.equal(response.statusCode, 200)
    t.same(response.json().map((item: { id: number, quantity: number }) => [item.id, item.quantity]), [[105, 2], [103, 1]])
    t.ok(response.headers['cart-token'])
  })

  t.test('test_get_item: one line; an unknown key is a 409 with the cart', async (t) => {
    const shopper = await shopperWith(app, [[105, 2]])
    const key = (await shopper.cart()).json().items[0].key
    const found = await shopper.request('GET', `cart/items/${key}`)
    t.equal(found.statusCode, 200)
    t.equal(found.json().key, key)
    t.equal(found.json().quantity, 2)
    const missing = await shopper.request('GET', `cart/items/${'0'.repeat(32)}`)
    t.equal(missing.statusCode, 409)
    t.equal(missing.json().code, 'woocommerce_rest_cart_invalid_key')
    t.equal(missing.json().message, 'Cart item does not exist.')
    t.equal(missing.json().data.cart.items_count, 2)
  })

  t.test('test_create_item: 201 with the added item', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'cart/items', { id: 103, quantity: 2 })
    t.equal(response.statusCode, 201)
    t.equal(response.json().id, 103)
    t.equal(response.json().quantity, 2)
    t.match(response.json().key, /^[0-9a-f]{32}$/)
    const withKey = await shopper.request('POST', 'cart/items', { id: 103, quantity: 1, key: response.json().key })
    t.equal(withKey.statusCode, 400)
    t.equal(withKey.json().code, 'woocommerce_rest_cart_item_exists')
  })

  t.test('test_invalid_create_item: an unknown product', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'cart/items', { id: 999999, quantity: 1 })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_invalid_product')
  })

  t.test('test_update_item: PUT sets the quantity and answers the item; without a quantity nothing changes', async (t) => {
    const shopper = await shopperWith(app, [[103, 1]])
    const key = (await shopper.cart()).json().items[0].key
    const updated = await shopper.request('PUT', `cart/items/${key}`, { quantity: 10 })
    t.equal(updated.statusCode, 200)
    t.equal(updated.json().quantity, 10)
    const untouched = await shopper.request('PUT', `cart/items/${key}`, {})
    t.equal(untouched.statusCode, 200)
    t.equal(untouched.json().quantity, 10)
    const unknown = await shopper.request('PUT', `cart/items/${'0'.repeat(32)}`, { quantity: 2 })
    t.equal(unknown.statusCode, 409)
  })

  t.test('test_delete_item: 204, then 409', async (t) => {
    const shopper = await shopperWith(app, [[103, 1], [105, 1]])
    const key = (await shopper.cart()).json().items[0].key
    const deleted = await shopper.request('DELETE', `cart/items/${key}`)
    t.equal(deleted.statusCode, 204)
    t.equal(deleted.body, '')
    const again = await shopper.request('DELETE', `cart/items/${key}`)
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'woocommerce_rest_cart_invalid_key')
    t.equal((await shopper.cart()).json().items_count, 1)
  })

  t.test('test_delete_items: 200 [] and an empty cart, coupons included', async (t) => {
    const shopper = await shopperWith(app, [[105, 2], [103, 1]], ['fiver'])
    const response = await shopper.request('DELETE', 'cart/items')
    t.equal(response.statusCode, 200)
    t.same(response.json(), [])
    const cart = (await shopper.cart()).json()
    t.equal(cart.items_count, 0)
    t.same(cart.coupons, [])
  })

  t.test('add_to_cart brings a new line within the quantity rules (minimum 2, maximum 10, multiple of 2)', async (t) => {
    for (const [asked, expected] of [[1, 2], [3, 4], [12, 10], [5, 6]] as const) {
      const shopper = await shopperWith(app, [])
      const response = await shopper.add(113, asked)
      t.equal(response.statusCode, 201, `${asked} is accepted`)
      t.equal(response.json().items[0].quantity, expected, `${asked} becomes ${expected}`)
    }
    const shopper = await shopperWith(app, [[113, 10]])
    const merged = await shopper.add(113, 2)
    t.equal(merged.statusCode, 400, 'a merge into an existing line is validated as it is')
    t.equal(merged.json().code, 'woocommerce_rest_product_invalid_quantity')
    const zero = await shopper.add(103, 0)
    t.equal(zero.statusCode, 400)
    const stock = await (await shopperWith(app, [])).add(108, 4)
    t.equal(stock.json().code, 'woocommerce_rest_product_partially_out_of_stock', 'stock is held against the asked quantity first')
  })
})
