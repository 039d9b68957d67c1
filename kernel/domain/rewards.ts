import { giftTierOf, rewardMark } from './marks.ts'
import type { CartAdjustment, CartAdjustments, LineAdjustment, ShippingAdjustment } from './adjustments.ts'
import { addToCart, withLines } from './cart.ts'
import { isGiftLine, type CartView } from './cart-view.ts'
import type { Viewer } from './catalog.ts'
import { computeDiscounts } from './discounts.ts'
import type { CartData, Coupon, Product } from './types.ts'
import type { RewardBasis, RewardKind, RewardOutcome, TierProgress } from './reward-outcome.ts'

export type { RewardBasis, RewardKind, RewardOutcome, TierProgress }

/**
 * Reward tiers: thresholds on what the cart is worth (or how many items it holds) that grant free shipping, a
 * discount or a free gift. Pure: the drawer turns its settings into a `RewardProgram`; `rewardAdjustments` reads a
 * view of the host's cart priced without the tiers (`CartView`) and answers what they do to it as adjustments the
 * host applies in its own totals (`CartAdjustments`), with the outcome the meter, the drawer's progress bar and
 * `extensions.svc` show (`PricedCart.rewards` on the reference platform). So the meter can never say "free" while
 * shipping is charged: both come from one evaluation.
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
  holds?: (view: CartView) => boolean | 'error'
}

export interface RewardProgram {
  basis: RewardBasis
  /** In the order they are shown; evaluated by threshold. */
  tiers: readonly RewardTier[]
}

/**
 * What the thresholds are held against, from the cart's view priced without the tiers. Gift lines count for nothing:
 * a gift never counts towards a reward, so adding it can never change what is earned.
 */
export function rewardBasis (view: CartView, basis: RewardBasis): number {
  let total = 0
  for (const line of view.lines) {
    if (isGiftLine(line)) continue
    if (basis.measure === 'item_count') total += line.quantity
    else {
      total += basis.afterDiscounts ? line.total : line.subtotal
      if (basis.includeTax) total += basis.afterDiscounts ? line.totalTax : line.subtotalTax
    }
  }
  return total
}

/**
 * Evaluates every tier against the cart's view priced without the tiers, its gift lines left out (the conditions do
 * not see them either). A tier is reached when the basis is at least its threshold and its conditions hold; discount
 * tiers form a ladder (the highest reached one applies, alone); every reached gift and free-shipping tier applies.
 * `gifts` lists every gift earned, whether or not the cart holds its line (`rewardAdjustments` checks that).
 */
