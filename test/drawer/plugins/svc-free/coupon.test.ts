import { expectError, expectNoStore } from '../../../helpers/security.ts'
import { badMoney, DRAWER_STATE_KEYS, errorData, onEveryBackend, Shopper, type Json } from './helpers.ts'

/** `POST svc/v1/coupon` and `DELETE svc/v1/coupon` (specification §4.2–4.3; design §3.7). */

const codes = (state: Json): string[] => state.coupons.map((coupon: Json) => coupon.code)

onEveryBackend('POST coupon and DELETE coupon', async (t, { app }) => {
  t.test('apply: the code trimmed and compared case-insensitively; the answer is the new cart state with the discount', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101, 2)
    const response = await shopper.svc('POST', 'coupon', { code: '  SAVE10 ' })
    t.equal(response.statusCode, 200, 'applied', { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS, 'the drawer\'s cart state')
    t.same(badMoney(state), [])
    // 2 × 1800 = 3600; 10 % off = 360, tax on it 36.
    t.same(state.coupons, [{ code: 'save10', label: 'Coupon: save10', isSystemReward: false, removable: true, discount: '360', discountTax: '36' }])
    t.match(state, { cartSubtotal: '3600', cartDiscount: '360', cartTax: '374', cartTotal: '4114' })
    t.match(state.cartItems[0].totals, { line_subtotal: '3600', line_total: '3240' })

    const { cart, hash } = await shopper.storeCart()
    t.same(cart.coupons.map((coupon: Json) => coupon.code), ['save10'], 'the Store API cart has the coupon')
    t.equal(cart.totals.total_discount, '360')
    t.equal(cart.totals.total_price, state.cartTotal)
    t.equal(state.cartHash, hash, 'cartHash is the Store API\'s Cart-Hash')
    t.same(await shopper.drawerCart(), state, 'GET cart answers the same state')

    const second = await shopper.svc('POST', 'coupon', { code: 'fiver' })
    t.equal(second.statusCode, 200, 'a second coupon')
    t.same(codes(second.json()), ['save10', 'fiver'])
    t.equal(second.json().coupons[1].discount, '500')
  })

  t.test('applying a coupon twice is 409 svc_coupon_already_applied, whatever its case and spacing', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(103)
    t.equal((await shopper.svc('POST', 'coupon', { code: 'save10' })).statusCode, 200)
    const before = await shopper.drawerCart()
    for (const code of ['save10', ' Save10', 'SAVE10\t']) {
      const response = await shopper.svc('POST', 'coupon', { code })
      expectError(t, response, 409, 'svc_coupon_already_applied', JSON.stringify(code))
      t.match(response.json().message, /already (been )?applied/i, 'the message says why')
    }
    t.same(await shopper.drawerCart(), before, 'the cart is unchanged')
  })

  t.test('each coupon rule refuses with 400 svc_coupon_invalid, a message saying why and data.reason', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(103) // 1800: under big50's minimum spend of 5000
    const before = await shopper.drawerCart()
    const rules: Array<[string, string, string, RegExp]> = [
      ['an unknown code', 'no-such-coupon', 'not_found', /"no-such-coupon" does not exist/],
      ['an expired coupon', 'expired', 'expired', /expired/i],
      ['a coupon whose usage limit is reached', 'USEDUP', 'usage_limit', /usage limit/i],
      ['a cart under the minimum spend', ' big50 ', 'minimum_spend', /minimum spend for this coupon is \$50\.00/]
    ]
    for (const [what, code, reason, message] of rules) {
      const response = await shopper.svc('POST', 'coupon', { code })
      expectError(t, response, 400, 'svc_coupon_invalid', what)
      t.match(response.json().message, message, `${what}: the message says why`)
      t.equal(errorData(response).reason, reason, `${what}: data.reason ${reason}`)
    }
    t.same(await shopper.drawerCart(), before, 'no coupon was applied')
    t.same((await shopper.storeCart()).cart.coupons, [], 'the Store API agrees')

    await shopper.add(102) // 1800 + 5500 = 7300: over the minimum
    const applied = await shopper.svc('POST', 'coupon', { code: 'big50' })
    t.equal(applied.statusCode, 200, 'big50 applies once the minimum spend is met', { body: applied.body })
    t.same(codes(applied.json()), ['big50'])
    t.equal(applied.json().coupons[0].discount, '1500')
    t.equal(applied.json().cartDiscount, '1500')
  })

  t.test('remove: trimmed and case-insensitive; the answer is the cart state without the discount', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101, 2)
    const plain = await shopper.drawerCart()
    t.equal((await shopper.svc('POST', 'coupon', { code: 'save10' })).statusCode, 200)
    t.equal((await shopper.svc('POST', 'coupon', { code: 'fiver' })).statusCode, 200)

    const response = await shopper.svc('DELETE', 'coupon', { code: ' SAVE10 ' })
    t.equal(response.statusCode, 200, 'removed', { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(Object.keys(state), DRAWER_STATE_KEYS)
    t.same(codes(state), ['fiver'], 'the other coupon stays')
    t.equal(state.cartDiscount, '500')

    const last = await shopper.svc('DELETE', 'coupon', { code: 'Fiver' })
    t.equal(last.statusCode, 200)
    t.same(last.json(), plain, 'back to the cart without coupons')
    const { cart, hash } = await shopper.storeCart()
    t.same(cart.coupons, [], 'the Store API cart has none')
    t.equal(last.json().cartHash, hash)
  })

  t.test('removing a coupon that is not applied is 404 svc_coupon_not_applied', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    t.equal((await shopper.svc('POST', 'coupon', { code: 'fiver' })).statusCode, 200)
    const before = await shopper.drawerCart()
    for (const [what, code] of [['an existing coupon not in the cart', 'save10'], ['an unknown code', 'no-such-coupon']]) {
      const response = await shopper.svc('DELETE', 'coupon', { code })
      expectError(t, response, 404, 'svc_coupon_not_applied', what!)
      t.match(response.json().message, /not already applied/, `${what}: the message says why`)
    }
    t.same(await shopper.drawerCart(), before, 'the applied coupon stays')

    const empty = await Shopper.guest(app)
    expectError(t, await empty.svc('DELETE', 'coupon', { code: 'fiver' }), 404, 'svc_coupon_not_applied', 'an empty cart')
  })

  t.test('an invalid body is 400 svc_invalid_params naming the field, on both methods', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const before = await shopper.drawerCart()
    const cases: Array<[string, unknown, string[]]> = [
      ['an empty code', { code: '' }, ['code']],
      ['a blank code', { code: ' \t ' }, ['code']],
      ['a missing code', {}, ['code']],
      ['a code that is not a string', { code: { value: 'save10' } }, ['code']],
      ['a code of 201 characters', { code: 'x'.repeat(201) }, ['code']],
      ['an extra property', { code: 'save10', auto: true }, ['auto']],
      ['a JSON array for a body', ['save10'], ['body']]
    ]
    for (const method of ['POST', 'DELETE'] as const) {
      for (const [what, payload, params] of cases) {
        const response = await shopper.svc(method, 'coupon', payload)
        expectError(t, response, 400, 'svc_invalid_params', `${method}: ${what}`)
        t.same(Object.keys(errorData(response).params ?? {}).sort(), params, `${method}: ${what}: data.params names ${params.join(', ')}`)
      }
      const none = await shopper.svc(method, 'coupon')
      t.equal(none.statusCode, 400, `${method}: no body at all is a 400`)
    }
    t.same(await shopper.drawerCart(), before, 'the cart is unchanged')
  })
})
