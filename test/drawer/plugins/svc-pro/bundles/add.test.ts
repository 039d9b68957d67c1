import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { cartKeyOf, expectError, expectNoStore, login, USERS } from '../../../../helpers/security.ts'
import { cartSnapshot, DEMO_BUNDLES, onEveryBackend, saveBundles, Shopper, type Json } from './helpers.ts'

/**
 * `POST svc/v1/bundle-builder/add {bundle_id, product_ids}`: every line with the bundle's discount in one
 * transaction, or none (design §3.7), on the demo catalog and `DEMO_BUNDLES`. Prices of the demo shop: 10 % tax,
 * $5.00 flat shipping.
 */

/** The drawer's cart state keys (design §3.7 and docs/decisions/extension-and-fragment.md). */
const DRAWER_STATE_KEYS = ['cartItems', 'cartCount', 'cartTotal', 'cartSubtotal', 'cartFees', 'cartTax', 'coupons',
  'currency', 'optionalLockedKeys', 'cartHash', 'cartDiscount', 'cartShipping', 'errors', 'rewards']

/** `[product id, quantity, line_subtotal, line_total]` of each Store API item, in cart order. */
const lines = (cart: Json) => cart.items.map((item: Json) => [item.id, item.quantity, item.totals.line_subtotal, item.totals.line_total])

/**
 * Runs a refused add and checks that the cart did not change: the Store API cart (lines, keys, quantities,
 * totals, coupons), its Cart-Hash and the drawer's state are the same before and after.
 */
async function expectNothingAdded (t: Test, shopper: Shopper, send: () => Promise<LightMyRequestResponse>, status: number, code: string, what: string): Promise<Json> {
  const before = await shopper.storeCart()
  const drawerBefore = await shopper.drawerCart()
  const response = await send()
  expectError(t, response, status, code, what)
  const after = await shopper.storeCart()
  t.same(cartSnapshot(after.cart), cartSnapshot(before.cart), `${what}: the cart is unchanged`)
  t.equal(after.hash, before.hash, `${what}: the same Cart-Hash`)
  t.same(await shopper.drawerCart(), drawerBefore, `${what}: the same drawer state`)
  return response.json()
}

