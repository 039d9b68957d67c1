import type { Test } from 'tap'
import { expectError, expectNoStore, login } from '../../../helpers/security.ts'
import {
  all, any, Clock, condition, configure, DAY, HOUR, keysOf, linesOf, newUser, onEveryBackend, Shopper, USD, type Json
} from './helpers.ts'

/**
 * The spotlight (design §3.7): one featured offer, shown in `GET drawer-data?fields=spotlight` while it
 * is enabled and its conditions hold for the cart, the visitor and the app's clock, and added by
 * `POST spotlight/add {product_id}`; anything else is 400 `svc_spotlight_unavailable`. The app's clock starts on
 * Wednesday 3 June 2026 at noon UTC. Sunglasses (104): 9000.
 */

const OFFER = { enabled: true, product_id: 104, title: 'Summer special', text: 'Polarised, for the beach.' }
const SUNGLASSES_CARD = {
  id: 104,
  name: 'Sunglasses',
  short_description: 'Polarised sunglasses.',
  prices: { price: '9000', regular_price: '9000', sale_price: '9000', on_sale: false },
  currency: USD
}

onEveryBackend('spotlight', async (t, pro) => {
  const { app, clock } = pro

  async function spotlight (t: Test, shopper: Shopper, what: string): Promise<Json | null> {
    const response = await shopper.svc('GET', 'drawer-data?fields=spotlight')
    t.equal(response.statusCode, 200, `${what}: drawer-data 200`, { body: response.body })
    const body = response.json()
    t.same(Object.keys(body), ['spotlight'], `${what}: only the spotlight section`)
    return body.spotlight
  }

  /** Offered (with the configured product) or not, and `spotlight/add` agreeing with it. */
  async function expectOffered (t: Test, shopper: Shopper, offered: boolean, what: string): Promise<void> {
    const offer = await spotlight(t, shopper, what)
    if (offered) {
      t.match(offer, { title: OFFER.title, product: { id: 104 } }, `${what}: offered`)
    } else {
      t.equal(offer, null, `${what}: not offered`)
      const before = await shopper.drawerCart()
      expectError(t, await shopper.svc('POST', 'spotlight/add', { product_id: 104 }), 400, 'svc_spotlight_unavailable', `${what}: add refused`)
      t.same(await shopper.drawerCart(), before, `${what}: the cart is unchanged`)
    }
  }

  t.test('the clock starts on a Wednesday', async (t) => {
    t.equal(clock.now().getUTCDay(), 3)
    t.equal(clock.now().toISOString(), Clock.START.toISOString())
  })

  t.test('switched off by default: no offer, and spotlight/add is 400', async (t) => {
    const shopper = await Shopper.guest(app)
    await expectOffered(t, shopper, false, 'defaults')
    await configure(t, app, { spotlight: { ...OFFER, enabled: false } })
    await expectOffered(t, shopper, false, 'configured but disabled')
    await configure(t, app, { spotlight: { ...OFFER, product_id: 0 } })
    await expectOffered(t, shopper, false, 'enabled without a product')
  })

  t.test('offered while enabled; spotlight/add adds the configured product, and only it', async (t) => {
    await configure(t, app, { spotlight: OFFER })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const offer = await spotlight(t, shopper, 'enabled')
    t.match(offer, { title: OFFER.title, text: OFFER.text, product: SUNGLASSES_CARD, in_cart: false })
    t.same(Object.keys(offer!), ['title', 'text', 'product', 'in_cart'])

    const before = await shopper.drawerCart()
    for (const [what, productId] of [['another product', 101], ['a product not in the shop', 99999], ['the hidden Gift Wrap', 116]] as Array<[string, number]>) {
      expectError(t, await shopper.svc('POST', 'spotlight/add', { product_id: productId }), 400, 'svc_spotlight_unavailable', what)
    }
    for (const [what, payload] of [
      ['no product_id', {}],
      ['product_id 0', { product_id: 0 }],
      ['product_id not a number', { product_id: 'sunglasses' }],
      ['an unknown property', { product_id: 104, quantity: 3 }]
    ] as Array<[string, unknown]>) {
      expectError(t, await shopper.svc('POST', 'spotlight/add', payload), 400, 'svc_invalid_params', what)
    }
    t.same(await shopper.drawerCart(), before, 'nothing was added')

    const response = await shopper.svc('POST', 'spotlight/add', { product_id: 104 })
    t.equal(response.statusCode, 200, { body: response.body })
    expectNoStore(t, response)
    const state = response.json()
    t.same(linesOf(state), [[101, 0, 1], [104, 0, 1]], 'the Sunglasses are added, quantity 1')
    t.same(state.optionalLockedKeys, [], 'an ordinary line: not locked')
    t.same(await shopper.drawerCart(), state)
    t.same((await shopper.storeCart()).cart.items.map((item: Json) => item.id), [101, 104], 'the Store API sees it')
    t.match(await spotlight(t, shopper, 'after adding'), { in_cart: true }, 'in_cart once it is in the cart')
    await shopper.remove(keysOf(state, 104)[0]!)
    t.match(await spotlight(t, shopper, 'removed again'), { in_cart: false })
  })

  t.test('a product that cannot be added with one click is never offered', async (t) => {
    const shopper = await Shopper.guest(app)
    for (const [what, productId] of [['hidden', 116], ['out of stock', 109], ['a draft', 114], ['variable', 106], ['a variation', 1061]] as Array<[string, number]>) {
      await configure(t, app, { spotlight: { ...OFFER, product_id: productId } })
      t.equal(await spotlight(t, shopper, what), null, `${what}: no offer`)
      expectError(t, await shopper.svc('POST', 'spotlight/add', { product_id: productId }), 400, 'svc_spotlight_unavailable', what)
    }
  })

  t.test('weekday conditions follow the app clock (UTC, 0 is Sunday)', async (t) => {
    t.teardown(() => clock.reset())
    const shopper = await Shopper.guest(app)
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('weekday', 'in', [3])) } })
    await expectOffered(t, shopper, true, 'in [Wednesday] on a Wednesday')
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('weekday', 'in', [0, 1, 2, 4, 5, 6])) } })
    await expectOffered(t, shopper, false, 'in every other day')
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('weekday', 'not_in', [3])) } })
    await expectOffered(t, shopper, false, 'not_in [Wednesday]')

    clock.set('2026-06-03T23:59:59.999Z')
    await expectOffered(t, shopper, false, 'not_in [Wednesday], the last millisecond of Wednesday')
    clock.advance(1)
    await expectOffered(t, shopper, true, 'not_in [Wednesday], Thursday midnight')
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('weekday', 'in', [4])) } })
    await expectOffered(t, shopper, true, 'in [Thursday]')
    clock.advance(3 * DAY)
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('weekday', 'in', [0, 6])) } })
    // A Cart-Token lives 48 hours on the same clock: a visitor of that Sunday.
    await expectOffered(t, await Shopper.guest(app), true, 'in [Sunday, Saturday] on Sunday')
  })

  t.test('date_range conditions follow the app clock, both ends inclusive', async (t) => {
    t.teardown(() => clock.reset())
    const shopper = await Shopper.guest(app)
    const from = new Date(Clock.START.getTime() - HOUR).toISOString()
    const to = new Date(Clock.START.getTime() + HOUR).toISOString()
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('date_range', 'between', { from, to })) } })
    await expectOffered(t, shopper, true, 'between, an hour either side')
    clock.set(to)
    await expectOffered(t, shopper, true, 'between, exactly at the end')
    clock.advance(1)
    await expectOffered(t, shopper, false, 'between, a millisecond after the end')
    clock.set(new Date(Date.parse(from) - 1))
    await expectOffered(t, shopper, false, 'between, a millisecond before the start')

    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('date_range', 'not_between', { from, to })) } })
    await expectOffered(t, shopper, true, 'not_between, before the range')
    clock.reset()
    await expectOffered(t, shopper, false, 'not_between, inside the range')

    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('date_range', 'between', { from: to })) } })
    await expectOffered(t, shopper, false, 'from only: not yet')
    clock.advance(HOUR)
    await expectOffered(t, shopper, true, 'from only: from then on')
    clock.advance(365 * DAY)
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('date_range', 'between', { to })) } })
    await expectOffered(t, await Shopper.guest(app), false, 'to only: over')
  })

  t.test('logged_in: the visitor of the cart session', async (t) => {
    const guest = await Shopper.guest(app)
    const shopper = await Shopper.loggedIn(app, await login(app, pro.shopper))
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('logged_in', 'is', true)) } })
    await expectOffered(t, guest, false, 'is true, a guest')
    await expectOffered(t, shopper, true, 'is true, a logged-in shopper')
    const added = await shopper.ok('POST', 'spotlight/add', { product_id: 104 })
    t.same(keysOf(added, 104).length, 1, 'the logged-in shopper adds it')

    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('logged_in', 'is', false)) } })
    await expectOffered(t, guest, true, 'is false, a guest')
    await expectOffered(t, shopper, false, 'is false, a logged-in shopper')
  })

  t.test('user_capability: the logged-in user\'s capabilities and roles', async (t) => {
    const guest = await Shopper.guest(app)
    const shopper = await Shopper.loggedIn(app, await login(app, pro.shopper))
    const admin = await Shopper.loggedIn(app, pro.admin)
    const vip = await Shopper.loggedIn(app, await login(app, await newUser(pro.storage, 'vip-shopper', ['read', 'vip'])))

    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('user_capability', 'has', 'manage_shop')) } })
    await expectOffered(t, guest, false, 'has manage_shop, a guest')
    await expectOffered(t, shopper, false, 'has manage_shop, a shopper')
    await expectOffered(t, admin, true, 'has manage_shop, the shop manager')
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('user_capability', 'has', 'vip')) } })
    await expectOffered(t, vip, true, 'has vip, a user with the vip role')
    await expectOffered(t, admin, false, 'has vip, the shop manager')
    await configure(t, app, { spotlight: { ...OFFER, conditions: all(condition('user_capability', 'has_not', 'manage_shop')) } })
    await expectOffered(t, guest, true, 'has_not manage_shop, a guest')
    await expectOffered(t, vip, true, 'has_not manage_shop, the vip')
    await expectOffered(t, admin, false, 'has_not manage_shop, the shop manager')
    const added = await admin.ok('GET', 'cart')
    t.same(added.cartItems, [], 'refusals changed nothing in the manager\'s cart')
  })

  t.test('groups mix visitor, time and cart facts', async (t) => {
    const conditions = any(
      all(condition('weekday', 'in', [0, 6]), condition('cart_item_count', 'gte', 1)),
      all(condition('logged_in', 'is', true), condition('cart_subtotal', 'gte', 2000))
    )
    await configure(t, app, { spotlight: { ...OFFER, conditions } })
    const guest = await Shopper.guest(app)
    await guest.add(103)
    await expectOffered(t, guest, false, 'a guest on a Wednesday')
    const who = await newUser(pro.storage, 'group-shopper', ['read'])
    const shopper = await Shopper.loggedIn(app, await login(app, who))
    await shopper.add(101)
    await expectOffered(t, shopper, false, 'logged in, 1800 in the cart')
    await shopper.add(118)
    await expectOffered(t, shopper, true, 'logged in, 2000 in the cart')
  })
})
