import type { Test } from 'tap'
import { expectNoStore } from '../../helpers/security.ts'
import { configure, keysOf, onEveryBackend, Shopper, USD, type Json } from './helpers.ts'

/**
 * `GET svc/v1/shipping-meter` (issue 7 §2; design §3.7): the threshold from the settings, the basis the cart's subtotal
 * after discounts (before tax and shipping), `remaining`, `progress` 0–1, `reached` from the threshold on (exactly at
 * it included) or with a free-shipping coupon; money as strings of minor units with the currency block.
 * Demo prices: Beanie (101) 1800 on sale, Sticker Pack (117) 500, Guitar Pick (118) 200.
 */

const meter = (enabled: boolean, threshold: number, basis: number, remaining: number, progress: number, reached: boolean): Json => ({
  enabled,
  threshold: String(threshold),
  basis: String(basis),
  remaining: String(remaining),
  progress,
  reached,
  currency: USD
})

onEveryBackend('GET shipping-meter', async (t, { app }) => {
  const meterOf = async (t: Test, shopper: Shopper, what: string) => {
    const response = await shopper.svc('GET', 'shipping-meter')
    t.equal(response.statusCode, 200, `${what}: 200`, { body: response.body })
    expectNoStore(t, response, `${what}: no-store`)
    return response.json()
  }

  t.test('defaults: enabled, threshold 5000; an empty cart is 0 of 5000', async (t) => {
    const shopper = await Shopper.guest(app)
    t.same(await meterOf(t, shopper, 'empty cart'), meter(true, 5000, 0, 5000, 0, false))
  })

  t.test('below, exactly at and above the threshold', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 9)
    t.same(await meterOf(t, shopper, '4500'), meter(true, 5000, 4500, 500, 0.9, false), 'below: 500 to go')
    const [key] = keysOf(await shopper.drawerCart(), 117)
    await shopper.update(key!, 10)
    t.same(await meterOf(t, shopper, '5000'), meter(true, 5000, 5000, 0, 1, true), 'exactly at the threshold counts as reached')
    await shopper.update(key!, 11)
    t.same(await meterOf(t, shopper, '5500'), meter(true, 5000, 5500, 0, 1, true), 'above: remaining 0, progress capped at 1')
    await shopper.add(118)
    t.same(await meterOf(t, shopper, '5700'), meter(true, 5000, 5700, 0, 1, true))
  })

  t.test('the basis is the subtotal after discounts (coupons applied through the Store API), before tax', async (t) => {
    const percent = await Shopper.guest(app)
    await percent.add(101)
    await percent.coupon('save10')
    t.same(await meterOf(t, percent, 'save10'), meter(true, 5000, 1620, 3380, 0.324, false), '1800 less 10 %')

    const fixed = await Shopper.guest(app)
    await fixed.add(117, 10)
    t.same((await meterOf(t, fixed, '5000 before the coupon')).reached, true)
    await fixed.coupon('fiver')
    t.same(await meterOf(t, fixed, '5000 less 500'), meter(true, 5000, 4500, 500, 0.9, false), 'a coupon can take the cart back below')
    await fixed.add(117)
    t.same(await meterOf(t, fixed, '5500 less 500'), meter(true, 5000, 5000, 0, 1, true), 'exactly at the threshold after the discount')
    const store = (await fixed.storeCart()).cart
    t.equal(store.totals.total_tax, '550', 'tax is charged (and not counted in the basis)')
  })

  t.test('the threshold comes from the settings', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.coupon('save10')

    await configure(t, app, { shipping_meter: { threshold: 1620 } })
    t.same(await meterOf(t, shopper, 'threshold 1620'), meter(true, 1620, 1620, 0, 1, true), 'exactly at a configured threshold')
    await configure(t, app, { shipping_meter: { threshold: 1621 } })
    t.same(await meterOf(t, shopper, 'threshold 1621'), meter(true, 1621, 1620, 1, 1620 / 1621, false), 'one cent short')
    await configure(t, app, { shipping_meter: { threshold: 0 } })
    t.same(await meterOf(t, shopper, 'threshold 0'), meter(true, 0, 1620, 0, 1, true), 'a threshold of 0: always free')
    const empty = await Shopper.guest(app)
    t.same(await meterOf(t, empty, 'threshold 0, empty cart'), meter(true, 0, 0, 0, 1, true))
  })

  t.test('a free-shipping coupon reaches the goal whatever the basis', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(118)
    t.same((await meterOf(t, shopper, 'before')).reached, false)
    const cart = await shopper.coupon('freeship')
    t.equal(cart.totals.total_shipping, '0', 'the Store API waives shipping')
    t.same(await meterOf(t, shopper, 'freeship'), meter(true, 5000, 200, 0, 1, true))
    const removed = await shopper.storeRequest('POST', 'cart/remove-coupon', { code: 'freeship' })
    t.equal(removed.statusCode, 200)
    t.same(await meterOf(t, shopper, 'coupon removed'), meter(true, 5000, 200, 4800, 0.04, false))
  })

  t.test('enabled follows the settings; drawer-data answers the same section', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.add(117, 2)
    const on = await meterOf(t, shopper, 'enabled')
    t.same(on, meter(true, 5000, 1000, 4000, 0.2, false))
    t.same((await shopper.ok('GET', 'drawer-data?fields=shipping_meter')).shipping_meter, on, 'drawer-data?fields=shipping_meter')

    await configure(t, app, { shipping_meter: { enabled: false, threshold: 2000 } })
    const off = await meterOf(t, shopper, 'disabled')
    t.same(off, meter(false, 2000, 1000, 1000, 0.5, false), 'enabled: false, the figures still answered')
    t.same((await shopper.ok('GET', 'drawer-data?fields=shipping_meter')).shipping_meter, off)
  })
})
