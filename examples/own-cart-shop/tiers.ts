import { giftTierOf, rewardMark, type CartAdjustments, type CartRewards, type CartView, type LineAdjuster, type Product, type RewardOutcome, type Viewer } from 'cart-drawer-service/drawer'
import type { Catalog } from './catalog.ts'
import type { ShopCart } from './model.ts'
import { computeTotals, sellable, unitPrice, type Grants, type Totals } from './totals.ts'

/**
 * The drawer's reward tiers in the shop's totals, all in this file: the cart is priced without them, the drawer is
 * handed a view of that (`CartView`) and answers its adjustments (`CartAdjustments`), and the totals are computed
 * again with them: the cart adjustment (the discount tier, on what the coupons left) off the lines, the shipping
 * waived, the held gift lines at zero. A gift tier counts only once its line is in the cart (`syncGifts` adds it
 * inside every change).
 */

export interface Context {
  catalog: Catalog
  rewards: CartRewards | undefined
  adjuster: LineAdjuster | null
  viewer: Viewer
  now: Date
}

const REWARD_RULE = 'reward:'

/** The shop's cart priced without the tiers, as the drawer reads it; gift lines at their product's price, no coupon share. */
function viewOf (cart: ShopCart, without: Totals, catalog: Catalog): CartView {
  const gifts = cart.lines.flatMap((line) => {
    const product = giftTierOf(line.mark) === undefined ? null : catalog.get(line.productId)
    if (product === null) return []
    const price = unitPrice(product)
    return [{ key: line.id, productId: line.productId, variationId: 0, quantity: line.qty, unitPrice: price, subtotal: price * line.qty, subtotalTax: 0, total: price * line.qty, totalTax: 0, categoryIds: product.categories.map((category) => category.id), ...(line.mark === undefined ? {} : { mark: line.mark }) }]
  })
  return {
    lines: [
      ...without.lines.map(({ line, parent, unit, subtotal, total }) => ({
        key: line.id,
        productId: line.productId,
        variationId: line.variantId,
        quantity: line.qty,
        unitPrice: unit,
        subtotal,
        subtotalTax: 0,
        total,
        totalTax: 0,
        categoryIds: parent.categories.map((category) => category.id),
        ...(line.mark === undefined ? {} : { mark: line.mark })
      })),
      ...gifts
    ],
    couponCodes: without.coupons.map(({ coupon }) => coupon.code)
  }
}

/** What the tiers do to the cart: the drawer's adjustments for the cart priced without them, or null (no tiers). */
function adjustmentsOf (cart: ShopCart, context: Context): { without: Totals, adjustments: CartAdjustments | null } {
  const without = computeTotals(cart, context.catalog, context.viewer.canReadPrivate, context.adjuster, null)
  const adjustments = context.rewards?.adjust(viewOf(cart, without, context.catalog), context.viewer, context.now) ?? null
  return { without, adjustments }
}

export function totalsWithTiers (cart: ShopCart, context: Context): { totals: Totals, outcome: RewardOutcome | null } {
  const { without, adjustments } = adjustmentsOf(cart, context)
  if (adjustments === null) return { totals: without, outcome: null }
  const discount = adjustments.cart[0]
  const grants: Grants = {
    freeShipping: adjustments.shipping.length > 0,
    // The discount tier's amount, as the drawer computed it on what the coupons left: taken off as it is.
    discount: discount === undefined ? null : { id: discount.rule.slice(REWARD_RULE.length), label: discount.label, kind: 'fixed_discount', amount: discount.amount },
    // The gift lines the drawer adjusts to zero (only held gifts of reached tiers have an adjustment).
    gifts: new Set(adjustments.lines.filter((adjustment) => adjustment.rule.startsWith(REWARD_RULE)).map((adjustment) => adjustment.rule.slice(REWARD_RULE.length)))
  }
  return { totals: computeTotals(cart, context.catalog, context.viewer.canReadPrivate, context.adjuster, grants), outcome: adjustments.outcome }
}

/** The cart's gift lines in step with what it earns: a lost tier's line goes, a reached tier's line comes (or is reported). */
export function syncGifts (cart: ShopCart, context: Context, newId: () => string): ShopCart {
  const earned = adjustmentsOf(cart, context).adjustments?.gifts ?? []
  const lines = cart.lines.filter((line) => giftTierOf(line.mark) === undefined || earned.some((gift) => gift.id === giftTierOf(line.mark) && gift.productId === line.productId))
  for (const gift of earned) {
    if (lines.some((line) => giftTierOf(line.mark) === gift.id)) continue
    const product: Product | null = context.catalog.get(gift.productId)
    if (product?.type !== 'simple' || !sellable(product, false)) {
      context.rewards?.report(gift.id, 'gift_unavailable')
      continue
    }
    lines.push({ id: newId(), productId: product.id, variantId: 0, attrs: {}, qty: 1, mark: rewardMark(gift.id) })
  }
  return { ...cart, lines }
}
