import { test } from 'tap'
import { computeDiscounts, splitProportionally } from '../../../kernel/domain/coupons.ts'
import { makeCoupon } from './fixtures.ts'

const percent = (amount: number) => makeCoupon({ code: `p${amount}`, discountType: 'percent', amount })
const fixed = (amount: number) => makeCoupon({ code: `f${amount}`, discountType: 'fixed_cart', amount })

test('percent coupons round half up per line', async (t) => {
  t.same(computeDiscounts([333, 333, 334], [percent(10)]).lineDiscounts, [33, 33, 33], '33.3, 33.3, 33.4')
  t.same(computeDiscounts([335, 1005, 5], [percent(10)]).lineDiscounts, [34, 101, 1], '33.5 → 34, 100.5 → 101, 0.5 → 1')
  t.same(computeDiscounts([1000], [percent(12.5)]).lineDiscounts, [125], 'fractional percent')
  t.same(computeDiscounts([1000], [percent(150)]).lineDiscounts, [1000], 'never more than the line')
})

test('fixed_cart coupons split exactly', async (t) => {
  t.same(computeDiscounts([333, 333, 334], [fixed(1000)]).lineDiscounts, [333, 333, 334], '$10 across $3.33/$3.33/$3.34')
  const dollar = computeDiscounts([333, 333, 334], [fixed(100)])
  t.same(dollar.lineDiscounts, [33, 33, 34], '$1: 33.3/33.3/33.4, the extra cent to the largest remainder')
  t.equal(dollar.coupons[0]?.discount, 100)
  t.same(computeDiscounts([100, 100, 100], [fixed(200)]).lineDiscounts, [67, 67, 66], 'ties go to the earlier lines')
  const capped = computeDiscounts([1000, 2000], [fixed(5000)])
  t.same(capped.lineDiscounts, [1000, 2000], 'never more than the remaining total')
  t.equal(capped.coupons[0]?.discount, 3000)
  t.same(computeDiscounts([], [fixed(500)]).lineDiscounts, [], 'no lines')
  t.same(computeDiscounts([0, 0], [fixed(500)]).lineDiscounts, [0, 0], 'nothing to discount')
})

test('splitProportionally always sums to the amount', async (t) => {
  const weights = [1, 7, 333, 334, 999, 12345]
  for (const amount of [1, 2, 3, 17, 500, 1001, 9999]) {
    const parts = splitProportionally(amount, weights)
    t.equal(parts.reduce((s, p) => s + p, 0), amount, `amount ${amount}`)
    t.ok(parts.every((p, i) => p >= 0 && p <= (weights[i] ?? 0)), `no part over its weight for ${amount}`)
  }
})

test('coupons apply in order on what earlier ones left', async (t) => {
  // 10 % of [1000, 3000] = [100, 300], leaving [900, 2700] (3600); $5 fixed splits 500 × 900/3600 = 125 and 375.
  const result = computeDiscounts([1000, 3000], [percent(10), fixed(500)])
  t.same(result.lineDiscounts, [225, 675])
  t.same(result.coupons.map((c) => [c.coupon.code, c.discount, c.perLine]), [['p10', 400, [100, 300]], ['f500', 500, [125, 375]]])
  // The other way round: 500 splits 125/375, leaving [875, 2625]; 10 % = 87.5 → 88 and 262.5 → 263.
  const reversed = computeDiscounts([1000, 3000], [fixed(500), percent(10)])
  t.same(reversed.lineDiscounts, [213, 638])
  const all = computeDiscounts([1000, 3000], [percent(100), fixed(500)])
  t.same(all.coupons.map((c) => c.discount), [4000, 0], 'nothing left for the second coupon')
})

test('discount tax per coupon telescopes to the line tax difference', async (t) => {
  // 10 % tax. Before: tax 100 + 300 = 400. After 10 %: [900, 2700] → 90 + 270 = 360, so 40 removed.
  // After $5 more: [775, 2325] → 77.5 → 78 and 232.5 → 233 = 311, so 49 removed. 40 + 49 = 400 − 311.
  const result = computeDiscounts([1000, 3000], [percent(10), fixed(500)], 10)
  t.same(result.coupons.map((c) => c.discountTax), [40, 49])
  t.same(computeDiscounts([1000], [percent(10)]).coupons[0]?.discountTax, 0, 'no tax rate, no discount tax')
})
