import { test } from 'tap'
import { rewardAdjustments, type RewardProgram, type RewardTier } from '../../../kernel/domain/rewards.ts'
import { shippingMeter } from '../../../drawer/domain/shipping-meter.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import { cartItemKey } from '../../../kernel/domain/cart.ts'
import type { CartData, CartLine, Coupon } from '../../../kernel/domain/types.ts'
import { makeConfig, makeCoupon, makeProduct, NOW } from '../../kernel/domain/fixtures.ts'

const CONFIG = makeConfig({ shippingFlatRate: 500, taxRatePercent: 10 })
const products = new Map([[1, makeProduct()]])
const coupon = makeCoupon
const line = (productId: number, quantity: number): CartLine => ({ key: cartItemKey(productId, 0), productId, variationId: 0, variation: {}, quantity })

/** The meter reads the free-shipping tier of the evaluation that priced the cart: never "reached" over a charge. */

const freeShippingFrom = (threshold: number): RewardProgram => ({
  basis: { measure: 'subtotal', afterDiscounts: true, includeTax: false },
  tiers: [{ id: 'ship', label: 'Free shipping', threshold, kind: 'free_shipping', amount: 0, productId: 0 } satisfies RewardTier]
})

function priced (cart: CartData, program: RewardProgram | null, coupons: Coupon[] = []) {
  return priceCart(cart, products, new Map(coupons.map((c) => [c.code, c])), CONFIG, NOW, undefined, program === null ? null : (view) => rewardAdjustments(program, view))
}

test('below, at and above the threshold: the meter and the charged shipping agree', async (t) => {
  for (const quantity of [1, 2, 3, 5]) {
    const cart: CartData = { lines: [line(1, quantity)], coupons: [] }
    const result = priced(cart, freeShippingFrom(3000))
    const meter = shippingMeter(result)
    t.equal(meter.enabled, true)
    t.equal(meter.reached, result.totals.totalShipping === 0, `quantity ${quantity}: reached exactly when shipping is free`)
    t.equal(meter.basis, result.totals.totalItems - result.totals.totalDiscount)
    t.equal(meter.remaining, Math.max(0, 3000 - meter.basis))
  }
})

test('without a tier the meter is off; a free-shipping coupon still reaches it', async (t) => {
  const cart: CartData = { lines: [line(1, 1)], coupons: [] }
  t.same(shippingMeter(priced(cart, null)), { enabled: false, measure: 'subtotal', threshold: 0, basis: 0, remaining: 0, progress: 0, reached: false })
  const free = coupon({ code: 'ship', freeShipping: true, amount: 0, discountType: 'fixed_cart' })
  const withCoupon = priced({ ...cart, coupons: ['ship'] }, null, [free])
  t.equal(withCoupon.totals.totalShipping, 0)
  t.equal(shippingMeter(withCoupon).reached, true)
})

test('an empty cart reaches nothing, even with a zero threshold', async (t) => {
  const meter = shippingMeter(priced({ lines: [], coupons: [] }, freeShippingFrom(0)))
  t.equal(meter.reached, false)
  t.equal(meter.enabled, true)
})
