import type { Test } from 'tap'
import { expectNoStore } from '../../../helpers/security.ts'
import { adminRequest, configure, errorData, keysOf, onEveryBackend, Shopper, USD, type Json } from './helpers.ts'

/**
 * Reward tiers: thresholds set in the settings that the platform's totals apply — free shipping, a
 * percent or fixed discount listed as a system reward, a free gift as a locked line at zero — and that
 * `GET shipping-meter`, the drawer's cart state and the Store API report from one evaluation.
 * Demo prices (before 10 % tax): Beanie (101) 1800 on sale, Sticker Pack (117) 500, Guitar Pick (118) 200,
 * Gift Wrap (116) 300 (hidden from the catalog), Poster (114) a draft; flat-rate shipping 500.
 */

const NO_CONDITIONS = { match: 'all', conditions: [] }
const tier = (id: string, reward: string, threshold: number, extra: Json = {}): Json =>
  ({ id, label: `${id} label`, reward, threshold, amount: 0, product_id: 0, conditions: NO_CONDITIONS, ...extra })
const freeShipping = (threshold: number, extra: Json = {}) => tier('ship', 'free_shipping', threshold, extra)

const meter = (enabled: boolean, threshold: number, basis: number, remaining: number, progress: number, reached: boolean, measure = 'subtotal'): Json => ({
  enabled,
  measure,
  threshold: String(threshold),
  basis: String(basis),
  remaining: String(remaining),
  progress,
  reached,
  currency: USD
})

async function meterOf (t: Test, shopper: Shopper, what: string): Promise<Json> {
  const response = await shopper.svc('GET', 'shipping-meter')
  t.equal(response.statusCode, 200, `${what}: 200`, { body: response.body })
  expectNoStore(t, response, `${what}: no-store`)
  return response.json()
}

/** The meter, the drawer's state and the Store API's shipping, which must agree. */
async function shippingOf (t: Test, shopper: Shopper, what: string) {
  const [figures, drawer, { cart }] = await Promise.all([meterOf(t, shopper, what), shopper.drawerCart(), shopper.storeCart()])
  const tierState = (drawer.rewards?.tiers as Json[] | undefined)?.find((candidate) => candidate.kind === 'free_shipping')
  return { meter: figures, drawerReached: tierState?.reached ?? false, totalShipping: cart.totals.total_shipping as string, drawer, cart }
}

