import type { Test } from 'tap'
import { expectError, expectNoStore, login } from '../../../helpers/security.ts'
import {
  all, condition, configure, DAY, errorData, keysOf, linesOf, loginWithCart, newUser, onEveryBackend, Shopper, USD, type Json
} from './helpers.ts'

/**
 * `GET svc/v1/smart-addons` and `POST svc/v1/smart-addons/toggle` (design §3.7): add-ons offered while
 * their conditions hold, added as locked lines (`optional_locked_keys` / `optionalLockedKeys`) that only the toggle
 * changes, and removed on the next cart change once their conditions stop holding or the add-ons are switched off.
 * Demo prices: Beanie (101) 1800, Belt (102) 5500, Cap (103) 1800, Sunglasses (104) 9000, Long Sleeve Tee (108)
 * 2500, Gift Wrap (116, hidden) 300, Sticker Pack (117) 500, Guitar Pick (118) 200.
 */

const GIFT_WRAP = {
  id: 'gift-wrap',
  product_id: 116,
  label: 'Gift wrap',
  description: 'Wrapped in recycled paper.',
  conditions: all(condition('cart_subtotal', 'gte', 3000))
}
const EXTRA_CAP = {
  id: 'extra-cap',
  product_id: 103,
  label: 'A second cap',
  description: '',
  conditions: all(condition('product_in_cart', 'contains_any', [101]))
}
const STICKERS = { id: 'stickers', product_id: 117, label: 'Stickers', description: 'Always offered.', conditions: all() }
const NEVER = { id: 'never', product_id: 104, label: 'Never', description: '', conditions: all(condition('cart_item_count', 'gt', 1000)) }
const ADDONS = [GIFT_WRAP, EXTRA_CAP, STICKERS, NEVER]

/** The product card of an add-on's product, as `GET smart-addons` shows it. */
const GIFT_WRAP_CARD = {
  id: 116,
  name: 'Gift Wrap',
  short_description: 'Hidden from the catalog; added from the cart.',
  prices: { price: '300', regular_price: '300', sale_price: '300', on_sale: false },
  currency: USD
}

const ids = (list: Json[]): string[] => list.map((addon) => addon.id)
const offered = (list: Json[], id: string): Json | undefined => list.find((addon) => addon.id === id)

