import { adjustedAmounts, type LineAdjuster } from './adjustments.ts'
import { lineStockId } from './cart.ts'
import { backorderNotice, effectivePrice, GUEST_VIEWER, isPurchasable } from './catalog.ts'
import type { Viewer } from './catalog.ts'
import { sortCouponsForDiscount, validateCoupon } from './coupons.ts'
import { computeDiscounts } from './discounts.ts'
import { quantityLimits } from './quantity.ts'
import { taxOn } from './rounding.ts'
import { rewardCouponCode, type RewardOutcome } from './rewards.ts'
import type { CartData, CartLine, Coupon, PricedCart, PricedCoupon, PricedFee, PricedLine, Product, ShopConfig } from './types.ts'

type CartError = PricedCart['errors'][number]

/** The platform's shipping rates: a flat rate, and free shipping while a free-shipping coupon applies. */
export const FLAT_RATE = 'flat_rate:1'
export const FREE_SHIPPING_RATE = 'free_shipping:1'

/** The rate ids the one package is offered, the default (the first) first. */
export function offeredShippingRates (freeShipping: boolean): string[] {
  return freeShipping ? [FREE_SHIPPING_RATE, FLAT_RATE] : [FLAT_RATE]
}

/**
 * The rate chosen for package 0: the one `cart/select-shipping-rate` stored while it is offered, else the first
 * offered (WooCommerce's default when the chosen method is no longer available).
 */
export function chosenShippingRate (cart: CartData, freeShipping: boolean): string {
  const offered = offeredShippingRates(freeShipping)
  const chosen = cart.shippingRates?.['0']
  return chosen !== undefined && offered.includes(chosen) ? chosen : offered[0]!
}

interface ResolvedLine {
  line: CartLine
  product: Product
  parent: Product
  unitPrice: number
}

const sum = (values: readonly number[]): number => values.reduce((total, v) => total + v, 0)

/** The line's priced product and parent, or an error when either is gone or can no longer be bought. */
function resolveLine (line: CartLine, products: ReadonlyMap<number, Product>, viewer: Viewer): ResolvedLine | CartError {
  const isVariation = line.variationId !== 0
  const product = products.get(isVariation ? line.variationId : line.productId)
  const parent = isVariation ? products.get(line.productId) : product
  if (product === undefined || parent === undefined) {
    return { reason: 'line_product_missing', message: 'An item which is no longer available was removed from your cart.' }
  }
  const unitPrice = effectivePrice(product)
  const consistent = isVariation
    ? product.type === 'variation' && product.parentId === parent.id
    : product.type !== 'variation'
  if (!consistent || unitPrice === null || !isPurchasable(product, viewer, isVariation ? parent : undefined)) {
    return {
      reason: 'line_product_unpurchasable',
      message: `"${product.name}" has been removed from your cart because it can no longer be purchased.`
    }
  }
  return { line, product, parent, unitPrice }
}

/**
 * Prices a stored cart. Lines whose product, variation or parent is missing or no longer purchasable are left out,
 * and applied coupons that no longer validate (missing, usage limit, expired, minimum spend) are dropped, each
 * reported in `errors`. Taxes are computed per line on its subtotal and on its total; fees apply to a non-empty
 * cart; a non-empty cart needs shipping at the flat rate unless a free-shipping coupon applies. Integers throughout.
 * With `rewards` (the drawer's reward tiers, see `CartRewards` of the commerce port) the cart is priced once without
 * them, the evaluator says what that cart earns, and it is priced again with the grants: free shipping, the discount
 * reward after the coupons, gift lines at zero; the outcome is `PricedCart.rewards`. With `adjuster` (the drawer's line
 * adjustments: bundles) each line's adjustments come off it before the coupons (`PricedLine.lineOwnDiscount`).
 */
