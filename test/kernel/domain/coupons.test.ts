import { test } from 'tap'
import type { Test } from 'tap'
import { emptyCart } from '../../../kernel/domain/cart.ts'
import { applyCoupon, isCouponExpired, removeCoupon, validateCoupon } from '../../../kernel/domain/coupons.ts'
import type { CartData, DomainReason } from '../../../kernel/domain/types.ts'
import { EUR_DE, makeCoupon, NOW, USD } from './fixtures.ts'

const base = { code: 'save10', subtotal: 10000, now: NOW, appliedCodes: [] as string[], currency: USD }

function expectCouponError (t: Test, actual: ReturnType<typeof validateCoupon>, reason: DomainReason, message: string) {
  t.same(actual, { reason, message }, `${reason}: ${message}`)
}

test('validateCoupon: a valid coupon', async (t) => {
  t.equal(validateCoupon(makeCoupon(), base), null)
  t.equal(validateCoupon(makeCoupon(), { ...base, code: '  SAVE10 ' }), null, 'code typed in another case, with spaces')
})

test('validateCoupon: not found', async (t) => {
  expectCouponError(t, validateCoupon(null, { ...base, code: ' Nope ' }), 'coupon_not_found', 'Coupon "nope" does not exist!')
  expectCouponError(t, validateCoupon(undefined, base), 'coupon_not_found', 'Coupon "save10" does not exist!')
  expectCouponError(t, validateCoupon(makeCoupon({ code: 'other' }), base), 'coupon_not_found', 'Coupon "save10" does not exist!')
})

test('validateCoupon: already applied', async (t) => {
  expectCouponError(t, validateCoupon(makeCoupon(), { ...base, code: 'SAVE10', appliedCodes: ['welcome', 'save10'] }),
    'coupon_already_applied', 'Coupon code "save10" has already been applied.')
})

test('validateCoupon: usage limit', async (t) => {
  expectCouponError(t, validateCoupon(makeCoupon({ usageLimit: 5, usageCount: 5 }), base), 'coupon_usage_limit', 'Usage limit for coupon "save10" has been reached.')
  expectCouponError(t, validateCoupon(makeCoupon({ usageLimit: 0 }), base), 'coupon_usage_limit', 'Usage limit for coupon "save10" has been reached.')
  t.equal(validateCoupon(makeCoupon({ usageLimit: 5, usageCount: 4 }), base), null, 'one use left')
})

test('validateCoupon: expiry', async (t) => {
  expectCouponError(t, validateCoupon(makeCoupon({ expiresAt: '2026-06-01T00:00:00Z' }), base), 'coupon_expired', 'This coupon has expired.')
  t.equal(validateCoupon(makeCoupon({ expiresAt: '2026-07-01T00:00:00Z' }), base), null, 'expires later')
  t.equal(validateCoupon(makeCoupon({ expiresAt: NOW.toISOString() }), base), null, 'valid up to its expiry instant')
  t.equal(isCouponExpired(makeCoupon({ expiresAt: 'not a date' }), NOW), true, 'an unreadable expiry counts as expired')
  t.equal(isCouponExpired(makeCoupon({ expiresAt: null }), NOW), false)
  expectCouponError(t, validateCoupon(makeCoupon({ expiresAt: '2026-06-01T00:00:00Z', usageLimit: 1, usageCount: 1 }), base),
    'coupon_usage_limit', 'Usage limit for coupon "save10" has been reached.')
})

test('validateCoupon: minimum spend', async (t) => {
  const coupon = makeCoupon({ minimumAmount: 5000 })
  expectCouponError(t, validateCoupon(coupon, { ...base, subtotal: 4999 }), 'coupon_minimum_spend', 'The minimum spend for this coupon is $50.00.')
  t.equal(validateCoupon(coupon, { ...base, subtotal: 5000 }), null, 'exactly the minimum')
  expectCouponError(t, validateCoupon(makeCoupon({ minimumAmount: 123456 }), { ...base, subtotal: 0, currency: EUR_DE }),
    'coupon_minimum_spend', 'The minimum spend for this coupon is 1.234,56 €.')
  const { currency: _omit, ...noCurrency } = base
  expectCouponError(t, validateCoupon(coupon, { ...noCurrency, subtotal: 0 }), 'coupon_minimum_spend',
    'The minimum spend for this coupon is $50.00.')
  t.equal(validateCoupon(makeCoupon({ minimumAmount: 0 }), { ...base, subtotal: 0 }), null, 'a minimum of 0 is none')
})

test('applyCoupon', async (t) => {
  const cart: CartData = Object.freeze({ lines: [], coupons: Object.freeze(['welcome']) as string[] })
  const applied = applyCoupon(cart, makeCoupon(), { code: ' SAVE10', subtotal: 10000, now: NOW })
  t.same(applied, { ok: true, value: { lines: [], coupons: ['welcome', 'save10'] } }, 'normalised code appended in order')
  t.same(cart.coupons, ['welcome'], 'input unchanged')
  if (!applied.ok) return
  const twice = applyCoupon(applied.value, makeCoupon(), { code: 'save10', subtotal: 10000, now: NOW })
  t.same(twice.ok ? null : twice.error.reason, 'coupon_already_applied', 'applied codes come from the cart')
  const extra = applyCoupon(cart, makeCoupon(), { code: 'save10', subtotal: 10000, now: NOW, appliedCodes: ['save10'] })
  t.same(extra.ok ? null : extra.error.reason, 'coupon_already_applied', 'appliedCodes given by the caller count too')
  const missing = applyCoupon(cart, null, { code: 'x', subtotal: 0, now: NOW })
  t.same(missing.ok ? null : missing.error.message, 'Coupon "x" does not exist!')
})

test('removeCoupon', async (t) => {
  const cart: CartData = { lines: [], coupons: ['welcome', 'save10'] }
  t.same(removeCoupon(cart, ' SAVE10 '), { ok: true, value: { lines: [], coupons: ['welcome'] } })
  t.same(cart.coupons, ['welcome', 'save10'], 'input unchanged')
  const notApplied = removeCoupon(emptyCart(), 'save10')
  t.same(notApplied.ok ? null : notApplied.error, {
    reason: 'coupon_not_applied',
    message: 'Coupon cannot be removed because it is not already applied to the cart.'
  })
})
