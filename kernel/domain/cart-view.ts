import { giftTierOf } from './marks.ts'

/**
 * A read-only view of a host's cart, as the drawer's reward tiers and conditions read it. Any host builds it from its
 * own cart and totals; the reference platform builds it from its `PricedCart` (kernel/domain/totals.ts `cartView`). Money in
 * minor units, integers.
 */

/** One line of the host's cart. */
export interface CartViewLine {
  /** The host's line key: adjustments name their line by it. */
  key: string
  /** The product the shopper chose (a variation's parent): `product_in_cart` conditions. */
  productId: number
  /** The variation's id, or 0: `product_in_cart` conditions match it too. */
  variationId: number
  /** Units: the `item_count` basis and `cart_item_count` conditions. */
  quantity: number
  /** The host's unit price before any discount. */
  unitPrice: number
  /** The line before discounts (`unitPrice × quantity`): the basis before discounts; a gift's adjustment takes all of it. */
  subtotal: number
  /** The tax on `subtotal`: the basis before discounts, with tax. */
  subtotalTax: number
  /**
   * The line after its discounts (the drawer's line adjustments, then the shopper's coupons): the basis after
   * discounts, `cart_subtotal` conditions, and what the discount tier is taken from.
   */
  total: number
  /** The tax on `total`: the basis after discounts, with tax. */
  totalTax: number
  /** The product's category ids (a variation's: its parent's): `category_in_cart` conditions. */
  categoryIds: readonly number[]
  /**
   * The drawer's mark on a line it added, as the host stored it: `reward:<tierId>` on a tier's gift line (the tiers
   * count nothing of it), `addon:<id>`, `bundle:<id>`. Absent on the shopper's own lines.
   */
  mark?: string
}

/**
 * The host's cart as priced without the reward tiers' adjustments: its lines with their figures, and the coupon codes
 * applied. A gift line (`reward:<tierId>`) never costs anything and takes no share of a coupon (its adjustment comes
 * off before the coupons), so the other lines' figures are what they would be without it.
 */
export interface CartView {
  /** In the host's order. */
  lines: readonly CartViewLine[]
  /** The shopper's applied coupon codes, in the order applied (lines' `total` already has their discounts). */
  couponCodes: readonly string[]
}

/** Whether a line of the view is a reward tier's gift line. */
export function isGiftLine (line: CartViewLine): boolean {
  return giftTierOf(line.mark) !== undefined
}
