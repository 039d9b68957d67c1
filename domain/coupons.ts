import { normaliseCouponCode } from './cart.ts'
import { DEFAULT_CURRENCY, formatMoney } from './money.ts'
import { domainError, fail, ok } from './result.ts'
import type { CartData, Coupon, Currency, DomainError, Result } from './types.ts'

export { computeDiscounts, splitProportionally } from './discounts.ts'
export type { CouponDiscount, DiscountResult } from './discounts.ts'

export const COUPON_ERROR = 'woocommerce_rest_cart_coupon_error'

export type CouponErrorReason = 'not_found' | 'already_applied' | 'usage_limit' | 'expired' | 'minimum_spend' | 'not_applied'

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

function couponError (reason: CouponErrorReason, message: string): DomainError {
  return domainError(COUPON_ERROR, message, 400, { reason })
}

/** Whether the coupon's expiry lies before `now` (an unreadable expiry counts as expired). */
export function isCouponExpired (coupon: Coupon, now: Date): boolean {
  if (coupon.expiresAt === null) return false
  const expires = Date.parse(coupon.expiresAt)
  return Number.isNaN(expires) || now.getTime() > expires
}

/**
 * Whether `coupon` can apply, in WooCommerce's order: it exists, is not applied yet, its usage limit is not
 * reached, it has not expired, the subtotal meets its minimum spend. Every error is 400
 * `woocommerce_rest_cart_coupon_error` with `data.reason`.
 */
export function validateCoupon (coupon: Coupon | null | undefined, context: CouponContext): DomainError | null {
  const code = normaliseCouponCode(context.code)
  if (coupon == null || normaliseCouponCode(coupon.code) !== code) {
    return couponError('not_found', `Coupon "${code}" does not exist!`)
  }
  if (context.appliedCodes.some((c) => normaliseCouponCode(c) === code)) {
    return couponError('already_applied', `Coupon code "${code}" already applied!`)
  }
  if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) {
    return couponError('usage_limit', 'Coupon usage limit has been reached.')
  }
  if (isCouponExpired(coupon, context.now)) {
    return couponError('expired', 'This coupon has expired.')
  }
  if (coupon.minimumAmount !== null && coupon.minimumAmount > 0 && context.subtotal < coupon.minimumAmount) {
    const minimum = formatMoney(coupon.minimumAmount, context.currency ?? DEFAULT_CURRENCY)
    return couponError('minimum_spend', `The minimum spend for this coupon is ${minimum}.`)
  }
  return null
}

/** `appliedCodes` is optional when applying: the cart's own coupons always count as applied. */
export type ApplyCouponContext = Omit<CouponContext, 'appliedCodes'> & { appliedCodes?: readonly string[] }

/** Validates `coupon` against the cart's applied codes and appends its normalised code. Never changes `cart`. */
export function applyCoupon (cart: CartData, coupon: Coupon | null | undefined, context: ApplyCouponContext): Result<CartData> {
  const error = validateCoupon(coupon, { ...context, appliedCodes: [...cart.coupons, ...(context.appliedCodes ?? [])] })
  if (error !== null) return fail(error)
  return ok({ lines: cart.lines.map((l) => ({ ...l, variation: { ...l.variation } })), coupons: [...cart.coupons, normaliseCouponCode(context.code)] })
}

/** Removes an applied coupon; one that is not applied → 400 `woocommerce_rest_cart_coupon_error`, reason 'not_applied'. */
export function removeCoupon (cart: CartData, code: string): Result<CartData> {
  const normalised = normaliseCouponCode(code)
  if (!cart.coupons.some((c) => normaliseCouponCode(c) === normalised)) {
    return fail(couponError('not_applied', 'Coupon cannot be removed because it is not already applied to the cart.'))
  }
  return ok({
    lines: cart.lines.map((l) => ({ ...l, variation: { ...l.variation } })),
    coupons: cart.coupons.filter((c) => normaliseCouponCode(c) !== normalised)
  })
}