onEveryBackend('smart add-ons', async (t, pro) => {
  const { app } = pro

  async function list (t: Test, shopper: Shopper, what = 'GET smart-addons'): Promise<Json[]> {
    const response = await shopper.svc('GET', 'smart-addons')
    t.equal(response.statusCode, 200, `${what}: 200`, { body: response.body })
    expectNoStore(t, response, `${what}: no-store`)
    return response.json()
  }

  async function toggle (shopper: Shopper, addonId: string, active: boolean) {
    return shopper.svc('POST', 'smart-addons/toggle', { addon_id: addonId, active })
  }

  async function toggled (t: Test, shopper: Shopper, addonId: string, active: boolean): Promise<Json> {
    const response = await toggle(shopper, addonId, active)
    t.equal(response.statusCode, 200, `toggle ${addonId} ${String(active)}: 200`, { body: response.body })
    expectNoStore(t, response, `toggle ${addonId}: no-store`)
    return response.json()
  }

  t.test('GET smart-addons: only the add-ons whose conditions hold, in settings order, with active and key', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    t.same(ids(await list(t, shopper, 'empty cart')), ['stickers'], 'empty cart: only the add-on without conditions')

    await shopper.add(102)
    const withBelt = await list(t, shopper, 'Belt')
    t.same(ids(withBelt), ['gift-wrap', 'stickers'], 'subtotal 5500: gift wrap too')
    t.match(offered(withBelt, 'gift-wrap'), {
      id: 'gift-wrap',
      label: 'Gift wrap',
      description: 'Wrapped in recycled paper.',
      product: GIFT_WRAP_CARD,
      active: false,
      key: null
    }, 'the add-on with its product card (a hidden product may be an add-on)')
    t.same(Object.keys(offered(withBelt, 'gift-wrap')!), ['id', 'label', 'description', 'product', 'active', 'key'])

    await shopper.add(101)
    t.same(ids(await list(t, shopper, 'Belt and Beanie')), ['gift-wrap', 'extra-cap', 'stickers'], 'the Beanie brings the extra cap')
    const data = await shopper.ok('GET', 'drawer-data?fields=smart_addons')
    t.same(data, { smart_addons: await list(t, shopper) }, 'drawer-data?fields=smart_addons answers the same list')

    await configure(t, app, { smart_addons: { addons: [] } })
    t.same(await list(t, shopper, 'none configured'), [], 'no add-ons configured: an empty list')
  })

  t.test('toggle on: a locked line of its own, shown in optional_locked_keys and optionalLockedKeys', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    const before = await shopper.drawerCart()
    const [ownCap] = keysOf(before, 103)
    t.same(before.optionalLockedKeys, [], 'nothing locked yet')

    const state = await toggled(t, shopper, 'extra-cap', true)
    t.same(linesOf(state), [[101, 0, 1], [103, 0, 1], [103, 0, 1]], 'a second Cap line: the add-on never merges with the shopper\'s own')
    const addonKey = keysOf(state, 103).find((key) => key !== ownCap)!
    t.ok(addonKey, 'the add-on line has a key of its own')
    t.same(state.optionalLockedKeys, [addonKey], 'optionalLockedKeys: the add-on line only')
    t.match(state.cartItems.find((item: Json) => item.key === addonKey), { removable: false, quantityEditable: false })
    t.match(state.cartItems.find((item: Json) => item.key === ownCap), { removable: true, quantityEditable: true })
    t.equal(state.cartSubtotal, '5400')
    t.same(await shopper.drawerCart(), state, 'GET cart answers the same state')

    const store = (await shopper.storeCart()).cart
    t.same(store.extensions.svc.optional_locked_keys, [addonKey], 'extensions.svc.optional_locked_keys (Store API)')
    const storeItem = (key: string) => store.items.find((item: Json) => item.key === key)
    t.match(storeItem(addonKey).extensions.svc, { removable: false, quantityEditable: false })
    t.match(storeItem(ownCap!).extensions.svc, { removable: true })

    const listed = offered(await list(t, shopper), 'extra-cap')!
    t.same([listed.active, listed.key], [true, addonKey], 'GET smart-addons: active, with the line\'s key')
    t.same([offered(await list(t, shopper), 'stickers')!.active], [false])

    t.same(linesOf(await toggled(t, shopper, 'extra-cap', true)), linesOf(state), 'toggling on again keeps one line, quantity 1')
    t.same(await shopper.drawerCart(), state)
  })

  t.test('a locked line refuses quantity updates and removal (Store API and remove-items): 409, cart unchanged', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    const [ownCap] = keysOf(await shopper.drawerCart(), 103)
    const state = await toggled(t, shopper, 'extra-cap', true)
    const addonKey = state.optionalLockedKeys[0] as string
    const storeBefore = (await shopper.storeCart()).cart

    const storeRefusal = async (path: string, body: Json, what: string) => {
      const response = await shopper.storeRequest('POST', path, body)
      t.equal(response.statusCode, 409, `${what}: 409`, { body: response.body })
      const error = response.json()
      t.equal(error.code, 'svc_cart_item_locked', `${what}: svc_cart_item_locked`)
      t.same(error.data.keys, [addonKey], `${what}: data.keys names the locked line`)
      t.same(error.data.cart.items, storeBefore.items, `${what}: data.cart is the cart as it stands`)
      t.same((await shopper.storeCart()).cart, storeBefore, `${what}: the cart is unchanged`)
    }
    await storeRefusal('cart/update-item', { key: addonKey, quantity: 2 }, 'Store API update-item')
    await storeRefusal('cart/update-item', { key: addonKey, quantity: 1 }, 'Store API update-item to the same quantity')
    await storeRefusal('cart/remove-item', { key: addonKey }, 'Store API remove-item')

    for (const keys of [[addonKey], [ownCap, addonKey]]) {
      const what = `svc remove-items ${keys.length === 1 ? 'of the add-on' : 'of a normal line and the add-on'}`
      const response = await shopper.svc('POST', 'cart/remove-items', { keys })
      expectError(t, response, 409, 'svc_cart_item_locked', what)
      t.same(errorData(response).keys, [addonKey], `${what}: data.keys`)
      t.same(errorData(response).cart, state, `${what}: data.cart is the drawer state as it stands`)
      t.same(await shopper.drawerCart(), state, `${what}: nothing removed`)
    }

    const updated = await shopper.update(ownCap!, 2)
    t.same(updated.items.map((item: Json) => [item.id, item.quantity]), [[101, 1], [103, 2], [103, 1]], 'the shopper\'s own Cap line still changes')
    t.same(updated.extensions.svc.optional_locked_keys, [addonKey], 'and the add-on stays, locked')
  })

  t.test('toggle off removes the line (only it); off again is harmless', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.add(103)
    const before = await shopper.drawerCart()
    await toggled(t, shopper, 'extra-cap', true)
    await toggled(t, shopper, 'stickers', true)
    const off = await toggled(t, shopper, 'extra-cap', false)
    t.same(linesOf(off), [[101, 0, 1], [103, 0, 1], [117, 0, 1]], 'the extra cap is gone, the stickers stay')
    t.equal(off.optionalLockedKeys.length, 1)
    const stickersOff = await toggled(t, shopper, 'stickers', false)
    t.same(stickersOff, before, 'back to the cart before the add-ons')
    t.same(await toggled(t, shopper, 'stickers', false), before, 'off again: 200, nothing changes')
    t.same((await shopper.storeCart()).cart.extensions.svc.optional_locked_keys, [])
  })

  t.test('refusals: unknown add-on 404, conditions not holding 400, an invalid body 400; nothing changes', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    await shopper.add(103)
    const before = await shopper.drawerCart()

    expectError(t, await toggle(shopper, 'no-such-addon', true), 404, 'svc_addon_not_found', 'unknown add-on')
    expectError(t, await toggle(shopper, 'no-such-addon', false), 404, 'svc_addon_not_found', 'unknown add-on, toggled off')
    expectError(t, await toggle(shopper, 'gift-wrap', true), 400, 'svc_addon_unavailable', 'subtotal 1800 < 3000')
    expectError(t, await toggle(shopper, 'extra-cap', true), 400, 'svc_addon_unavailable', 'no Beanie in the cart')
    expectError(t, await toggle(shopper, 'never', true), 400, 'svc_addon_unavailable', 'a condition that never holds')
    for (const [what, payload] of [
      ['no addon_id', { active: true }],
      ['an empty addon_id', { addon_id: '', active: true }],
      ['active not a boolean', { addon_id: 'stickers', active: 'yes' }],
      ['an unknown property', { addon_id: 'stickers', active: true, quantity: 2 }]
    ] as Array<[string, unknown]>) {
      expectError(t, await shopper.svc('POST', 'smart-addons/toggle', payload), 400, 'svc_invalid_params', what)
    }
    t.same(await shopper.drawerCart(), before, 'the cart is unchanged')
  })

  t.test('an add-on whose conditions stop holding goes on the next cart change; its own price never counts', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })

    t.test('removing a line (Store API remove-item)', async (t) => {
      const shopper = await Shopper.guest(app)
      await shopper.add(108)
      await shopper.add(118)
      await shopper.add(117)
      const on = await toggled(t, shopper, 'gift-wrap', true)
      t.same(linesOf(on), [[108, 0, 1], [118, 0, 1], [117, 0, 1], [116, 0, 1]], '3200: the gift wrap is added')
      const cart = await shopper.remove(keysOf(on, 117)[0]!)
      t.same(cart.items.map((item: Json) => item.id), [108, 118], '2700 (3000 with the wrap itself): the wrap is removed in the same response')
      t.same(cart.extensions.svc.optional_locked_keys, [])
      t.same(linesOf(await shopper.drawerCart()), [[108, 0, 1], [118, 0, 1]], 'and stays removed')
      expectError(t, await toggle(shopper, 'gift-wrap', true), 400, 'svc_addon_unavailable', 'the wrap cannot lift the subtotal to its own threshold')
    })

    t.test('lowering a quantity (Store API update-item)', async (t) => {
      const shopper = await Shopper.guest(app)
      await shopper.add(101, 2)
      await toggled(t, shopper, 'gift-wrap', true)
      const [beanie] = keysOf(await shopper.drawerCart(), 101)
      const cart = await shopper.update(beanie!, 1)
      t.same(cart.items.map((item: Json) => [item.id, item.quantity]), [[101, 1]], '1800: the wrap is gone')
    })

    t.test('a coupon (Store API apply-coupon) and the svc remove-items route', async (t) => {
      const shopper = await Shopper.guest(app)
      await shopper.add(108)
      await shopper.add(118)
      await shopper.add(117)
      await toggled(t, shopper, 'gift-wrap', true)
      const cart = await shopper.coupon('save10')
      t.same(cart.items.map((item: Json) => item.id), [108, 118, 117], '3200 less 10 % is 2880: the wrap is gone')

      const other = await Shopper.guest(app)
      await other.add(101)
      await other.add(102)
      await toggled(t, other, 'extra-cap', true)
      const state = await toggled(t, other, 'gift-wrap', true)
      t.same(linesOf(state), [[101, 0, 1], [102, 0, 1], [103, 0, 1], [116, 0, 1]])
      const removed = await other.ok('POST', 'cart/remove-items', { keys: keysOf(state, 101) })
      t.same(linesOf(removed), [[102, 0, 1], [116, 0, 1]], 'without the Beanie the extra cap goes; the wrap (5500) stays')
      t.same(removed.optionalLockedKeys, keysOf(removed, 116))
    })

    t.test('a fixed-cart coupon shared with the add-on line does not keep the add-on', async (t) => {
      // Threshold 2820. Long Sleeve Tee 2500 + 4 Guitar Picks 800 + Sticker Pack 500, less $5: 3300 → the wrap is
      // added. Without the Sticker Pack: 3300 less $5 is 2800. Were the $5 shared with the wrap line, the other
      // lines would keep about 2842, and the wrap would hold itself up through its share of the discount.
      await configure(t, app, { smart_addons: { addons: [{ ...GIFT_WRAP, conditions: all(condition('cart_subtotal', 'gte', 2820)) }] } })
      const shopper = await Shopper.guest(app)
      await shopper.add(108)
      await shopper.add(118, 4)
      await shopper.add(117)
      await shopper.coupon('fiver')
      const on = await toggled(t, shopper, 'gift-wrap', true)
      t.same(keysOf(on, 116).length, 1, 'the wrap is added at 3300')
      const cart = await shopper.remove(keysOf(on, 117)[0]!)
      t.same(cart.items.map((item: Json) => item.id), [108, 118], '2800 after the coupon: the wrap is removed')
    })
  })

  t.test('a time condition that stops holding: the add-on goes on the next change', async (t) => {
    t.teardown(() => pro.clock.reset())
    await configure(t, app, {
      smart_addons: { addons: [{ id: 'midweek', product_id: 117, label: 'Midweek stickers', description: '', conditions: all(condition('weekday', 'in', [3])) }] }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await toggled(t, shopper, 'midweek', true)
    pro.clock.advance(DAY)
    t.same(await list(t, shopper, 'Thursday'), [], 'no longer offered on Thursday')
    t.same(keysOf(await shopper.drawerCart(), 117).length, 1, 'the line stays until the cart changes')
    const cart = await shopper.add(103)
    t.same(cart.items.map((item: Json) => item.id), [101, 103], 'the next change removes it')
  })

  t.test('switched off in the settings: an empty list, and the lines go on the next change', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const shopper = await Shopper.guest(app)
    await shopper.add(102)
    await toggled(t, shopper, 'gift-wrap', true)
    const state = await toggled(t, shopper, 'stickers', true)
    t.same(linesOf(state), [[102, 0, 1], [116, 0, 1], [117, 0, 1]])

    await configure(t, app, { smart_addons: { enabled: false } })
    t.same(await list(t, shopper, 'switched off'), [], 'GET smart-addons: empty')
    t.same(await shopper.ok('GET', 'drawer-data?fields=smart_addons'), { smart_addons: [] })
    t.same(linesOf(await shopper.drawerCart()), linesOf(state), 'the lines stay until the cart changes')
    expectError(t, await toggle(shopper, 'stickers', true), 404, 'svc_addon_not_found', 'toggling on a switched-off add-on')

    const cart = await shopper.add(118)
    t.same(cart.items.map((item: Json) => item.id), [102, 118], 'the next change (Store API add-item) removes every add-on line')
    t.same(cart.extensions.svc.optional_locked_keys, [])

    await configure(t, app, { smart_addons: { enabled: true, addons: ADDONS } })
    await toggled(t, shopper, 'stickers', true)
    await configure(t, app, { smart_addons: { addons: [GIFT_WRAP] } })
    const [pick] = keysOf(await shopper.drawerCart(), 118)
    const after = await shopper.update(pick!, 2)
    t.same(after.items.map((item: Json) => item.id), [102, 118], 'an add-on taken out of the settings goes on the next change too')

    await configure(t, app, { smart_addons: { addons: ADDONS } })
    await toggled(t, shopper, 'stickers', true)
    await configure(t, app, { smart_addons: { addons: [GIFT_WRAP] } })
    const off = await toggled(t, shopper, 'stickers', false)
    t.same(linesOf(off), [[102, 0, 1], [118, 0, 2]], 'the line of an add-on taken out of the settings can still be toggled off')
  })

  t.test('every cart condition type through a real add-on: the facts come from the cart, add-on lines left out', async (t) => {
    const addon = (id: string, conditions: Json) => ({ id, product_id: 116, label: id, description: '', conditions })
    await configure(t, app, {
      smart_addons: {
        addons: [
          addon('subtotal-lt', all(condition('cart_subtotal', 'lt', 2000))),
          addon('three-items', all(condition('cart_item_count', 'gte', 3))),
          addon('hoodie-blue-large', all(condition('product_in_cart', 'contains_all', [106, 1062]))),
          addon('no-polo', all(condition('product_in_cart', 'contains_none', [109]), condition('cart_item_count', 'gt', 0))),
          addon('music', all(condition('category_in_cart', 'contains_any', [3]))),
          addon('clothes-and-music', all(condition('category_in_cart', 'contains_all', [1, 3]))),
          addon('accessories', all(condition('category_in_cart', 'contains_any', [2]))),
          addon('sticker-in-cart', all(condition('product_in_cart', 'contains_any', [117]))),
          addon('big-or-music', { match: 'any', conditions: [condition('cart_subtotal', 'gte', 100_000), all(condition('category_in_cart', 'contains_any', [3]), condition('cart_item_count', 'eq', 1))] }),
          { id: 'stickers', product_id: 117, label: 'Stickers', description: '', conditions: all() }
        ]
      }
    })
    const listed = async (shopper: Shopper) => ids(await list(t, shopper)).filter((id) => id !== 'stickers')

    const empty = await Shopper.guest(app)
    t.same(await listed(empty), ['subtotal-lt'], 'empty cart: subtotal 0 < 2000 only')
    await toggled(t, empty, 'stickers', true)
    t.same(await listed(empty), ['subtotal-lt'], 'an add-on line counts for no fact: not the item count, product, category or subtotal')

    const album = await Shopper.guest(app)
    await album.add(112)
    t.same(await listed(album), ['subtotal-lt', 'no-polo', 'music', 'big-or-music'], 'the Album (music, 1500): one item')
    await album.add(107, 2)
    t.same(await listed(album), ['three-items', 'no-polo', 'music', 'clothes-and-music'], 'two T-shirts more: 5100, three items, clothing and music')

    const hoodie = await Shopper.guest(app)
    await hoodie.add(1062)
    t.same(await listed(hoodie), ['hoodie-blue-large', 'no-polo'], 'a variation: both the variable product and the variation are in the cart; its parent\'s category (clothing)')
    await hoodie.add(117)
    t.same(await listed(hoodie), ['hoodie-blue-large', 'no-polo', 'accessories', 'sticker-in-cart'], 'a Sticker Pack added by the shopper counts')
  })

  t.test('logging in: the guest\'s add-on line joins the saved cart still a locked add-on line, never doubled', async (t) => {
    await configure(t, app, { smart_addons: { addons: ADDONS } })
    const who = await newUser(pro.storage, 'merging-shopper', ['read'])
    const earlier = await Shopper.loggedIn(app, await login(app, who))
    await earlier.add(101)
    await toggled(t, earlier, 'stickers', true)

    const guest = await Shopper.guest(app)
    await guest.add(102)
    await toggled(t, guest, 'stickers', true)
    await toggled(t, guest, 'gift-wrap', true)
    const merged = await Shopper.loggedIn(app, await loginWithCart(app, who, guest.token))
    const state = await merged.drawerCart()
    t.same(linesOf(state), [[101, 0, 1], [117, 0, 1], [102, 0, 1], [116, 0, 1]], 'the saved cart with the guest\'s lines; one sticker add-on line')
    t.same(state.optionalLockedKeys, [...keysOf(state, 117), ...keysOf(state, 116)], 'both add-on lines are still locked')
    const store = (await merged.storeCart()).cart
    t.same(store.extensions.svc.optional_locked_keys, state.optionalLockedKeys)
    const refused = await merged.storeRequest('POST', 'cart/remove-item', { key: keysOf(state, 116)[0] })
    t.equal(refused.statusCode, 409, 'the merged add-on line still refuses removal')
    t.same(ids((await list(t, merged)).filter((addon) => addon.active)), ['gift-wrap', 'stickers'], 'GET smart-addons: both active')
    const off = await toggled(t, merged, 'gift-wrap', false)
    t.same(linesOf(off), [[101, 0, 1], [117, 0, 1], [102, 0, 1]], 'and is toggled off as an add-on')
  })

  t.test('a visitor condition holds on later changes made by the same logged-in visitor', async (t) => {
    await configure(t, app, {
      smart_addons: { addons: [{ id: 'members', product_id: 117, label: 'Members\' stickers', description: '', conditions: all(condition('logged_in', 'is', true)) }] }
    })
    const guest = await Shopper.guest(app)
    await guest.add(101)
    t.same(ids(await list(t, guest)), [], 'not offered to a guest')
    expectError(t, await toggle(guest, 'members', true), 400, 'svc_addon_unavailable', 'a guest')

    const member = await Shopper.loggedIn(app, await login(app, pro.shopper))
    await member.add(101)
    t.same(ids(await list(t, member)), ['members'], 'offered to a logged-in shopper')
    await toggled(t, member, 'members', true)
    const cart = await member.add(103)
    t.same(cart.items.map((item: Json) => item.id), [101, 117, 103], 'the add-on stays through the shopper\'s next change')
  })
})
