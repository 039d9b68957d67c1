import { expectError, expectNoStore } from '../../../helpers/security.ts'
import {
  badMoney, BLUE_LARGE, DRAWER_STATE_KEYS, errorData, onEveryBackend, Shopper, USD, withSettings, type Json
} from './helpers.ts'

/**
 * `GET svc/v1/drawer-data`, `GET svc/v1/recommendations` and `POST svc/v1/recommendations/add` (specification
 * §4.2–4.3; design §3.7), on the demo catalog (seed/demo-catalog.ts).
 */

const ids = (recommendations: Json): number[] => recommendations.products.map((product: Json) => product.id)

/** Demo products that fail the rule of §4.3, each for one reason. */
const NOT_ADDABLE: Array<[string, number]> = [
  ['a variable product', 106],
  ['a variation', 1061],
  ['a draft', 114],
  ['a private product', 115],
  ['a product hidden from the catalog', 116],
  ['a product found by search only', 118],
  ['a product without a price', 119],
  ['a product out of stock', 109],
  ['a variation out of stock', 1064]
]

onEveryBackend('GET drawer-data, GET recommendations, POST recommendations/add', async (t, free) => {
  const { app } = free

  t.test('GET drawer-data: by default every section of the Free edition, cart and recommendations', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const response = await shopper.svc('GET', 'drawer-data')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    const data = response.json()
    t.same(Object.keys(data).sort(), ['cart', 'recommendations'])
    t.same(data.cart, await shopper.drawerCart(), 'cart: the state GET cart answers')
    t.same(data.recommendations, (await shopper.svc('GET', 'recommendations')).json(), 'recommendations: what GET recommendations answers')
    t.same(ids(data.recommendations), [102, 103], 'the Beanie\'s cross-sells')
  })

  t.test('GET drawer-data?fields=: only the requested sections', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const state = await shopper.drawerCart()
    const sections = async (fields: string) => {
      const response = await shopper.svc('GET', `drawer-data?fields=${encodeURIComponent(fields)}`)
      t.equal(response.statusCode, 200, `fields=${fields}`, { body: response.body })
      return response.json()
    }
    const cartOnly = await sections('cart')
    t.same(Object.keys(cartOnly), ['cart'], 'fields=cart')
    t.same(cartOnly.cart, state)
    t.same(Object.keys(await sections('recommendations')), ['recommendations'], 'fields=recommendations')
    const both = await sections('recommendations,cart')
    t.same(Object.keys(both).sort(), ['cart', 'recommendations'], 'fields=recommendations,cart')
    t.same(both.cart, state)
    t.same(Object.keys(await sections(' cart , cart,')).sort(), ['cart'], 'spaces, repeats and empty names are ignored')
  })

  t.test('GET drawer-data: a Pro section is left out in Free', async (t) => {
    const shopper = await Shopper.guest(app)
    const response = await shopper.svc('GET', 'drawer-data?fields=shipping_meter')
    t.equal(response.statusCode, 200)
    t.same(response.json(), {}, 'fields=shipping_meter: nothing')
    const mixed = await shopper.svc('GET', 'drawer-data?fields=cart,shipping_meter,smart_addons,spotlight')
    t.equal(mixed.statusCode, 200)
    t.same(Object.keys(mixed.json()), ['cart'], 'only the Free section of the list')
  })

  t.test('GET drawer-data: an unknown section name is 400 svc_invalid_params', async (t) => {
    const shopper = await Shopper.guest(app)
    for (const fields of ['bogus', 'cart,bogus', 'Cart', 'recommendations;cart']) {
      const response = await shopper.svc('GET', `drawer-data?fields=${encodeURIComponent(fields)}`)
      expectError(t, response, 400, 'svc_invalid_params', `fields=${fields}`)
      t.same(Object.keys(errorData(response).params), ['fields'], `fields=${fields}: data.params names fields`)
    }
    const response = await shopper.svc('GET', 'drawer-data?fields=bogus,cart,other')
    t.match(errorData(response).params.fields, /bogus, other/, 'every unknown name is listed')
  })

  t.test('GET recommendations: cross-sells of the cart, never a product already in it, only addable ones', async (t) => {
    const shopper = await Shopper.guest(app)
    const empty = await shopper.svc('GET', 'recommendations')
    t.equal(empty.statusCode, 200)
    expectNoStore(t, empty)
    t.same(empty.json(), { source: 'cross_sells', products: [] }, 'an empty cart has no cross-sells')

    await shopper.add(105) // cross-sells 101, 103
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [101, 103])
    await shopper.add(103) // cross-sells 101
    const response = await shopper.svc('GET', 'recommendations')
    t.same(ids(response.json()), [101], 'the Cap is in the cart now')
    const [beanie] = response.json().products
    t.same(beanie, {
      id: 101,
      name: 'Beanie',
      short_description: 'A warm knitted beanie.',
      permalink: 'http://shop.test/product/beanie/',
      image: { src: 'http://shop.test/images/beanie.svg', thumbnail: 'http://shop.test/images/beanie.svg', alt: 'Beanie' },
      prices: { price: '1800', regular_price: '2000', sale_price: '1800', on_sale: true },
      currency: USD
    }, 'a product card, money in minor units')

    await shopper.add(101) // cross-sells 102, 103: the Cap and the Beanie are in the cart
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [102])

    const variation = await Shopper.guest(app)
    await variation.add(106, 1, BLUE_LARGE)
    t.same((await variation.svc('GET', 'recommendations')).json().products, [], 'the Hoodie has no cross-sells')
  })

  t.test('GET recommendations: upsells', async (t) => {
    await withSettings(t, free, { recommendations: { source: 'upsells' } })
    const shopper = await Shopper.guest(app)
    await shopper.add(101) // upsell 104
    await shopper.add(103)
    const response = await shopper.svc('GET', 'recommendations')
    t.equal(response.json().source, 'upsells')
    t.same(ids(response.json()), [104], 'the Beanie\'s upsell; the Cap has none')
    await shopper.add(104)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [], 'not once it is in the cart')
  })

  t.test('GET recommendations: manual picks, in order, addable, not in the cart, at most the limit', async (t) => {
    const picks = [101, 114, 115, 116, 118, 119, 109, 106, 1061, 104, 102, 105, 107, 108]
    await withSettings(t, free, { recommendations: { source: 'manual', manual_ids: picks, limit: 12 } })
    const shopper = await Shopper.guest(app)
    t.same((await shopper.svc('GET', 'recommendations')).json().source, 'manual')
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [101, 104, 102, 105, 107, 108], 'an empty cart: every addable pick')
    await shopper.add(101)
    await shopper.add(106, 1, BLUE_LARGE)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [104, 102, 105, 107, 108], 'the Beanie is in the cart')

    await withSettings(t, free, { recommendations: { limit: 3 } })
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [104, 102, 105], 'limit 3')
    await withSettings(t, free, { recommendations: { limit: 1 } })
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [104], 'limit 1')
  })

  t.test('GET recommendations: disabled → an empty list, in drawer-data too', async (t) => {
    await withSettings(t, free, { recommendations: { enabled: false } })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    t.same((await shopper.svc('GET', 'recommendations')).json(), { source: 'cross_sells', products: [] })
    t.same((await shopper.svc('GET', 'drawer-data?fields=recommendations')).json(), { recommendations: { source: 'cross_sells', products: [] } })
  })

  t.test('POST recommendations/add: an addable product → the new cart state with it', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const response = await shopper.svc('POST', 'recommendations/add', { product_id: 102 })
    t.equal(response.statusCode, 200, 'added', { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS)
    t.same(badMoney(state), [])
    t.same(state.cartItems.map((item: Json) => [item.product_id, item.quantity]), [[101, 1], [102, 1]], 'quantity 1, after the other lines')
    const { cart, hash } = await shopper.storeCart()
    t.same(cart.items.map((item: Json) => item.id), [101, 102], 'the Store API cart has it')
    t.equal(state.cartHash, hash)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [103], 'no longer recommended')

    for (const id of [104, 108, 110, 117]) {
      const added = await shopper.svc('POST', 'recommendations/add', { product_id: id })
      t.equal(added.statusCode, 200, `product ${id} is addable`, { body: added.body })
    }
    const again = await shopper.svc('POST', 'recommendations/add', { product_id: 102 })
    t.equal(again.statusCode, 200, 'a product already in the cart: one more')
    t.equal(again.json().cartItems.find((item: Json) => item.product_id === 102).quantity, 2)
  })

  t.test('POST recommendations/add: a product that fails the rule is 400 svc_product_not_addable, nothing added', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const before = await shopper.drawerCart()
    for (const [what, id] of NOT_ADDABLE) {
      expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: id }), 400, 'svc_product_not_addable', `${what} (${id})`)
    }
    t.same(await shopper.drawerCart(), before, 'the cart is unchanged')
  })

  t.test('POST recommendations/add: an unknown product is 404', async (t) => {
    const shopper = await Shopper.guest(app)
    const response = await shopper.svc('POST', 'recommendations/add', { product_id: 999999 })
    expectError(t, response, 404, 'svc_product_not_found')
    t.same((await shopper.drawerCart()).cartItems, [])
  })

  t.test('POST recommendations/add: an invalid body is 400 svc_invalid_params', async (t) => {
    const shopper = await Shopper.guest(app)
    const cases: Array<[string, unknown, string[]]> = [
      ['a missing product_id', {}, ['product_id']],
      ['product_id 0', { product_id: 0 }, ['product_id']],
      ['a negative product_id', { product_id: -102 }, ['product_id']],
      ['a fractional product_id', { product_id: 102.5 }, ['product_id']],
      ['a product_id that is not a number', { product_id: 'belt' }, ['product_id']],
      ['an extra property', { product_id: 102, quantity: 5 }, ['quantity']],
      ['a JSON array for a body', [102], ['body']]
    ]
    for (const [what, payload, params] of cases) {
      const response = await shopper.svc('POST', 'recommendations/add', payload)
      expectError(t, response, 400, 'svc_invalid_params', what)
      t.same(Object.keys(errorData(response).params ?? {}).sort(), params, `${what}: data.params names ${params.join(', ')}`)
    }
    t.equal((await shopper.svc('POST', 'recommendations/add')).statusCode, 400, 'no body at all')
    t.same((await shopper.drawerCart()).cartItems, [], 'nothing was added')
  })
})
