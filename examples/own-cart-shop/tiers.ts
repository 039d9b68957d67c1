import type { CartRewards, LineAdjuster, Product, RewardOutcome, Viewer } from 'cart-drawer-service'
import type { Catalog } from './catalog.ts'
import type { ShopCart } from './model.ts'
import { toPricedCart } from './port-glue.ts'
import { computeTotals, sellable, type Totals } from './totals.ts'

/**
 * The drawer's reward tiers in the shop's totals, all in this file: the cart is priced without them, the drawer's
 * evaluator says what that cart earns, and the totals are computed again with the grants (the discount after the
 * coupons on what they left, free shipping, gift lines at zero). A gift tier counts as reached only once its line
 * is in the cart (`syncGifts` adds it inside every change).
 */

export interface Context {
  catalog: Catalog
  rewards: CartRewards | undefined
  adjuster: LineAdjuster | null
  viewer: Viewer
  now: Date
}

export function totalsWithTiers (cart: ShopCart, { catalog, rewards, adjuster, viewer, now }: Context): { totals: Totals, outcome: RewardOutcome | null } {
  const without = computeTotals(cart, catalog, viewer.canReadPrivate, adjuster, null)
  const evaluate = rewards?.evaluator(viewer, now) ?? null
  if (evaluate === null) return { totals: without, outcome: null }
  const earned = evaluate(toPricedCart(cart, without, null))
  const held = new Set(cart.lines.flatMap((line) => line.rewardId === undefined ? [] : [line.rewardId]))
  const missing = new Set(earned.gifts.filter((gift) => !held.has(gift.id)).map((gift) => gift.id))
  const outcome: RewardOutcome = {
    ...earned,
    tiers: earned.tiers.map((tier) => missing.has(tier.id) ? { ...tier, reached: false, blocked: true } : tier),
    gifts: earned.gifts.filter((gift) => !missing.has(gift.id))
  }
  const grants = { freeShipping: outcome.freeShipping, discount: outcome.discount, gifts: new Set(outcome.gifts.map((gift) => gift.id)) }
  return { totals: computeTotals(cart, catalog, viewer.canReadPrivate, adjuster, grants), outcome }
}

/** The cart's gift lines in step with what it earns: a lost tier's line goes, a reached tier's line comes (or is reported). */
export function syncGifts (cart: ShopCart, context: Context, newId: () => string): ShopCart {
  const evaluate = context.rewards?.evaluator(context.viewer, context.now) ?? null
  const earned = evaluate === null
    ? []
    : evaluate(toPricedCart(cart, computeTotals(cart, context.catalog, context.viewer.canReadPrivate, context.adjuster, null), null)).gifts
  const lines = cart.lines.filter((line) => line.rewardId === undefined || earned.some((gift) => gift.id === line.rewardId && gift.productId === line.productId))
  for (const gift of earned) {
    if (lines.some((line) => line.rewardId === gift.id)) continue
    const product: Product | null = context.catalog.get(gift.productId)
    if (product?.type !== 'simple' || !sellable(product, false)) {
      context.rewards?.report(gift.id, 'gift_unavailable')
      continue
    }
    lines.push({ id: newId(), productId: product.id, variantId: 0, attrs: {}, qty: 1, mark: `reward:${gift.id}`, rewardId: gift.id })
  }
  return { ...cart, lines }
}
