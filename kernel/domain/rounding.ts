/**
 * Integer arithmetic helpers for money. Rates and percentages may carry decimals (7.25 %), so they are scaled to
 * integers before multiplying to keep every intermediate value exact.
 */

const RATE_SCALE = 10_000

/** `numerator / denominator` rounded half away from zero; both integers, denominator > 0. */
export function roundDiv (numerator: number, denominator: number): number {
  const sign = numerator < 0 ? -1 : 1
  const abs = Math.abs(numerator)
  const quotient = Math.floor(abs / denominator)
  const remainder = abs - quotient * denominator
  const rounded = remainder * 2 >= denominator ? quotient + 1 : quotient
  return rounded === 0 ? 0 : sign * rounded
}

/** `amount × percent / 100`, rounded half up (away from zero); `amount` in minor units. */
export function percentOf (amount: number, percent: number): number {
  const scaled = Math.round(percent * RATE_SCALE)
  return roundDiv(Math.round(amount) * scaled, 100 * RATE_SCALE)
}

/** Tax on `amount` at `ratePercent`, rounded half up per amount. */
export function taxOn (amount: number, ratePercent: number): number {
  if (ratePercent <= 0) return 0
  return percentOf(amount, ratePercent)
}
