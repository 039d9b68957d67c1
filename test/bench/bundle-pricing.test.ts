/**
 * The bench's bundle pricing: the cart it prices forms the bundles it claims, and the goal judges the figure it is
 * given. No time is measured here.
 */
import { test } from 'tap'
import { bundlePricingCart, priceBundleCart } from '../../bench/bundle-pricing.ts'
import { goals } from '../../bench/goals.ts'
import { markdownReport } from '../../bench/report.ts'
import type { PricingResult } from '../../bench/report-types.ts'
import { benchReport } from '../helpers/bench-report.ts'

test('the priced cart: 9,999 hats on two lines form 4,999 pairs, 10 % off 9,998 of them', async (t) => {
  const cart = bundlePricingCart()
  t.equal(cart.lines.reduce((sum, line) => sum + line.quantity, 0), 9999)
  const priced = priceBundleCart(cart)
  t.same(priced.lines.map((line) => [line.line.quantity, line.unitPrice, line.lineOwnDiscount]), [
    [5000, 2000, 1_000_000],
    [4999, 1800, 4998 * 180]
  ], 'every beanie and all caps but one in a pair')
  t.equal(priced.totals.totalDiscount, 1_000_000 + 4998 * 180)
})

const measured = (maxMs: number): PricingResult => ({
  name: 'bundle-pricing-9999-units', description: 'priceCart', runs: 21, firstMs: maxMs, medianMs: 0.2, maxMs, bundleDiscount: 1
})

test('the goal: the slowest run under 50 ms', async (t) => {
  const judged = (maxMs: number) => goals([], [measured(maxMs)]).find((goal) => goal.goal.startsWith('Pricing a cart of 9,999 units'))
  t.match(judged(2.5), { met: true, figure: /^2\.500 ms slowest of 21 runs/ })
  t.equal(judged(50)?.met, false)
  t.equal(goals([]).some((goal) => goal.goal.startsWith('Pricing')), false, 'no goal without a measurement')
  t.match(markdownReport(benchReport({ goals: goals([], [measured(3)]) })), /\| Pricing a cart of 9,999 units .* \| 3\.000 ms slowest .* \| yes \|/)
})