export function evaluateRewards (program: RewardProgram, view: CartView): RewardOutcome {
  const counted: CartView = view.lines.some(isGiftLine) ? { ...view, lines: view.lines.filter((line) => !isGiftLine(line)) } : view
  const basis = Math.max(0, rewardBasis(counted, program.basis))
  const empty = counted.lines.length === 0
  const unevaluable: string[] = []
  const tiers: TierProgress[] = program.tiers.map((tier) => {
    const goal = Math.max(0, Math.round(tier.threshold))
    const met = !empty && basis >= goal
    let holds: boolean | 'error' = true
    if (met && tier.holds !== undefined) {
      try {
        holds = tier.holds(counted)
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

/** The code under which a discount reward is listed with the cart's coupons (no stored coupon has it). */
export function rewardCouponCode (tierId: string): string {
  return `reward_${tierId}`
}

/**
 * A discount tier as the coupon it works like: after the shopper's coupons, on what they left of each line (the
 * reference platform lists it with the coupons under `rewardCouponCode`).
 */
export function rewardDiscountCoupon (discount: NonNullable<RewardOutcome['discount']>): Coupon {
  return {
    code: rewardCouponCode(discount.id),
    discountType: discount.kind === 'percent_discount' ? 'percent' : 'fixed_cart',
    amount: discount.amount,
    freeShipping: false,
    expiresAt: null,
    usageLimit: null,
    usageCount: 0,
    minimumAmount: null,
    description: discount.label
  }
}

/**
 * What the tiers do to a cart, from its view priced without them: each held gift line's whole subtotal off it, the
 * discount tier off what the shopper's coupons left (percent: rounded per line; fixed: shared in proportion to what
 * each line has left, never more than the cart has left), the shipping waived by each free-shipping tier reached. A
 * gift the cart earns but whose line it does not hold grants nothing: its tier shows as not reached and blocked until
 * the line is added (`syncRewardGifts`), so the drawer never promises a gift the cart does not hold.
 */
export function rewardAdjustments (program: RewardProgram, view: CartView): CartAdjustments {
  const earned = evaluateRewards(program, view)
  const lines: LineAdjustment[] = []
  const held = new Set<string>()
  for (const gift of earned.gifts) {
    const rule = rewardMark(gift.id)
    for (const line of view.lines) {
      if (line.mark !== rule) continue
      held.add(gift.id)
      lines.push({ lineKey: line.key, amount: Math.max(0, line.subtotal), label: gift.label, rule })
    }
  }
  const cart: CartAdjustment[] = []
  if (earned.discount !== null) {
    const counted = view.lines.filter((line) => !isGiftLine(line))
    const [applied] = computeDiscounts(counted.map((line) => line.total), [rewardDiscountCoupon(earned.discount)]).coupons
    if (applied !== undefined) {
      cart.push({
        amount: applied.discount,
        lines: counted.flatMap((line, index) => (applied.perLine[index] ?? 0) > 0 ? [{ lineKey: line.key, amount: applied.perLine[index]! }] : []),
        label: earned.discount.label,
        rule: rewardMark(earned.discount.id)
      })
    }
  }
  const shipping: ShippingAdjustment[] = earned.tiers
    .filter((tier) => tier.reached && tier.kind === 'free_shipping')
    .map((tier) => ({ label: tier.label, rule: rewardMark(tier.id) }))
  const missing = new Set(earned.gifts.filter((gift) => !held.has(gift.id)).map((gift) => gift.id))
  const outcome: RewardOutcome = missing.size === 0
    ? earned
    : {
        ...earned,
        tiers: earned.tiers.map((tier) => missing.has(tier.id) ? { ...tier, reached: false, blocked: true } : tier),
        gifts: earned.gifts.filter((gift) => !missing.has(gift.id))
      }
  return { lines, cart, shipping, gifts: earned.gifts, outcome }
}

/**
 * The cart's gift lines brought in line with what it earns: a gift line whose tier is no longer reached goes; a
 * reached gift tier without its line gets one (quantity 1, its own key) when the product can be added, else it is
 * listed in `unavailable` (it grants nothing: the totals price only lines that exist). `earned`: the gifts the cart
 * earns (`CartAdjustments.gifts`). Returns the same `data` when nothing changes. `products` must hold every gift
 * product of `earned`.
 */
export function syncRewardGifts (
  data: CartData,
  earned: Pick<CartAdjustments, 'gifts'> | null,
  products: ReadonlyMap<number, Product>,
  viewer: Viewer
): { data: CartData, unavailable: string[] } {
  const granted = new Map((earned?.gifts ?? []).map((gift) => [gift.id, gift]))
  const kept = data.lines.filter((line) => giftTierOf(line.mark) === undefined || granted.get(giftTierOf(line.mark)!)?.productId === line.productId)
  let next = kept.length === data.lines.length ? data : withLines(data, kept)
  const unavailable: string[] = []
  for (const gift of granted.values()) {
    if (next.lines.some((line) => giftTierOf(line.mark) === gift.id)) continue
    const product = products.get(gift.productId)
    const added = product === undefined || product.type !== 'simple'
      ? null
      : addToCart(next, { product, parent: product, quantity: 1, mark: rewardMark(gift.id) }, viewer)
    if (added === null || !added.ok) {
      unavailable.push(gift.id)
      continue
    }
    next = added.value.cart
  }
  return { data: next, unavailable }
}
