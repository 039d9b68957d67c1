import { test } from 'tap'
import { makeProduct } from '../kernel/domain/fixtures.ts'
import { STORE_API } from '../helpers/app.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { twoInstances } from '../helpers/two-instances.ts'

/**
 * The last item in stock, in 20 carts, checked out at the same moment through two instances on one database: exactly
 * one order is placed, the stock ends at zero (never below), and every other checkout is refused with nothing
 * changed — its cart still holds the line and no coupon use or order is recorded.
 */

type Json = Record<string, any>
const SHOPPERS = 20
const LAST_ONE = 9101
const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Analytical Row', address_2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '' }

for (const backend of storageBackends()) {
  test(`20 concurrent checkouts of the last item give exactly one order (${backend.name})`, { skip: backend.skip }, async (t) => {
    const { apps, storage } = await twoInstances(t, backend)
    await storage.upsertProducts([makeProduct({ id: LAST_ONE, name: 'Last Lamp', slug: 'last-lamp', regularPrice: 4000, manageStock: true, stockQuantity: 1 })])
    const call = async (index: number, method: 'GET' | 'POST', path: string, token?: string, body?: Json) => {
      const response = await apps[index % 2]!.inject({
        method,
        url: `${STORE_API}/${path}`,
        remoteAddress: `10.20.0.${index + 1}`,
        headers: token ? { 'cart-token': token } : {},
        ...(body ? { payload: body } : {})
      })
      return { status: response.statusCode, json: response.json() as Json, token: response.headers['cart-token'] as string | undefined }
    }

    const tokens: string[] = []
    for (let index = 0; index < SHOPPERS; index++) {
      const { token } = await call(index, 'GET', 'cart')
      const added = await call(index, 'POST', 'cart/add-item', token, { id: LAST_ONE, quantity: 1 })
      t.equal(added.status, 201, `shopper ${index} has the lamp in the cart`)
      tokens.push(added.token!)
    }
    const ordersBefore = (await storage.listOrders({})).total

    const results = await Promise.all(tokens.map((token, index) =>
      call(index, 'POST', 'checkout', token, { billing_address: { ...ADDRESS, email: `buyer${index}@example.com` }, payment_method: 'cod' })))

    const placed = results.filter((result) => result.status === 200)
    t.equal(placed.length, 1, 'exactly one checkout places an order')
    for (const refused of results.filter((result) => result.status !== 200)) {
      t.equal(refused.status, 403, 'the others are refused as out of stock')
      t.equal(refused.json.code, 'woocommerce_rest_product_out_of_stock')
    }
    t.equal((await storage.listOrders({})).total, ordersBefore + 1, 'one order stored')
    const lamp = await storage.getProduct(LAST_ONE)
    t.equal(lamp?.stockQuantity, 0, 'the stock ends at zero, never below')
    t.equal(lamp?.stockStatus, 'outofstock')

    const winner = placed[0]!.json
    const order = await storage.getOrder(winner.order_id)
    t.equal(order?.totals.totalPrice, 4000 + 400 + 500 + 50, 'the order has the cart\'s total ($40 + 10 % tax + $5 shipping + tax)')
    let kept = 0
    for (let index = 0; index < SHOPPERS; index++) {
      const cart = await call(index, 'GET', 'cart', tokens[index])
      if (cart.json.items.length === 1) kept++
    }
    t.equal(kept, SHOPPERS - 1, 'every refused cart still holds its line; the winner\'s cart is empty')
  })
}
