import { giftTierOf, rewardMark } from './marks.ts'
import { adjustedAmounts, type CartAdjustments, type LineAdjuster, type TierAdjuster } from './adjustments.ts'
import { lineStockId } from './cart.ts'
import { backorderNotice, effectivePrice, GUEST_VIEWER, isPurchasable } from './catalog.ts'
import type { Viewer } from './catalog.ts'
import { sortCouponsForDiscount, validateCoupon } from './coupons.ts'
import { computeDiscounts } from './discounts.ts'
import { quantityLimits } from './quantity.ts'
import { taxOn } from './rounding.ts'
import type { CartView, CartViewLine } from './cart-view.ts'
import { rewardDiscountCoupon } from './rewards.ts'
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
 * With `adjuster` (the drawer's line adjustments: bundles) each line's adjustments come off it before the coupons
 * (`PricedLine.lineOwnDiscount`). With `tiers` (the drawer's reward tiers, see `CartRewards.adjust` of the commerce
 * port) the cart is priced once without them, the tiers answer their `CartAdjustments` for its view (`tierView`), and
 * it is priced again with them applied as any host applies them: gift lines at zero, the discount tier off what the
 * coupons left (listed with the coupons under its reward coupon code), the shipping waived (the free-shipping rate
 * offered); the tiers' outcome is `PricedCart.rewards`.
 */
export function priceCart (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer = GUEST_VIEWER,
  tiers: TierAdjuster | null = null,
  adjuster: LineAdjuster | null = null
): PricedCart {
  const withoutRewards = priceWith(cart, products, coupons, config, now, viewer, null, adjuster)
  if (tiers === null) return withoutRewards
  const adjustments = tiers(tierView(cart, withoutRewards, products, viewer, config))
  if (adjustments === null) return withoutRewards
  return { ...priceWith(cart, products, coupons, config, now, viewer, adjustments, adjuster), rewards: adjustments.outcome }
}

/**
 * What the tiers do to a cart before its gift lines are brought in step (`syncRewardGifts` with its `gifts`): the
 * adjustments `priceCart` applies, or null while no tier is configured.
 */
export function tierAdjustments (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer,
  tiers: TierAdjuster,
  adjuster: LineAdjuster | null = null
): CartAdjustments | null {
  return tiers(tierView(cart, priceWith(cart, products, coupons, config, now, viewer, null, adjuster), products, viewer, config))
}

/** A priced cart as the drawer's conditions and tiers read it (each line's mark: a gift line's is `reward:<tierId>`). */
export function cartView (priced: PricedCart): CartView {
  return {
    lines: priced.lines.map(viewLine),
    couponCodes: priced.coupons.flatMap((c) => c.rewardId === undefined ? [c.coupon.code] : [])
  }
}

function viewLine ({ line, parent, unitPrice, lineSubtotal, lineSubtotalTax, lineTotal, lineTotalTax }: PricedLine): CartViewLine {
  return {
    key: line.key,
    productId: line.productId,
    variationId: line.variationId,
    quantity: line.quantity,
    unitPrice,
    subtotal: lineSubtotal,
    subtotalTax: lineSubtotalTax,
    total: lineTotal,
    totalTax: lineTotalTax,
    categoryIds: parent.categories.map((category) => category.id),
    ...(line.mark === undefined ? {} : { mark: line.mark })
  }
}

/**
 * The view the tiers are asked with: the cart priced without them (its gift lines left out, so they take no share
 * of a coupon), with each gift line it holds at its product's price, undiscounted, in the cart's order. A gift line
 * whose product can no longer be bought is not in it (its tier then shows as blocked).
 */
function tierView (cart: CartData, withoutRewards: PricedCart, products: ReadonlyMap<number, Product>, viewer: Viewer, config: ShopConfig): CartView {
  const view = cartView(withoutRewards)
  if (!cart.lines.some((line) => giftTierOf(line.mark) !== undefined)) return view
  const priced = new Map(view.lines.map((line) => [line.key, line]))
  const lines: CartViewLine[] = []
  for (const line of cart.lines) {
    const tierId = giftTierOf(line.mark)
    if (tierId === undefined) {
      const seen = priced.get(line.key)
      if (seen !== undefined) lines.push(seen)
      continue
    }
    const r = resolveLine(line, products, viewer)
    if ('reason' in r) continue
    const subtotal = r.unitPrice * line.quantity
    const tax = taxOn(subtotal, config.taxRatePercent)
    lines.push({
      key: line.key,
      productId: line.productId,
      variationId: line.variationId,
      quantity: line.quantity,
      unitPrice: r.unitPrice,
      subtotal,
      subtotalTax: tax,
      total: subtotal,
      totalTax: tax,
      categoryIds: r.parent.categories.map((category) => category.id),
      mark: rewardMark(tierId)
    })
  }
  return { ...view, lines }
}

function priceWith (
  cart: CartData,
  products: ReadonlyMap<number, Product>,
  coupons: ReadonlyMap<string, Coupon>,
  config: ShopConfig,
  now: Date,
  viewer: Viewer,
  tiers: CartAdjustments | null,
  adjuster: LineAdjuster | null
): PricedCart {
  const rate = config.taxRatePercent
  const errors: CartError[] = []
  const resolved: ResolvedLine[] = []
  const earned = new Set(tiers?.gifts.map((gift) => gift.id) ?? [])
  const giftLines = new Set(tiers?.lines.map((adjustment) => adjustment.lineKey) ?? [])
  for (const line of cart.lines) {
    // A gift line counts only while its tier is earned, and then at zero (its adjustment is its whole subtotal);
    // otherwise it is left out (the next change removes it).
    const tierId = giftTierOf(line.mark)
    if (tierId !== undefined && !earned.has(tierId)) continue
    const r = resolveLine(line, products, viewer)
    if ('reason' in r) errors.push(r)
    else if (tierId === undefined) resolved.push(r)
    else if (giftLines.has(line.key)) resolved.push({ ...r, unitPrice: 0 })
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
    ...(line.mark === undefined ? {} : { mark: line.mark })
  })), adjuster)
  const ownDiscounts = resolved.map((r) => adjusted.get(r.line.key) ?? 0)
  // Coupons discount in WooCommerce's order (percent before fixed_cart), whatever order they were applied in; the
  // cart lists them in the order they were applied.
  const discounts = computeDiscounts(subtotals.map((amount, i) => amount - (ownDiscounts[i] ?? 0)), sortCouponsForDiscount(validCoupons), rate)
  // The discount tier comes off what the coupons left, as its cart adjustment shares it among the lines.
  const tierOff = new Map<string, number>()
  for (const adjustment of tiers?.cart ?? []) {
    for (const { lineKey, amount } of adjustment.lines) tierOff.set(lineKey, (tierOff.get(lineKey) ?? 0) + amount)
  }
  const tierDiscounts = resolved.map((r) => tierOff.get(r.line.key) ?? 0)

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
    const lineDiscount = lineOwnDiscount + (discounts.lineDiscounts[i] ?? 0) + (tierDiscounts[i] ?? 0)
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
  const tierDiscount = tiers?.outcome.discount ?? null
  if (tierDiscount !== null) {
    for (const adjustment of tiers!.cart) {
      // The tax it removes: per line, the tax on what the coupons left minus the tax on what the tier leaves.
      const offs = new Map(adjustment.lines.map(({ lineKey, amount }) => [lineKey, amount]))
      let discountTax = 0
      resolved.forEach((r, i) => {
        const off = offs.get(r.line.key) ?? 0
        if (off === 0) return
        const before = (subtotals[i] ?? 0) - (ownDiscounts[i] ?? 0) - (discounts.lineDiscounts[i] ?? 0)
        discountTax += taxOn(before, rate) - taxOn(before - off, rate)
      })
      pricedCoupons.push({ coupon: rewardDiscountCoupon(tierDiscount), discount: adjustment.amount, discountTax, rewardId: tierDiscount.id })
    }
  }
  const freeShipping = validCoupons.some((c) => c.freeShipping) || (tiers?.shipping.length ?? 0) > 0
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
