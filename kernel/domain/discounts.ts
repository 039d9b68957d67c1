import { percentOf, taxOn } from './rounding.ts'
import type { Coupon } from './types.ts'

export interface CouponDiscount {
  coupon: Coupon
  /** Discount per line, in the order of the amounts given. */
  perLine: number[]
  /** Σ perLine. */
  discount: number
  /** The tax this coupon removed: per line, tax before it minus tax after it (so per-coupon taxes sum exactly). */
  discountTax: number
}

export interface DiscountResult {
  /** Total discount per line, in the order of the amounts given. */
  lineDiscounts: number[]
  coupons: CouponDiscount[]
}

/**
 * Splits `amount` across `weights` in proportion (largest remainder: the parts are whole and sum to `amount`
 * exactly; ties go to the earlier weight). `amount` must not exceed Σ weights, so no part exceeds its weight.
 */
export function splitProportionally (amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0)
  if (total <= 0 || amount <= 0) return weights.map(() => 0)
  const parts = weights.map((w) => Math.floor((amount * w) / total))
  // Remainders in integer form (amount × w mod total) so ties compare exactly.
  const order = weights
    .map((w, index) => ({ index, remainder: (amount * w) % total }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index)
  let left = amount - parts.reduce((sum, p) => sum + p, 0)
  for (const { index } of order) {
    if (left <= 0) break
    parts[index] = (parts[index] ?? 0) + 1
    left--
  }
  return parts
}

/** One coupon's discount on each line's remaining amount. */
function couponPerLine (coupon: Coupon, remaining: readonly number[]): number[] {
  if (coupon.discountType === 'percent') {
    const percent = Math.min(100, Math.max(0, coupon.amount))
    return remaining.map((r) => Math.min(r, percentOf(r, percent)))
  }
  const left = remaining.reduce((sum, r) => sum + r, 0)
  const amount = Math.min(Math.max(0, Math.round(coupon.amount)), left)
  return splitProportionally(amount, remaining)
}

/**
 * Applies coupons in order, each on what earlier ones left of every line (amounts in minor units, before tax).
 * Percent coupons take `amount` % of each line's remaining amount, rounded half up per line; fixed_cart coupons
 * split their amount across lines in proportion to what remains, never more than the remaining total.
 */
export function computeDiscounts (lineAmounts: readonly number[], coupons: readonly Coupon[], taxRatePercent = 0): DiscountResult {
  const remaining = lineAmounts.map((a) => Math.max(0, a))
  const lineDiscounts = lineAmounts.map(() => 0)
  const results: CouponDiscount[] = []
  for (const coupon of coupons) {
    const perLine = couponPerLine(coupon, remaining)
    let discountTax = 0
    perLine.forEach((d, i) => {
      const before = remaining[i] ?? 0
      const after = before - d
      discountTax += taxOn(before, taxRatePercent) - taxOn(after, taxRatePercent)
      remaining[i] = after
      lineDiscounts[i] = (lineDiscounts[i] ?? 0) + d
    })
    results.push({ coupon, perLine, discount: perLine.reduce((s, d) => s + d, 0), discountTax })
  }
  return { lineDiscounts, coupons: results }
}