onEveryBackend('reward tiers', async (t, pro) => {
  const { app } = pro

  t.test('by default there is no tier: the meter is off and shipping is charged', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 20)
    const { meter: figures, totalShipping, drawer } = await shippingOf(t, shopper, 'default')
    t.same(figures, meter(false, 0, 0, 0, 0, false))
    t.equal(totalShipping, '500', 'no tier grants anything')
    t.equal(drawer.rewards, null, 'the drawer has no rewards to show')
  })

  t.test('a free-shipping tier: below, exactly at and above, and back below', async (t) => {
    await configure(t, app, { rewards: { tiers: [freeShipping(5000)] } })
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 9)
    let seen = await shippingOf(t, shopper, '4500')
    t.same(seen.meter, meter(true, 5000, 4500, 500, 0.9, false), 'below: 500 to go')
    t.equal(seen.totalShipping, '500', 'shipping is charged below the threshold')
    t.equal(seen.drawerReached, false)

    const [key] = keysOf(await shopper.drawerCart(), 117)
    await shopper.update(key!, 10)
    seen = await shippingOf(t, shopper, '5000')
    t.same(seen.meter, meter(true, 5000, 5000, 0, 1, true), 'exactly at the threshold counts as reached')
    t.equal(seen.totalShipping, '0', 'and the Store API ships free')
    t.equal(seen.drawerReached, true)
    t.same(seen.cart.shipping_rates[0].shipping_rates.find((rate: Json) => rate.selected).rate_id, 'free_shipping:1', 'the free rate is chosen')

    await shopper.update(key!, 9)
    seen = await shippingOf(t, shopper, 'back to 4500')
    t.same(seen.meter.reached, false, 'crossing back removes the reward')
    t.equal(seen.totalShipping, '500')
  })

  t.test('the basis: after discounts by default, before discounts or with tax when set, or the item count', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 10)
    await shopper.coupon('fiver')
    await configure(t, app, { rewards: { tiers: [freeShipping(5000)] } })
    t.same(await meterOf(t, shopper, 'after discounts'), meter(true, 5000, 4500, 500, 0.9, false), '5000 less the 500 coupon')
    await configure(t, app, { rewards: { after_discounts: false, tiers: [freeShipping(5000)] } })
    t.same(await meterOf(t, shopper, 'before discounts'), meter(true, 5000, 5000, 0, 1, true))
    t.equal((await shopper.storeCart()).cart.totals.total_shipping, '0')
    await configure(t, app, { rewards: { after_discounts: true, include_tax: true, tiers: [freeShipping(5000)] } })
    t.same(await meterOf(t, shopper, 'with tax'), meter(true, 5000, 4950, 50, 0.99, false), '4500 and its 450 of tax')
    await configure(t, app, { rewards: { basis: 'item_count', tiers: [freeShipping(12)] } })
    t.same(await meterOf(t, shopper, 'items'), meter(true, 12, 10, 2, 10 / 12, false, 'item_count'), '10 of 12 items')
    await shopper.add(118, 2)
    t.same(await meterOf(t, shopper, 'items reached'), meter(true, 12, 12, 0, 1, true, 'item_count'))
  })

  t.test('a free-shipping coupon reaches the meter without a tier; a chosen paid rate does not', async (t) => {
    await configure(t, app, { rewards: { tiers: [freeShipping(5000)] } })
    const shopper = await Shopper.guest(app)
    await shopper.add(118)
    await shopper.coupon('freeship')
    t.same(await meterOf(t, shopper, 'freeship'), meter(true, 5000, 200, 0, 1, true))
    const chosen = await shopper.storeRequest('POST', 'cart/select-shipping-rate', { package_id: 0, rate_id: 'flat_rate:1' })
    t.equal(chosen.statusCode, 200, 'the shopper picks the paid rate')
    const seen = await shippingOf(t, shopper, 'paid rate chosen')
    t.equal(seen.totalShipping, '500')
    t.equal(seen.meter.reached, false, 'the meter does not say free while shipping is charged')
    t.equal(seen.drawerReached, false)
  })

  t.test('a percent discount tier is a system reward in every view, applied after coupons', async (t) => {
    await configure(t, app, { rewards: { tiers: [tier('ten', 'percent_discount', 3000, { amount: 10, label: '10% off' })] } })
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 4)
    let { cart } = await shopper.storeCart()
    t.equal(cart.totals.total_discount, '0', 'below: no discount')
    await shopper.add(117, 2)
    ;({ cart } = await shopper.storeCart())
    t.equal(cart.totals.total_items, '3000')
    t.equal(cart.totals.total_discount, '300', '10 % of 3000')
    t.equal(cart.totals.total_price, String(2700 + 270 + 500 + 50), 'the total pays the discounted items, tax and shipping')
    t.same(cart.coupons.map((coupon: Json) => coupon.code), ['reward_ten'], 'listed with the coupons')
    const drawer = await shopper.drawerCart()
    t.same(drawer.coupons, [{ code: 'reward_ten', label: '10% off', isSystemReward: true, removable: false, discount: '300', discountTax: '30' }])
    t.same((cart.extensions.svc.coupons as Json[]).map((row) => [row.isSystemReward, row.removable]), [[true, false]], 'extensions.svc.coupons')
    t.equal(drawer.cartTotal, cart.totals.total_price, 'the drawer and the Store API agree')

    await shopper.coupon('fiver')
    ;({ cart } = await shopper.storeCart())
    t.equal(cart.totals.total_discount, '500', 'the coupon takes the basis (after discounts) to 2500: below the tier')
    t.same(cart.coupons.map((coupon: Json) => coupon.code), ['fiver'])
    await shopper.add(117)
    ;({ cart } = await shopper.storeCart())
    t.equal(cart.totals.total_discount, String(500 + 300), 'at 3500 less 500 the tier is back: 10 % of the 3000 the coupon left')
    t.same(cart.coupons.map((coupon: Json) => coupon.code), ['fiver', 'reward_ten'])
  })

  t.test('a gift tier adds a locked line at zero and takes it away below the threshold', async (t) => {
    await configure(t, app, { rewards: { tiers: [tier('wrap', 'gift', 2000, { product_id: 116, label: 'Free gift wrap' })] } })
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 3)
    t.same(keysOf(await shopper.drawerCart(), 116), [], 'below: no gift')
    await shopper.add(117, 1)
    const drawer = await shopper.drawerCart()
    const [giftKey] = keysOf(drawer, 116)
    t.ok(giftKey, 'reaching 2000 adds the gift line')
    const gift = (drawer.cartItems as Json[]).find((item) => item.key === giftKey)!
    t.same([gift.quantity, gift.totals.line_total, gift.removable, gift.quantityEditable], [1, '0', false, false], 'one, free, locked')
    t.ok(drawer.optionalLockedKeys.includes(giftKey), 'listed as locked')
    t.equal(drawer.cartSubtotal, '2000', 'the gift adds nothing to the subtotal')
    t.equal(drawer.rewards.tiers[0].reached, true)
    const removed = await shopper.storeRequest('POST', 'cart/remove-item', { key: giftKey })
    t.equal(removed.statusCode, 409, 'the shopper cannot remove the gift line', { body: removed.body })
    const viaSvc = await shopper.svc('POST', 'cart/remove-items', { keys: [giftKey] })
    t.equal(viaSvc.statusCode, 409, 'nor through svc/v1')

    const [stickers] = keysOf(drawer, 117)
    await shopper.update(stickers!, 3)
    const below = await shopper.drawerCart()
    t.same(keysOf(below, 116), [], 'dropping below removes the gift')
    t.equal(below.rewards.tiers[0].reached, false)
  })

  t.test('an order is priced as the cart: the reward discount, the free shipping and the gift at zero', async (t) => {
    await configure(t, app, {
      rewards: {
        tiers: [
          freeShipping(2000),
          tier('ten', 'percent_discount', 3000, { amount: 10, label: '10% off' }),
          tier('wrap', 'gift', 3000, { product_id: 116, label: 'Free gift wrap' })
        ]
      }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 6)
    const { cart } = await shopper.storeCart()
    t.same([cart.totals.total_shipping, cart.totals.total_discount], ['0', '300'], 'free shipping and 10 % off 3000')
    const address = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'Springfield', state: '', postcode: '12345', country: 'GB', phone: '' }
    const placed = await shopper.storeRequest('POST', 'checkout', { billing_address: { ...address, email: 'ada@example.com' }, shipping_address: address, payment_method: 'cod' })
    t.equal(placed.statusCode, 200, 'the order is placed', { body: placed.body })
    const order = await pro.storage.getOrder(placed.json().order_id)
    t.ok(order, 'stored')
    t.equal(order!.totals.totalPrice, Number(cart.totals.total_price), 'the order costs what the cart said')
    t.equal(order!.totals.totalShipping, 0)
    const gift = order!.lines.find((line) => line.productId === 116)
    t.same([gift?.quantity, gift?.total], [1, 0], 'the gift is in the order at zero')
    t.same((await pro.storage.getCoupon('reward_ten')), null, 'no coupon was created for the reward')
  })

  t.test('a tier whose conditions do not hold grants nothing', async (t) => {
    await configure(t, app, {
      rewards: { tiers: [freeShipping(1000, { conditions: { match: 'all', conditions: [{ type: 'logged_in', operator: 'is', value: true }] } })] }
    })
    const guest = await Shopper.guest(app)
    await guest.add(117, 4)
    const seen = await shippingOf(t, guest, 'guest')
    t.equal(seen.totalShipping, '500', 'a guest pays shipping')
    t.equal(seen.meter.reached, false)
    t.equal((seen.drawer.rewards.tiers as Json[])[0]!.reached, false)
  })

  t.test('bad tiers are refused with every problem listed, and nothing is saved', async (t) => {
    const before = await adminRequest(pro, 'GET', 'settings')
    const response = await adminRequest(pro, 'POST', 'settings', {
      settings: {
        rewards: {
          tiers: [
            freeShipping(1000),
            freeShipping(2000, { id: 'ship-2' }),
            tier('five', 'percent_discount', 3000, { amount: 10 }),
            tier('three', 'percent_discount', 4000, { amount: 5 }),
            tier('draft', 'gift', 5000, { product_id: 114 })
          ]
        }
      }
    })
    t.equal(response.statusCode, 400, 'refused', { body: response.body })
    t.equal(response.json().code, 'svc_invalid_params')
    const params = errorData(response).params as Json
    t.match(params['rewards.tiers.1.reward'], /one free-shipping tier/, 'a second free-shipping tier overlaps')
    t.match(params['rewards.tiers.3.amount'], /more than tier 3/, 'a higher tier giving less')
    t.match(params['rewards.tiers.4.product_id'], /cannot be given/, 'a draft is no gift')
    const unknownGift = await adminRequest(pro, 'POST', 'settings', { settings: { rewards: { tiers: [tier('x', 'gift', 10, { product_id: 999_999 })] } } })
    t.match((errorData(unknownGift).params as Json)['rewards.tiers.0.product_id'], /no product/, 'an unknown gift product')
    const after = await adminRequest(pro, 'GET', 'settings')
    t.same(after.json(), before.json(), 'nothing was saved')
  })
})
