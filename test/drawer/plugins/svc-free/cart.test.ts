import type { CartData } from '../../../../kernel/domain/types.ts'
import { expectError, expectNoStore, login, USERS } from '../../../helpers/security.ts'
import {
  absentKey, badMoney, BLUE_LARGE, DRAWER_STATE_KEYS, errorData, onEveryBackend, Shopper, USD, type Json
} from './helpers.ts'

/** `GET svc/v1/cart` and `POST svc/v1/cart/remove-items` (specification §4.2–4.3, §8; design §3.7). */

const keyOf = (state: Json, productId: number, variationId = 0): string =>
  state.cartItems.find((item: Json) => item.product_id === productId && item.variation_id === variationId).key

const linesOf = (state: Json): Array<[number, number, number]> =>
  state.cartItems.map((item: Json) => [item.product_id, item.variation_id, item.quantity])

onEveryBackend('GET cart and POST cart/remove-items', async (t, { app }) => {
  t.test('GET cart: the drawer state of an empty cart', async (t) => {
    const shopper = await Shopper.guest(app)
    const response = await shopper.svc('GET', 'cart')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS, 'the keys of design §3.7, in order')
    t.strictSame(state, {
      cartItems: [],
      cartCount: 0,
      cartTotal: '0',
      cartSubtotal: '0',
      cartFees: [],
      cartTax: '0',
      coupons: [],
      currency: USD,
      optionalLockedKeys: [],
      cartHash: '',
      cartDiscount: '0',
      cartShipping: null,
      errors: [],
      rewards: null
    })
    const { hash } = await shopper.storeCart()
    t.equal(state.cartHash, hash, 'the Store API\'s Cart-Hash of the same cart')
  })

  t.test('GET cart: a cart built through the Store API with the same Cart-Token (simple, variation, coupon)', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101, 2)
    await shopper.add(106, 1, BLUE_LARGE)
    const coupon = await shopper.store.request('POST', 'cart/apply-coupon', { code: 'save10' })
    t.equal(coupon.statusCode, 200, 'coupon applied through the Store API')

    const state = await shopper.drawerCart()
    const { cart, hash } = await shopper.storeCart()
    t.same(Object.keys(state), DRAWER_STATE_KEYS)
    t.same(badMoney(state), [], 'every amount is a string of minor units')

    t.same(state.cartItems.map((item: Json) => item.key), cart.items.map((item: Json) => item.key), 'the Store API\'s item keys, in cart order')
    t.same(linesOf(state), [[101, 0, 2], [106, 1062, 1]])
    const [beanie, hoodie] = state.cartItems
    t.match(beanie, {
      name: 'Beanie',
      sku: 'SKU-101',
      variationSummary: '',
      variation: [],
      prices: { price: '1800', regular_price: '2000', sale_price: '1800' },
      totals: { line_subtotal: '3600', line_subtotal_tax: '360', line_total: '3240', line_total_tax: '324' },
      removable: true,
      quantityEditable: true,
      visible: true
    })
    t.match(beanie.presentation, { key: beanie.key, name: 'Beanie' }, 'the line\'s presentation row')
    t.match(hoodie, {
      name: 'Hoodie - Blue, Large',
      variationSummary: 'Color: blue, Size: large',
      variation: [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'large' }],
      prices: { price: '4800', regular_price: '4800', sale_price: '4800' },
      totals: { line_subtotal: '4800', line_total: '4320' }
    })

    // 3600 + 4800 = 8400; 10 % off = 840; tax 10 % of 7560 = 756, of 500 shipping = 50.
    t.match(state, {
      cartCount: 3,
      cartSubtotal: '8400',
      cartDiscount: '840',
      cartShipping: '500',
      cartTax: '806',
      cartTotal: '8866',
      currency: USD,
      optionalLockedKeys: [],
      errors: [],
      rewards: null
    })
    t.same(state.coupons, [{ code: 'save10', label: 'Coupon: save10', isSystemReward: false, removable: true, discount: '840', discountTax: '84' }])
    const { totals } = cart
    t.same(
      [state.cartTotal, state.cartSubtotal, state.cartTax, state.cartDiscount, state.cartShipping],
      [totals.total_price, totals.total_items, totals.total_tax, totals.total_discount, totals.total_shipping],
      'the same figures as the Store API cart'
    )
    t.same(state.optionalLockedKeys, cart.extensions.svc.optional_locked_keys, 'no locked keys in Free, as in extensions.svc')
    t.not(state.cartHash, '', 'a cart with lines has a hash')
    t.equal(state.cartHash, hash, 'cartHash is the Store API\'s Cart-Hash')
  })

  t.test('POST cart/remove-items: several lines in one go', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101, 2)
    await shopper.add(103)
    await shopper.add(106, 1, BLUE_LARGE)
    await shopper.add(107, 3)
    const before = await shopper.drawerCart()

    const response = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 106, 1062), keyOf(before, 101)] })
    t.equal(response.statusCode, 200, 'answers 200', { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS, 'the new cart state')
    t.same(linesOf(state), [[103, 0, 1], [107, 0, 3]], 'the other lines stay, in order')
    t.equal(state.cartCount, 4)
    t.equal(state.cartSubtotal, '7200')
    t.same(badMoney(state), [])

    const { cart, hash } = await shopper.storeCart()
    t.same(cart.items.map((item: Json) => item.id), [103, 107], 'the Store API sees the lines gone')
    t.equal(state.cartHash, hash, 'and the same cart hash')
    t.same(await shopper.drawerCart(), state, 'GET cart answers the same state')

    const last = await shopper.svc('POST', 'cart/remove-items', { keys: state.cartItems.map((item: Json) => item.key) })
    t.equal(last.statusCode, 200)
    t.same(last.json().cartItems, [], 'every line removed')
    t.equal(last.json().cartHash, '')
  })

  t.test('POST cart/remove-items: an invalid body is 400 svc_invalid_params with data.params', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    const before = await shopper.drawerCart()
    const good = keyOf(before, 101)

    const cases: Array<[string, unknown, string[]]> = [
      ['missing keys', {}, ['keys']],
      ['an empty array', { keys: [] }, ['keys']],
      ['101 keys', { keys: Array.from({ length: 101 }, (_, index) => absentKey(index + 1)) }, ['keys']],
      ['a duplicate key', { keys: [good, keyOf(before, 103), good] }, ['keys']],
      ['keys not an array of strings', { keys: { 0: good } }, ['keys']],
      ['a non-string key', { keys: [good, { key: good }] }, ['keys.1']],
      ['malformed keys (not 32 lower-case hex characters)', { keys: [good, 'not-a-key', good.toUpperCase(), `${good}0`, ''] }, ['keys.1', 'keys.2', 'keys.3', 'keys.4']],
      ['an unknown property', { keys: [good], force: true }, ['force']],
      ['a JSON array for a body', [good], ['body']]
    ]
    for (const [what, payload, params] of cases) {
      const response = await shopper.svc('POST', 'cart/remove-items', payload)
      expectError(t, response, 400, 'svc_invalid_params', what)
      t.same(Object.keys(errorData(response).params ?? {}).sort(), params, `${what}: data.params names ${params.join(', ')}`)
    }
    const hundred = await shopper.svc('POST', 'cart/remove-items', { keys: [good, ...Array.from({ length: 99 }, (_, index) => absentKey(index + 1))] })
    t.equal(hundred.statusCode, 409, '100 keys pass validation (and the unknown ones are refused as such)')
    t.equal(errorData(hundred).keys.length, 99, 'the 99 unknown keys listed')
    t.same(await shopper.drawerCart(), before, 'nothing was removed')
  })

  t.test('POST cart/remove-items: an unknown key among good ones is 409 svc_cart_invalid_key, nothing removed', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    await shopper.add(107)
    const before = await shopper.drawerCart()
    const unknown = absentKey(0xbad)

    const response = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 101), unknown, keyOf(before, 103)] })
    expectError(t, response, 409, 'svc_cart_invalid_key')
    const data = errorData(response)
    t.same(data.keys, [unknown], 'data.keys: the unknown key only')
    t.same(data.cart, before, 'data.cart: the cart as it stands')
    t.same(await shopper.drawerCart(), before, 'nothing was removed')
    t.same((await shopper.storeCart()).cart.items.map((item: Json) => item.id), [101, 103, 107], 'the Store API agrees')

    const removed = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 103)] })
    const again = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 101), keyOf(before, 103)] })
    expectError(t, again, 409, 'svc_cart_invalid_key', 'a key removed a moment ago')
    t.same(errorData(again).keys, [keyOf(before, 103)])
    t.same(errorData(again).cart, removed.json())

    const empty = await Shopper.guest(app)
    const none = await empty.svc('POST', 'cart/remove-items', { keys: [unknown] })
    expectError(t, none, 409, 'svc_cart_invalid_key', 'a key of an empty cart')
    t.same(errorData(none).cart.cartItems, [])
  })

  t.test('POST cart/remove-items: a locked line is 409 svc_cart_item_locked, nothing removed', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    await shopper.add(107)
    const unlocked = await shopper.drawerCart()
    const locked = keyOf(unlocked, 103)
    // The Pro edition's add-ons lock their lines through the platform's locks, which the drawer shows
    // (`optionalLockedKeys`) and the cart enforces; here the Cap (103) is locked in every cart.
    const removeLocks = app.shop.carts.addHook('lockedLines', (data: CartData) => new Set(data.lines.filter((line) => line.productId === 103).map((line) => line.key)))
    t.teardown(removeLocks)

    const before = await shopper.drawerCart()
    t.same(before.optionalLockedKeys, [locked], 'optionalLockedKeys names the locked line')
    t.match(before.cartItems.find((item: Json) => item.key === locked), { removable: false, quantityEditable: false })
    t.same((await shopper.storeCart()).cart.extensions.svc.optional_locked_keys, [locked], 'as extensions.svc does')

    const response = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 101), locked] })
    expectError(t, response, 409, 'svc_cart_item_locked')
    t.same(errorData(response).keys, [locked], 'data.keys: the locked key')
    t.same(errorData(response).cart, before, 'data.cart: the cart as it stands')
    t.same(await shopper.drawerCart(), before, 'nothing was removed')

    const alone = await shopper.svc('POST', 'cart/remove-items', { keys: [locked] })
    expectError(t, alone, 409, 'svc_cart_item_locked', 'the locked line alone')
    t.same(await shopper.drawerCart(), before, 'still nothing removed')

    const others = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(before, 101), keyOf(before, 107)] })
    t.equal(others.statusCode, 200, 'the unlocked lines can go')
    t.same(others.json().cartItems.map((item: Json) => item.key), [locked])
    t.same(others.json().optionalLockedKeys, [locked])
  })

  t.test('a logged-in shopper (Cart-Token, cookie and nonce) reads and changes the cart', async (t) => {
    const shopper = await Shopper.loggedIn(app, await login(app, USERS.shopper))
    await shopper.add(101)
    await shopper.add(104)
    const state = await shopper.drawerCart()
    t.same(linesOf(state), [[101, 0, 1], [104, 0, 1]])
    const response = await shopper.svc('POST', 'cart/remove-items', { keys: [keyOf(state, 104)] })
    t.equal(response.statusCode, 200, 'answers 200', { body: response.body })
    t.same(linesOf(response.json()), [[101, 0, 1]])
    const { cart, hash } = await shopper.storeCart()
    t.same(cart.items.map((item: Json) => item.id), [101])
    t.equal(response.json().cartHash, hash)
  })
})
