import type { RewardOutcome } from '../../kernel/domain/rewards.ts'
import type { PricedCart } from '../../kernel/domain/types.ts'

export interface ShippingMeter {
  /** Whether a free-shipping reward tier applies to the cart's shop (the meter has something to measure). */
  enabled: boolean
  /** What the threshold measures: money (minor units) or items. */
  measure: RewardOutcome['measure']
  threshold: number
  basis: number
  remaining: number
  /** 0 to 1. */
  progress: number
  /**
   * True only while the cart's shipping costs nothing: the free-shipping tier is reached (or a free-shipping coupon
   * applies) and the free rate is the one chosen. Never true while shipping is charged.
   */
  reached: boolean
}

/**
 * The free-shipping meter of a priced cart: the free-shipping tier's progress from the same evaluation that set the
 * totals (`PricedCart.rewards`), so what the meter says and what the cart charges cannot disagree.
 */
export function shippingMeter (priced: PricedCart): ShippingMeter {
  const tier = priced.rewards?.tiers.find((candidate) => candidate.kind === 'free_shipping')
  const reached = priced.needsShipping && priced.freeShipping && priced.totals.totalShipping === 0
  return {
    enabled: tier !== undefined,
    measure: priced.rewards?.measure ?? 'subtotal',
    threshold: tier?.threshold ?? 0,
    basis: priced.rewards?.basis ?? 0,
    remaining: reached ? 0 : tier?.remaining ?? 0,
    progress: reached ? 1 : tier?.progress ?? 0,
    reached
  }
}
