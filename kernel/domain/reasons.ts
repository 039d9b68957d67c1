/**
 * Every reason the domain can give for refusing something (or for dropping something while pricing a cart). A
 * reason says what went wrong, never how an API answers it: no HTTP status, no wire code. `kernel/errors/domain-reasons.ts`
 * maps each reason to the answer of each API (the Store API's WooCommerce code and status, the `svc/v1` code).
 */
export const DOMAIN_REASONS = [
  // Coupons (validateCoupon, applyCoupon, removeCoupon; priceCart drops coupons that no longer validate).
  'coupon_not_found',
  'coupon_already_applied',
  'coupon_usage_limit',
  'coupon_expired',
  'coupon_minimum_spend',
  'coupon_not_applied',
  // Products and quantities (addToCart, setLineQuantity, validateQuantity).
  'product_not_found',
  'product_not_purchasable',
  'product_out_of_stock',
  'product_sold_individually',
  'quantity_not_whole',
  'quantity_below_minimum',
  'quantity_above_maximum',
  'quantity_not_multiple',
  'quantity_exceeds_stock',
  // Variations (normaliseVariationChoice, findVariation).
  'variation_attribute_missing',
  'variation_attribute_invalid',
  'variation_not_found',
  // Cart lines (setLineQuantity, removeLine, removeLines, and the platform's locks).
  'item_not_found',
  'item_locked',
  // Lines priceCart leaves out.
  'line_product_missing',
  'line_product_unpurchasable',
  // Bundles (validateBundleSelection, addBundleLines).
  'bundle_not_found',
  'bundle_slot_count',
  'bundle_duplicate_product',
  'bundle_product_not_in_slot',
  'bundle_product_unavailable'
] as const

export type DomainReason = typeof DOMAIN_REASONS[number]