export function priceCart (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer = GUEST_VIEWER,
  rewards: RewardEvaluator | null = null,
  adjuster: LineAdjuster | null = null
): PricedCart {
  const withoutRewards = priceWith(cart, products, coupons, config, now, viewer, null, adjuster)
  if (rewards === null) return withoutRewards
  const evaluated = rewards(withoutRewards)
  const priced = priceWith(cart, products, coupons, config, now, viewer, evaluated, adjuster)
  // A gift is earned only once its line is in the cart (the change that reaches the tier adds it): until then the
  // tier is not shown as reached, so the drawer never promises a gift the cart does not hold.
  const held = new Set(priced.lines.flatMap(({ line }) => line.rewardId === undefined ? [] : [line.rewardId]))
  const missing = new Set(evaluated.gifts.filter((gift) => !held.has(gift.id)).map((gift) => gift.id))
  const outcome: RewardOutcome = missing.size === 0
    ? evaluated
    : {
        ...evaluated,
        tiers: evaluated.tiers.map((tier) => missing.has(tier.id) ? { ...tier, reached: false, blocked: true } : tier),
        gifts: evaluated.gifts.filter((gift) => !missing.has(gift.id))
      }
  return { ...priced, rewards: outcome }
}

/**
 * What a cart earns before its gift lines are brought in step (`syncRewardGifts`): the evaluation `priceCart` starts
 * from, without its check that each earned gift's line is present.
 */
export function rewardsEarned (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer,
  rewards: RewardEvaluator,
  adjuster: LineAdjuster | null = null
): RewardOutcome {
  return rewards(priceWith(cart, products, coupons, config, now, viewer, null, adjuster))
}

/**
 * The reward program as the totals ask it: given the cart priced without rewards (no gift lines, no reward
 * discount), what it earns (domain/rewards.ts `evaluateRewards`, with the viewer's conditions bound).
 */
export type RewardEvaluator = (withoutRewards: PricedCart) => RewardOutcome

