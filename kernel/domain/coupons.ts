import { normaliseCouponCode, withLines } from './cart.ts'
import { DEFAULT_CURRENCY, formatMoney } from './money.ts'
import { domainError, fail, ok } from './result.ts'
import type { CartData, Coupon, Currency, DomainError, Result } from './types.ts'

export { computeDiscounts, splitProportionally } from './discounts.ts'
export type { CouponDiscount, DiscountResult } from './discounts.ts'

export interface CouponContext {
  /** The code as the shopper typed it (normalised here). */
  code: string
  /** Cart subtotal before discounts and tax, minor units. */
  subtotal: number
  now: Date
  /** Codes already applied to the cart (normalised). */
  appliedCodes: readonly string[]
  /** For the minimum-spend message; default US dollars. */
  currency?: Currency
}

/** Whether the coupon's expiry lies before `now` (an unreadable expiry counts as expired). */
export function isCouponExpired (coupon: Coupon, now: Date): boolean {
  if (coupon.expiresAt === null) return false
  const expires = Date.parse(coupon.expiresAt)
  return Number.isNaN(expires) || now.getTime() > expires
}

/**
 * Whether `coupon` can apply, in WooCommerce's order: it exists, is not applied yet, its usage limit is not
 * reached, it has not expired, the subtotal meets its minimum spend. Reasons: `coupon_not_found`,
 * `coupon_already_applied`, `coupon_usage_limit`, `coupon_expired`, `coupon_minimum_spend`.
 */
export function validateCoupon (coupon: Coupon | null | undefined, context: CouponContext): DomainError | null {
  const code = normaliseCouponCode(context.code)
  if (coupon == null || normaliseCouponCode(coupon.code) !== code) {
    return domainError('coupon_not_found', `Coupon "${code}" does not exist!`)
  }
  if (context.appliedCodes.some((c) => normaliseCouponCode(c) === code)) {
    return domainError('coupon_already_applied', `Coupon code "${code}" has already been applied.`)
  }
  if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) {
    return domainError('coupon_usage_limit', `Usage limit for coupon "${code}" has been reached.`)
  }
  if (isCouponExpired(coupon, context.now)) {
    return domainError('coupon_expired', 'This coupon has expired.')
  }
  if (coupon.minimumAmount !== null && coupon.minimumAmount > 0 && context.subtotal < coupon.minimumAmount) {
    const minimum = formatMoney(coupon.minimumAmount, context.currency ?? DEFAULT_CURRENCY)
    return domainError('coupon_minimum_spend', `The minimum spend for this coupon is ${minimum}.`)
  }
  return null
}

/** `appliedCodes` is optional when applying: the cart's own coupons always count as applied. */
export type ApplyCouponContext = Omit<CouponContext, 'appliedCodes'> & { appliedCodes?: readonly string[] }

/** Validates `coupon` against the cart's applied codes and appends its normalised code. Never changes `cart`. */
export function applyCoupon (cart: CartData, coupon: Coupon | null | undefined, context: ApplyCouponContext): Result<CartData> {
  const error = validateCoupon(coupon, { ...context, appliedCodes: [...cart.coupons, ...(context.appliedCodes ?? [])] })
  if (error !== null) return fail(error)
  return ok(withLines(cart, cart.lines.map((l) => ({ ...l, variation: { ...l.variation } })), [...cart.coupons, normaliseCouponCode(context.code)]))
}

/** Removes an applied coupon; one that is not applied → reason `coupon_not_applied`. */
export function removeCoupon (cart: CartData, code: string): Result<CartData> {
  const normalised = normaliseCouponCode(code)
  if (!cart.coupons.some((c) => normaliseCouponCode(c) === normalised)) {
    return fail(domainError('coupon_not_applied', 'Coupon cannot be removed because it is not already applied to the cart.'))
  }
  return ok(withLines(cart, cart.lines.map((l) => ({ ...l, variation: { ...l.variation } })), cart.coupons.filter((c) => normaliseCouponCode(c) !== normalised)))
}

/** WooCommerce's order of applying coupons (WC_Discounts): fixed_product, then percent, then fixed_cart. */
const COUPON_SORT: Record<string, number> = { fixed_product: 1, percent: 2, fixed_cart: 3 }

/**
 * The coupons in the order WooCommerce applies them: by type (percent before fixed_cart), then the smaller amount
 * first; otherwise in the order they were applied. Never changes `coupons`.
 */
export function sortCouponsForDiscount (coupons: readonly Coupon[]): Coupon[] {
  return coupons
    .map((coupon, index) => ({ coupon, index }))
    .sort((a, b) => ((COUPON_SORT[a.coupon.discountType] ?? 0) - (COUPON_SORT[b.coupon.discountType] ?? 0)) ||
      (a.coupon.amount - b.coupon.amount) || (a.index - b.index))
    .map(({ coupon }) => coupon)
}

/**
 * The notice a cart shows when an applied coupon stops validating and is removed from it, as WooCommerce's
 * check_cart_coupons words it.
 */
export function couponRemovedMessage (code: string, reason: string): string {
  return `The "${code}" coupon has been removed from your cart: ${reason}`
}