onEveryBackend('POST bundle-builder/add', async (t, { app, storage }) => {
  t.test('adds one line per slot with the bundle\'s discount and answers the drawer\'s cart state', async (t) => {
    const shopper = await Shopper.guest(app)
    const response = await shopper.addBundle('starter', [101, 102])
    t.equal(response.statusCode, 200, 'added', { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS, 'the drawer\'s cart state')
    t.same(state, await shopper.drawerCart(), 'what GET cart answers')
    t.equal(state.cartCount, 2)
    t.same(state.optionalLockedKeys, [], 'bundle lines are not locked')

    const { cart } = await shopper.storeCart()
    // Beanie 1800 (on sale) and Belt 5500 (on sale), 10 % off each before coupons.
    t.same(lines(cart), [[101, 1, '1800', '1620'], [102, 1, '5500', '4950']], 'line_subtotal before, line_total after the discount')
    t.match(cart.totals, {
      total_items: '7300',
      total_discount: '730',
      total_shipping: '500',
      total_tax: String(657 + 50),
      total_price: String(6570 + 657 + 500 + 50)
    }, 'the Store API totals')
    t.equal(state.cartDiscount, '730', 'the drawer shows the discount')
    t.equal(state.cartTotal, '7777')
  })

  t.test('the same bundle again raises its lines; another choice adds lines of its own; ordinary lines stay apart', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    t.equal((await shopper.addBundle('starter', [101, 102])).statusCode, 200)
    const once = (await shopper.storeCart()).cart
    t.same(lines(once), [[101, 1, '1800', '1800'], [101, 1, '1800', '1620'], [102, 1, '5500', '4950']],
      'the ordinary Beanie line is not merged with the bundle\'s and keeps its price')
    t.not(once.items[0].key, once.items[1].key)

    t.equal((await shopper.addBundle('starter', [101, 102])).statusCode, 200)
    const twice = (await shopper.storeCart()).cart
    t.same(lines(twice), [[101, 1, '1800', '1800'], [101, 2, '3600', '3240'], [102, 2, '11000', '9900']], 'the bundle lines\' quantities went up')
    t.same(twice.items.map((item: Json) => item.key), once.items.map((item: Json) => item.key), 'the same keys')

    t.equal((await shopper.addBundle('starter', [103, 116])).statusCode, 200, 'another choice of the same bundle')
    const other = (await shopper.storeCart()).cart
    t.same(lines(other).slice(3), [[103, 1, '1800', '1620'], [116, 1, '300', '270']], 'new lines; Gift Wrap (hidden) may fill a slot')

    t.equal((await shopper.addBundle('music', [108, 112])).statusCode, 200, 'another bundle')
    t.same(lines((await shopper.storeCart()).cart).slice(5), [[108, 1, '2500', '2000'], [112, 1, '1500', '1200']], '20 % off')
  })

  t.test('a bundle with no discount adds plain lines', async (t) => {
    const shopper = await Shopper.guest(app)
    t.equal((await shopper.addBundle('layers', [103, 108])).statusCode, 200)
    const { cart } = await shopper.storeCart()
    t.same(lines(cart), [[103, 1, '1800', '1800'], [108, 1, '2500', '2500']])
    t.equal(cart.totals.total_discount, '0')
  })

  t.test('bundle lines are not locked: the shopper changes or removes them; the discount stays only on complete bundles', async (t) => {
    const shopper = await Shopper.guest(app)
    t.equal((await shopper.addBundle('starter', [101, 102])).statusCode, 200)
    const [beanie, belt] = (await shopper.storeCart()).cart.items
    const update = await shopper.store.request('POST', 'cart/update-item', { key: beanie.key, quantity: 3 })
    t.equal(update.statusCode, 200, 'Store API update-item', { body: update.body })
    t.same(lines(update.json()), [[101, 3, '5400', '5220'], [102, 1, '5500', '4950']], 'one complete bundle: 10 % off one Beanie of three')
    const remove = await shopper.svc('POST', 'cart/remove-items', { keys: [belt.key] })
    t.equal(remove.statusCode, 200, 'svc remove-items', { body: remove.body })
    const { cart } = await shopper.storeCart()
    t.same(lines(cart), [[101, 3, '5400', '5400']], 'no bundle left: no discount')
    const removeLast = await shopper.store.request('POST', 'cart/remove-item', { key: beanie.key })
    t.equal(removeLast.statusCode, 200, 'Store API remove-item')
    t.same((await shopper.storeCart()).cart.items, [])
  })

  t.test('a logged-in shopper adds to their cart', async (t) => {
    const shopper = await Shopper.loggedIn(app, await login(app, USERS.shopper))
    t.equal((await shopper.addBundle('starter', [103, 104])).statusCode, 200)
    t.same(lines((await shopper.storeCart()).cart), [[103, 1, '1800', '1620'], [104, 1, '9000', '8100']])
  })

  t.test('refusals of the selection change nothing', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(105)
    await shopper.addBundle('starter', [101, 102])

    let body = await expectNothingAdded(t, shopper, () => shopper.addBundle('nope', [101, 102]), 404, 'svc_bundle_not_found', 'unknown bundle')
    t.equal(body.message, 'There is no bundle "nope".')
    t.equal(body.data.bundle_id, 'nope')

    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101]), 400, 'svc_bundle_invalid', 'one product for two slots')
    t.equal(body.message, 'The bundle "Starter kit" has 2 slots: choose exactly one product for each (1 product given).')
    t.match(body.data, { reason: 'slot_count', bundle_id: 'starter', expected: 2, received: 1 })
    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 102, 104]), 400, 'svc_bundle_invalid', 'three products for two slots')
    t.match(body.data, { reason: 'slot_count', expected: 2, received: 3 })

    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 101]), 400, 'svc_bundle_invalid', 'the same product twice')
    t.equal(body.message, 'Product 101 is chosen more than once: each slot needs a different product.')
    t.same(body.data.product_ids, [101])
    t.equal(body.data.reason, 'duplicate')

    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [102, 101]), 400, 'svc_bundle_invalid', 'products in the wrong slots')
    t.equal(body.message, 'Product 102 is not an option of slot 1 ("Hat"); product 101 is not an option of slot 2 ("Extra").')
    t.same(body.data.choices, [{ slot: 0, label: 'Hat', product_id: 102 }, { slot: 1, label: 'Extra', product_id: 101 }])
    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 105]), 400, 'svc_bundle_invalid', 'a product of no slot')
    t.match(body.data, { reason: 'not_in_slot', choices: [{ slot: 1, product_id: 105 }] })
  })

  t.test('bad bodies: 400, nothing changes', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.addBundle('starter', [101, 102])
    const bodies: Array<[string, unknown]> = [
      ['no bundle_id', { product_ids: [101, 102] }],
      ['no product_ids', { bundle_id: 'starter' }],
      ['an unknown property', { bundle_id: 'starter', product_ids: [101, 102], quantity: 2 }],
      ['product_ids an object, not a list', { bundle_id: 'starter', product_ids: { 0: 101, 1: 102 } }],
      ['an empty list', { bundle_id: 'starter', product_ids: [] }],
      ['a product id of 0', { bundle_id: 'starter', product_ids: [0, 102] }],
      ['a product id that is not a number', { bundle_id: 'starter', product_ids: ['beanie', 102] }],
      ['an empty bundle_id', { bundle_id: '', product_ids: [101, 102] }],
      ['a bundle_id that is not a string', { bundle_id: { id: 'starter' }, product_ids: [101, 102] }],
      ['not an object', [101, 102]]
    ]
    for (const [what, payload] of bodies) {
      await expectNothingAdded(t, shopper, () => shopper.svc('POST', 'bundle-builder/add', payload), 400, 'svc_invalid_params', what)
    }
    await expectNothingAdded(t, shopper, () => shopper.svc('POST', 'bundle-builder/add', '{"bundle_id": "starter",', { 'content-type': 'application/json' }),
      400, 'svc_invalid_json', 'broken JSON')
    const unknown = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'starter', product_ids: [101, 102], quantity: 2 })
    t.ok('quantity' in unknown.json().data.params, 'the unknown property is named')
  })

  t.test('the section disabled: every bundle is unknown', async (t) => {
    t.teardown(() => saveBundles(app, { enabled: true, bundles: DEMO_BUNDLES }))
    await saveBundles(app, { enabled: false })
    const shopper = await Shopper.guest(app)
    await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 102]), 404, 'svc_bundle_not_found', 'disabled')
  })

  t.test('all or nothing: one product that cannot be added, and no line is added', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(105)
    await shopper.addBundle('starter', [101, 102])

    let body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [109, 102]), 400, 'svc_product_not_addable', 'Polo is out of stock')
    t.equal(body.message, '"Polo" cannot be added right now: nothing from the bundle was added.')
    t.same(body.data.product_ids, [109])
    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 114]), 400, 'svc_product_not_addable', 'the Poster is a draft')
    t.same(body.data.product_ids, [114])
    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('sold-out', [119, 103]), 400, 'svc_product_not_addable', 'a product without a price')
    t.same(body.data.product_ids, [119])
    for (const [id, what] of [[1061, 'a variation'], [115, 'a private product']] as const) {
      body = await expectNothingAdded(t, shopper, () => shopper.addBundle('sold-out', [id, 103]), 400, 'svc_product_not_addable', what)
      t.same(body.data.product_ids, [id], `${what}: named`)
    }

    // The Long Sleeve Tee is fine and comes first; the Single (packs of 2 to 10) fails on its quantity rule.
    body = await expectNothingAdded(t, shopper, () => shopper.addBundle('music', [108, 113]), 400, 'woocommerce_rest_product_invalid_quantity',
      'a quantity rule of the second product')
    t.match(body.message, /Nothing from the bundle was added\.$/)
    t.match(body.data, { bundle_id: 'music', product_id: 113 })
  })

  t.test('all or nothing: a limit reached by the bundle\'s own earlier adds', async (t) => {
    const shopper = await Shopper.guest(app)
    t.equal((await shopper.addBundle('music', [108, 112])).statusCode, 200)
    const body = await expectNothingAdded(t, shopper, () => shopper.addBundle('music', [108, 112]), 400, 'woocommerce_rest_cart_product_sold_individually',
      'the Album is sold individually (the Tee would have gone up first)')
    t.match(body.data, { product_id: 112 })

    const layers = await Shopper.guest(app)
    for (let i = 1; i <= 3; i++) t.equal((await layers.addBundle('layers', [103, 108])).statusCode, 200, `layers #${i}`)
    t.same(lines((await layers.storeCart()).cart), [[103, 3, '5400', '5400'], [108, 3, '7500', '7500']], 'the last three tees')
    // The Cap line would go up to 4 first; the fourth Tee is over the stock of 3.
    const over = await expectNothingAdded(t, layers, () => layers.addBundle('layers', [103, 108]), 400, 'woocommerce_rest_product_partially_out_of_stock',
      'over the stock of the second product')
    t.match(over.data, { bundle_id: 'layers', product_id: 108 })
  })

  t.test('all or nothing: a product that sold out after the shopper saw the bundle', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(104)
    const [belt] = [...(await storage.getProducts([102])).values()]
    t.teardown(() => storage.upsertProducts([belt!]))
    await storage.upsertProducts([{ ...belt!, manageStock: true, stockQuantity: 0, stockStatus: 'outofstock' }])
    const body = await expectNothingAdded(t, shopper, () => shopper.addBundle('starter', [101, 102]), 400, 'svc_product_not_addable', 'the Belt sold out')
    t.same(body.data.product_ids, [102])
  })

  t.test('a refused add on a new cart stores no cart', async (t) => {
    const shopper = await Shopper.guest(app)
    const key = cartKeyOf(shopper.token)
    t.equal(await storage.getCart(key), null, 'no cart stored yet')
    await expectNothingAdded(t, shopper, () => shopper.addBundle('music', [108, 113]), 400, 'woocommerce_rest_product_invalid_quantity', 'refused')
    t.equal(await storage.getCart(key), null, 'still none')
  })

  t.test('a cart-session route: no Cart-Token is 403', async (t) => {
    const response = await app.inject({ method: 'POST', url: '/wp-json/svc/v1/bundle-builder/add', payload: { bundle_id: 'starter', product_ids: [101, 102] } })
    expectError(t, response, 403, 'svc_invalid_cart_token')
  })
})
