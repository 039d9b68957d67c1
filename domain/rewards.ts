import { addToCart, withLines } from './cart.ts'
import type { Viewer } from './catalog.ts'
import type { CartData, PricedCart, Product } from './types.ts'
import type { RewardBasis, RewardKind, RewardOutcome, TierProgress } from './reward-outcome.ts'

export type { RewardBasis, RewardKind, RewardOutcome, TierProgress }

/**
 * Reward tiers: thresholds on what the cart is worth (or how many items it holds) that grant free shipping, a
 * discount or a free gift. Pure: the drawer turns its settings into a `RewardProgram`, the platform's totals ask
 * `evaluateRewards` with the cart priced without rewards and apply what it grants, and the meter, the drawer's
 * progress bar and `extensions.svc` read the same outcome (`PricedCart.rewards`). So the meter can never say "free"
 * while shipping is charged: both come from one evaluation.
 */

export interface RewardTier {
  id: string
  /** The shopper-facing name (`Free shipping`, `10% off`, `A free tote bag`). */
  label: string
  /** Reached from this basis on (at the threshold counts as reached). */
  threshold: number
  kind: RewardKind
  /** Percent (1–100) for `percent_discount`; minor units for `fixed_discount`; unused otherwise. */
  amount: number
  /** The gift's product (a `gift` tier); 0 otherwise. */
  productId: number
  /**
   * Whether the tier's further conditions hold for this cart: true, false, or `error` when they cannot be evaluated
   * (the tier then grants nothing). Absent: no conditions.
   */
  holds?: (priced: PricedCart) => boolean | 'error'
}

export interface RewardProgram {
  basis: RewardBasis
  /** In the order they are shown; evaluated by threshold. */
  tiers: readonly RewardTier[]
}

/**
 * What the thresholds are held against, from the cart priced without rewards. Gift lines are not in that cart: a
 * gift never counts towards a reward, so adding it can never change what is earned.
 */
export function rewardBasis (priced: PricedCart, basis: RewardBasis): number {
  if (basis.measure === 'item_count') return priced.lines.reduce((sum, line) => sum + line.line.quantity, 0)
  let total = 0
  for (const line of priced.lines) {
    total += basis.afterDiscounts ? line.lineTotal : line.lineSubtotal
    if (basis.includeTax) total += basis.afterDiscounts ? line.lineTotalTax : line.lineSubtotalTax
  }
  return total
}

/**
 * Evaluates every tier against a cart priced without rewards. A tier is reached when the basis is at least its
 * threshold and its conditions hold; discount tiers form a ladder (the highest reached one applies, alone); every
 * reached gift and free-shipping tier applies.
 */
export function evaluateRewards (program: RewardProgram, priced: PricedCart): RewardOutcome {
  const basis = Math.max(0, rewardBasis(priced, program.basis))
  const empty = priced.lines.length === 0
  const unevaluable: string[] = []
  const tiers: TierProgress[] = program.tiers.map((tier) => {
    const goal = Math.max(0, Math.round(tier.threshold))
    const met = !empty && basis >= goal
    let holds: boolean | 'error' = true
    if (met && tier.holds !== undefined) {
      try {
        holds = tier.holds(priced)
      } catch {
        holds = 'error'
      }
      if (holds === 'error') unevaluable.push(tier.id)
    }
    const reached = met && holds === true
    return {
      id: tier.id,
      label: tier.label,
      kind: tier.kind,
      threshold: goal,
      amount: tier.amount,
      productId: tier.productId,
      reached,
      remaining: met ? 0 : goal - basis,
      progress: met || goal === 0 ? 1 : Math.min(1, basis / goal),
      blocked: met && !reached
    }
  })
  const reached = tiers.filter((tier) => tier.reached)
  const discounts = reached
    .filter((tier): tier is TierProgress & { kind: 'percent_discount' | 'fixed_discount' } => tier.kind === 'percent_discount' || tier.kind === 'fixed_discount')
    .sort((a, b) => b.threshold - a.threshold)
  const best = discounts[0]
  return {
    measure: program.basis.measure,
    basis,
    tiers,
    freeShipping: reached.some((tier) => tier.kind === 'free_shipping'),
    discount: best === undefined ? null : { id: best.id, label: best.label, kind: best.kind, amount: best.amount },
    gifts: reached.filter((tier) => tier.kind === 'gift' && tier.productId > 0).map((tier) => ({ id: tier.id, label: tier.label, productId: tier.productId })),
    unevaluable
  }
}

/** The group of a gift line (its own cart item key, never merged with the same product bought). */
export const REWARD_GROUP_PREFIX = 'reward:'

export function rewardGroup (tierId: string): string {
  return `${REWARD_GROUP_PREFIX}${tierId}`
}

/** The code under which a discount reward is listed with the cart's coupons (no stored coupon has it). */
export function rewardCouponCode (tierId: string): string {
  return `reward_${tierId}`
}

/**
 * The cart's gift lines brought in line with what it earns: a gift line whose tier is no longer reached goes; a
 * reached gift tier without its line gets one (quantity 1, its own key) when the product can be added, else it is
 * listed in `unavailable` (it grants nothing: the totals price only lines that exist). Returns the same `data` when
 * nothing changes. `products` must hold every gift product of `outcome`.
 */
export function syncRewardGifts (
  data: CartData,
  outcome: RewardOutcome | null,
  products: ReadonlyMap<number, Product>,
  viewer: Viewer
): { data: CartData, unavailable: string[] } {
  const granted = new Map((outcome?.gifts ?? []).map((gift) => [gift.id, gift]))
  const kept = data.lines.filter((line) => line.rewardId === undefined || granted.get(line.rewardId)?.productId === line.productId)
  let next = kept.length === data.lines.length ? data : withLines(data, kept)
  const unavailable: string[] = []
  for (const gift of granted.values()) {
    if (next.lines.some((line) => line.rewardId === gift.id)) continue
    const product = products.get(gift.productId)
    const added = product === undefined || product.type !== 'simple'
      ? null
      : addToCart(next, { product, parent: product, quantity: 1, group: rewardGroup(gift.id) }, viewer)
    if (added === null || !added.ok) {
      unavailable.push(gift.id)
      continue
    }
    next = { ...added.value.cart, lines: added.value.cart.lines.map((line) => line.key === added.value.key ? { ...line, rewardId: gift.id } : line) }
  }
  return { data: next, unavailable }
}