/** A discount reward as the coupon it is applied as (after the shopper's coupons, on what they left). */
function rewardCoupon (discount: NonNullable<RewardOutcome['discount']>): Coupon {
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

function priceWith (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer,
  outcome: RewardOutcome | null,
  adjuster: LineAdjuster | null
): PricedCart {
  const rate = config.taxRatePercent
  const errors: CartError[] = []
  const resolved: ResolvedLine[] = []
  const gifts = new Set(outcome?.gifts.map((gift) => gift.id) ?? [])
  for (const line of cart.lines) {
    // A gift line counts only while its tier is reached, and then at zero; otherwise it is left out (the next change
    // removes it).
    if (line.rewardId !== undefined && !gifts.has(line.rewardId)) continue
    const r = resolveLine(line, products, viewer)
    if ('reason' in r) errors.push(r)
    else resolved.push(line.rewardId === undefined ? r : { ...r, unitPrice: 0 })
  }

  const subtotals = resolved.map((r) => r.unitPrice * r.line.quantity)
  const subtotal = sum(subtotals)

  const validCoupons: Coupon[] = []
  for (const code of new Set(cart.coupons)) {
    const coupon = coupons.get(code)
    const error = validateCoupon(coupon, { code, subtotal, now, appliedCodes: [], currency: config.currency })
    if (error !== null) errors.push({ reason: error.reason, message: error.message })
    else if (coupon !== undefined) validCoupons.push(coupon)
  }
  // The drawer's line adjustments (bundles) come first; coupons discount what remains.
  const adjusted = adjustedAmounts(resolved.map(({ line, unitPrice }) => ({
    key: line.key,
    productId: line.productId,
    variationId: line.variationId,
    quantity: line.quantity,
    unitPrice,
    ...(line.group === undefined ? {} : { group: line.group })
  })), adjuster)
  const ownDiscounts = resolved.map((r) => adjusted.get(r.line.key) ?? 0)
  // Coupons discount in WooCommerce's order (percent before fixed_cart), whatever order they were applied in; the
  // cart lists them in the order they were applied.
  const rewardCoupons = outcome?.discount ? [rewardCoupon(outcome.discount)] : []
  const discounts = computeDiscounts(subtotals.map((amount, i) => amount - (ownDiscounts[i] ?? 0)), [...sortCouponsForDiscount(validCoupons), ...rewardCoupons], rate)

  // Units per stock item, and per stock item and line key, so each line's `alreadyInCart` (the units other lines
  // hold of its stock) is one subtraction instead of a pass over every line: a 100-line cart made 10,000 checks.
  const unitsByStock = new Map<number, number>()
  const unitsByStockAndKey = new Map<string, number>()
  for (const { line } of resolved) {
    const stockId = lineStockId(line)
    const key = `${stockId}:${line.key}`
    unitsByStock.set(stockId, (unitsByStock.get(stockId) ?? 0) + line.quantity)
    unitsByStockAndKey.set(key, (unitsByStockAndKey.get(key) ?? 0) + line.quantity)
  }

  const lines: PricedLine[] = resolved.map((r, i) => {
    const lineSubtotal = subtotals[i] ?? 0
    const lineOwnDiscount = ownDiscounts[i] ?? 0
    const lineDiscount = lineOwnDiscount + (discounts.lineDiscounts[i] ?? 0)
    const lineTotal = lineSubtotal - lineDiscount
    const lineSubtotalTax = taxOn(lineSubtotal, rate)
    const lineTotalTax = taxOn(lineTotal, rate)
    const stockId = lineStockId(r.line)
    const alreadyInCart = unitsByStock.get(stockId)! - unitsByStockAndKey.get(`${stockId}:${r.line.key}`)!
    return {
      line: r.line,
      product: r.product,
      parent: r.parent,
      unitPrice: r.unitPrice,
      quantityLimits: quantityLimits(r.product, { alreadyInCart }),
      backorderNotice: backorderNotice(r.product, alreadyInCart + r.line.quantity),
      lineSubtotal,
      lineSubtotalTax,
      lineDiscount,
      lineOwnDiscount,
      lineDiscountTax: lineSubtotalTax - lineTotalTax,
      lineTotal,
      lineTotalTax
    }
  })

  const nonEmpty = lines.length > 0
  const fees: PricedFee[] = nonEmpty
    ? config.fees.map((fee) => ({ fee, tax: fee.taxable ? taxOn(fee.amount, rate) : 0 }))
    : []
  const pricedCoupons: PricedCoupon[] = validCoupons.map((coupon) => discounts.coupons.find((c) => c.coupon === coupon)!)
    .map((c) => ({ coupon: c.coupon, discount: c.discount, discountTax: c.discountTax }))
  for (const coupon of rewardCoupons) {
    const applied = discounts.coupons.find((c) => c.coupon === coupon)!
    pricedCoupons.push({ coupon, discount: applied.discount, discountTax: applied.discountTax, rewardId: outcome!.discount!.id })
  }
  const freeShipping = validCoupons.some((c) => c.freeShipping) || (outcome?.freeShipping ?? false)
  const needsShipping = nonEmpty
  const totalShipping = needsShipping && chosenShippingRate(cart, freeShipping) === FLAT_RATE ? config.shippingFlatRate : 0
  const totalShippingTax = taxOn(totalShipping, rate)

  const totalFees = sum(fees.map((f) => f.fee.amount))
  const totalFeesTax = sum(fees.map((f) => f.tax))
  const linesTotal = sum(lines.map((l) => l.lineTotal))
  const linesTotalTax = sum(lines.map((l) => l.lineTotalTax))
  const totalTax = linesTotalTax + totalFeesTax + totalShippingTax

  return {
    lines,
    coupons: pricedCoupons,
    fees,
    totals: {
      totalItems: sum(lines.map((l) => l.lineSubtotal)),
      totalItemsTax: sum(lines.map((l) => l.lineSubtotalTax)),
      totalFees,
      totalFeesTax,
      totalDiscount: sum(lines.map((l) => l.lineDiscount)),
      totalDiscountTax: sum(lines.map((l) => l.lineDiscountTax)),
      totalShipping,
      totalShippingTax,
      totalPrice: linesTotal + linesTotalTax + totalFees + totalFeesTax + totalShipping + totalShippingTax,
      totalTax,
      taxLines: rate > 0 && nonEmpty ? [{ name: config.taxLabel, price: totalTax, rate: `${rate}%` }] : []
    },
    itemsCount: sum(lines.map((l) => l.line.quantity)),
    needsShipping,
    freeShipping,
    errors,
    rewards: null
  }
}
