/**
 * What a reward program grants a cart, as plain data: the shapes the totals, the meter and `extensions.svc` read
 * (kernel/domain/rewards.ts computes them).
 */

export type RewardKind = 'free_shipping' | 'percent_discount' | 'fixed_discount' | 'gift'

/** What the thresholds measure. */
export interface RewardBasis {
  /** `subtotal`: money (minor units); `item_count`: the sum of the quantities. */
  measure: 'subtotal' | 'item_count'
  /** The subtotal after coupon and bundle discounts (rewards' own discounts never count). */
  afterDiscounts: boolean
  /** The subtotal with its tax. */
  includeTax: boolean
}

export interface TierProgress {
  id: string
  label: string
  kind: RewardKind
  threshold: number
  amount: number
  productId: number
  /** The threshold is met and the conditions hold: the reward applies. */
  reached: boolean
  /** How much (minor units, or items) is still missing; 0 once the threshold is met. */
  remaining: number
  /** 0 to 1. */
  progress: number
  /** The threshold is met but the tier's conditions do not hold (or could not be evaluated). */
  blocked: boolean
}

/** What a cart earns: the basis measured, each tier's progress, and the grants the totals apply. */
export interface RewardOutcome {
  measure: RewardBasis['measure']
  basis: number
  tiers: TierProgress[]
  freeShipping: boolean
  /** The one discount tier that applies: the reached discount tier with the highest threshold, or null. */
  discount: { id: string, label: string, kind: 'percent_discount' | 'fixed_discount', amount: number } | null
  /** The reached gift tiers: their products are added as locked lines at zero price. */
  gifts: Array<{ id: string, label: string, productId: number }>
  /** Tiers whose conditions could not be evaluated (granted nothing), for the caller to report. */
  unevaluable: string[]
}
