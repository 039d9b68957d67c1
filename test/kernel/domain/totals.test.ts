import { test } from 'tap'
import type { AdjustableLine } from '../../../kernel/domain/adjustments.ts'
import { addToCart, cartItemKey, emptyCart } from '../../../kernel/domain/cart.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { CartData, CartLine, Coupon, Product } from '../../../kernel/domain/types.ts'
import { makeConfig, makeCoupon, makeProduct, makeVariableParent, makeVariation, NOW } from './fixtures.ts'

function line (productId: number, quantity: number, variationId = 0, variation: Record<string, string> = {}): CartLine {
  return { key: cartItemKey(productId, variationId, variation), productId, variationId, variation, quantity }
}

function catalog (...products: Product[]): Map<number, Product> {
  return new Map(products.map((p) => [p.id, p]))
}

function couponMap (...coupons: Coupon[]): Map<string, Coupon> {
  return new Map(coupons.map((c) => [c.code, c]))
}

const mug = makeProduct({ id: 1, name: 'Mug', regularPrice: 1000, salePrice: 850 })
const parent = makeVariableParent()
const tee = makeVariation({ id: 11, regularPrice: 2000 })
const products = catalog(mug, parent, tee)

test('a full cart: tax, discount, fees and shipping', async (t) => {
  const cart: CartData = {
    lines: [line(1, 3), line(10, 1, 11, { pa_color: 'Red', pa_size: 'S' })],
    coupons: ['save10']
  }
  const config = makeConfig({
    taxRatePercent: 10,
    taxLabel: 'VAT',
    shippingFlatRate: 500,
    fees: [
      { id: 'handling', name: 'Handling', amount: 200, taxable: true },
      { id: 'eco', name: 'Eco fee', amount: 50, taxable: false }
    ]
  })
  const priced = priceCart(cart, products, couponMap(makeCoupon({ code: 'save10', amount: 10 })), config, NOW)

  // Mug: 3 × 850 (on sale) = 2550, tax 255; 10 % off = 255 → 2295, tax 229.5 → 230; discount tax 25.
  const [m, s] = priced.lines
  t.same(m && [m.unitPrice, m.lineSubtotal, m.lineSubtotalTax, m.lineDiscount, m.lineTotal, m.lineTotalTax, m.lineDiscountTax],
    [850, 2550, 255, 255, 2295, 230, 25])
  // T-shirt: 2000, tax 200; 10 % off = 200 → 1800, tax 180; discount tax 20.
  t.same(s && [s.unitPrice, s.lineSubtotal, s.lineSubtotalTax, s.lineDiscount, s.lineTotal, s.lineTotalTax, s.lineDiscountTax],
    [2000, 2000, 200, 200, 1800, 180, 20])
  t.equal(s?.product.id, 11, 'variation priced')
  t.equal(s?.parent.id, 10, 'with its parent')
  t.equal(m?.parent.id, 1, 'a simple product is its own parent')
  t.same(m?.quantityLimits, { minimum: 1, maximum: 9999, multipleOf: 1, editable: true, unlimited: true })
  t.equal(m?.backorderNotice, '')

  t.same(priced.fees.map((f) => [f.fee.id, f.tax]), [['handling', 20], ['eco', 0]], 'only the taxable fee is taxed')
  t.same(priced.coupons.map((c) => [c.coupon.code, c.discount, c.discountTax]), [['save10', 455, 45]])
  // Total tax: 230 + 180 lines, 20 fee, 50 shipping = 480.
  // Total: lines 2295 + 1800 = 4095, their tax 410, fees 250 + 20, shipping 500 + 50 → 5325.
  t.same(priced.totals, {
    totalItems: 4550,
    totalItemsTax: 455,
    totalFees: 250,
    totalFeesTax: 20,
    totalDiscount: 455,
    totalDiscountTax: 45,
    totalShipping: 500,
    totalShippingTax: 50,
    totalPrice: 5325,
    totalTax: 480,
    taxLines: [{ name: 'VAT', price: 480, rate: '10%' }]
  })
  t.equal(priced.itemsCount, 4)
  t.equal(priced.needsShipping, true)
  t.equal(priced.freeShipping, false)
  t.same(priced.errors, [])
})

test('no tax: no tax lines; fractional rates are written as given', async (t) => {
  const cart: CartData = { lines: [line(1, 1)], coupons: [] }
  const untaxed = priceCart(cart, products, new Map(), makeConfig(), NOW)
  t.same(untaxed.totals.taxLines, [])
  t.equal(untaxed.totals.totalPrice, 850)
  const taxed = priceCart(cart, products, new Map(), makeConfig({ taxRatePercent: 7.25 }), NOW)
  // 850 × 7.25 % = 61.625 → 62.
  t.equal(taxed.lines[0]?.lineTotalTax, 62)
  t.same(taxed.totals.taxLines, [{ name: 'Tax', price: 62, rate: '7.25%' }])
  t.equal(taxed.totals.totalPrice, 912)
})

test('an empty cart: no fees, no shipping, no tax lines', async (t) => {
  const config = makeConfig({ taxRatePercent: 10, shippingFlatRate: 500, fees: [{ id: 'h', name: 'Handling', amount: 200, taxable: true }] })
  const priced = priceCart(emptyCart(), products, new Map(), config, NOW)
  t.same(priced.fees, [])
  t.equal(priced.needsShipping, false)
  t.same(priced.totals, {
    totalItems: 0,
    totalItemsTax: 0,
    totalFees: 0,
    totalFeesTax: 0,
    totalDiscount: 0,
    totalDiscountTax: 0,
    totalShipping: 0,
    totalShippingTax: 0,
    totalPrice: 0,
    totalTax: 0,
    taxLines: []
  })
  t.equal(priced.itemsCount, 0)
})

test('a free-shipping coupon waives shipping and its tax', async (t) => {
  const cart: CartData = { lines: [line(1, 2)], coupons: ['shipfree'] }
  const coupon = makeCoupon({ code: 'shipfree', discountType: 'fixed_cart', amount: 0, freeShipping: true })
  const config = makeConfig({ taxRatePercent: 20, shippingFlatRate: 700 })
  const priced = priceCart(cart, products, couponMap(coupon), config, NOW)
  t.equal(priced.freeShipping, true)
  t.equal(priced.needsShipping, true, 'still needs shipping, just free')
  t.equal(priced.totals.totalShipping, 0)
  t.equal(priced.totals.totalShippingTax, 0)
  // 2 × 850 = 1700 + 20 % = 340 → 2040.
  t.equal(priced.totals.totalPrice, 2040)
  const paid = priceCart({ ...cart, coupons: [] }, products, couponMap(coupon), config, NOW)
  t.equal(paid.totals.totalShipping, 700)
  t.equal(paid.totals.totalShippingTax, 140)
  t.equal(paid.totals.totalPrice, 2880, '1700 + 340 + 700 + 140')
})

test('fixed coupon split across three lines sums exactly', async (t) => {
  const a = makeProduct({ id: 21, regularPrice: 333 })
  const b = makeProduct({ id: 22, regularPrice: 333 })
  const c = makeProduct({ id: 23, regularPrice: 334 })
  const cart: CartData = { lines: [line(21, 1), line(22, 1), line(23, 1)], coupons: ['ten', 'one'] }
  const coupons = couponMap(
    makeCoupon({ code: 'one', discountType: 'fixed_cart', amount: 100 }),
    makeCoupon({ code: 'ten', discountType: 'fixed_cart', amount: 1000 })
  )
  const priced = priceCart(cart, catalog(a, b, c), coupons, makeConfig(), NOW)
  t.same(priced.lines.map((l) => l.lineDiscount), [333, 333, 334], '$10 takes everything')
  t.same(priced.coupons.map((x) => [x.coupon.code, x.discount]), [['ten', 900], ['one', 100]],
    'listed in applied order; the smaller fixed_cart coupon discounts first (WooCommerce)')
  t.equal(priced.totals.totalPrice, 0)
  const one = priceCart({ ...cart, coupons: ['one'] }, catalog(a, b, c), coupons, makeConfig(), NOW)
  t.same(one.lines.map((l) => l.lineDiscount), [33, 33, 34])
  t.equal(one.totals.totalDiscount, 100)
  t.equal(one.totals.totalPrice, 900)
})

test('lines whose product is gone or no longer purchasable are left out and reported', async (t) => {
  const draft = makeProduct({ id: 2, name: 'Old Mug', status: 'draft' })
  const cart: CartData = {
    lines: [
      line(1, 1),
      line(99, 1),
      line(2, 1),
      line(10, 1, 11, { pa_color: 'Red', pa_size: 'S' }),
      line(30, 1, 31, {})
    ],
    coupons: []
  }
  const draftParent = makeVariableParent({ status: 'draft' })
  const orphan = makeVariation({ id: 31, parentId: 30 })
  const priced = priceCart(cart, catalog(mug, draft, draftParent, tee, orphan), new Map(), makeConfig(), NOW)
  t.same(priced.lines.map((l) => l.line.productId), [1], 'only the mug is left')
  t.equal(priced.itemsCount, 1)
  t.equal(priced.totals.totalPrice, 850)
  t.same(priced.errors, [
    { reason: 'line_product_missing', message: 'An item which is no longer available was removed from your cart.' },
    { reason: 'line_product_unpurchasable', message: '"Old Mug" has been removed from your cart because it can no longer be purchased.' },
    { reason: 'line_product_unpurchasable', message: '"T-shirt - Red, S" has been removed from your cart because it can no longer be purchased.' },
    { reason: 'line_product_missing', message: 'An item which is no longer available was removed from your cart.' }
  ])
  const priv = makeProduct({ id: 3, name: 'Staff Mug', status: 'private' })
  const staffCart: CartData = { lines: [line(3, 1)], coupons: [] }
  t.equal(priceCart(staffCart, catalog(priv), new Map(), makeConfig(), NOW).lines.length, 0, 'private product for a guest')
  t.equal(priceCart(staffCart, catalog(priv), new Map(), makeConfig(), NOW, { canReadPrivate: true }).lines.length, 1, 'for staff')
  const swapped: CartData = { lines: [line(1, 1, 11, {})], coupons: [] }
  t.equal(priceCart(swapped, products, new Map(), makeConfig(), NOW).errors.length, 1, 'variation that is not the product\'s')
})

test('coupons that no longer validate are dropped with an error', async (t) => {
  const cart: CartData = { lines: [line(1, 4)], coupons: ['ghost', 'old', 'big', 'used', 'save10'] }
  const coupons = couponMap(
    makeCoupon({ code: 'old', expiresAt: '2026-01-01T00:00:00Z' }),
    makeCoupon({ code: 'big', minimumAmount: 5000 }),
    makeCoupon({ code: 'used', usageLimit: 1, usageCount: 1 }),
    makeCoupon({ code: 'save10', amount: 10 })
  )
  const priced = priceCart(cart, products, coupons, makeConfig(), NOW)
  // Subtotal 4 × 850 = 3400 < $50.00.
  t.same(priced.errors, [
    { reason: 'coupon_not_found', message: 'Coupon "ghost" does not exist!' },
    { reason: 'coupon_expired', message: 'This coupon has expired.' },
    { reason: 'coupon_minimum_spend', message: 'The minimum spend for this coupon is $50.00.' },
    { reason: 'coupon_usage_limit', message: 'Usage limit for coupon "used" has been reached.' }
  ])
  t.same(priced.coupons.map((c) => [c.coupon.code, c.discount]), [['save10', 340]], 'the valid coupon stays')
  t.equal(priced.totals.totalPrice, 3060)
  const enough = priceCart({ ...cart, lines: [line(1, 6)] }, products, coupons, makeConfig(), NOW)
  // 6 × 850 = 5100 ≥ 5000: 'big' (10 %) applies on 5100 → 510, then save10 on 4590 → 459.
  t.same(enough.coupons.map((c) => [c.coupon.code, c.discount]), [['big', 510], ['save10', 459]])
})

test('minimum spend counts only the lines still in the cart', async (t) => {
  const cart: CartData = { lines: [line(1, 4), line(99, 10)], coupons: ['big'] }
  const priced = priceCart(cart, products, couponMap(makeCoupon({ code: 'big', minimumAmount: 5000 })), makeConfig(), NOW)
  t.same(priced.coupons, [])
  t.equal(priced.errors.length, 2, 'the vanished line and the coupon')
})

test('per-line quantity limits and backorder notices see the other lines', async (t) => {
  const anySize = makeVariation({
    id: 12,
    name: 'T-shirt - Blue',
    variationAttributes: { pa_color: 'Blue', pa_size: '' },
    manageStock: true,
    stockQuantity: 5
  })
  const family = catalog(parent, anySize)
  let cart = emptyCart()
  for (const [size, quantity] of [['S', 2], ['M', 1]] as const) {
    const r = addToCart(cart, { product: anySize, parent, quantity, variation: { pa_color: 'Blue', pa_size: size } })
    if (!r.ok) throw new Error(r.error.message)
    cart = r.value.cart
  }
  const priced = priceCart(cart, family, new Map(), makeConfig(), NOW)
  t.same(priced.lines.map((l) => l.quantityLimits.maximum), [4, 3], '5 in stock: 5 − 1 and 5 − 2')
  t.same(priced.lines.map((l) => l.quantityLimits.unlimited), [false, false])

  const notify = makeProduct({ id: 40, manageStock: true, stockQuantity: 2, backorders: 'notify', backorderNotice: '<em>Ships in May</em>' })
  const backordered = priceCart({ lines: [line(40, 3)], coupons: [] }, catalog(notify), new Map(), makeConfig(), NOW)
  t.equal(backordered.lines[0]?.backorderNotice, 'Ships in May', '3 wanted, 2 in stock')
  t.equal(priceCart({ lines: [line(40, 2)], coupons: [] }, catalog(notify), new Map(), makeConfig(), NOW).lines[0]?.backorderNotice, '')
})

test('a line discount (bundle) comes before coupons, and grouped lines never merge with ordinary ones', async (t) => {
  const { addToCart } = await import('../../../kernel/domain/cart.ts')
  const { priceCart } = await import('../../../kernel/domain/totals.ts')
  const { makeProduct, makeCoupon, makeConfig, NOW } = await import('./fixtures.ts')
  const mug = makeProduct({ id: 1, regularPrice: 1000 })
  let cart = { lines: [], coupons: [] } as import('../../../kernel/domain/types.ts').CartData
  const ordinary = addToCart(cart, { product: mug, parent: mug, quantity: 1 })
  t.ok(ordinary.ok)
  if (!ordinary.ok) return
  cart = ordinary.value.cart
  const bundled = addToCart(cart, { product: mug, parent: mug, quantity: 2, mark: 'bundle:starter' })
  t.ok(bundled.ok)
  if (!bundled.ok) return
  cart = { ...bundled.value.cart, coupons: ['half'] }
  t.equal(cart.lines.length, 2, 'a line of its own')
  t.not(cart.lines[0]!.key, cart.lines[1]!.key)
  t.equal(cart.lines[1]!.mark, 'bundle:starter')

  // The drawer's line adjuster: 10 % off the line of the bundle's group.
  const adjuster = (lines: readonly AdjustableLine[]) => lines.filter((line) => line.mark === 'bundle:starter')
    .map((line) => ({ lineKey: line.key, amount: line.unitPrice * line.quantity / 10, label: 'Starter', rule: 'bundle:starter' }))
  const priced = priceCart(cart, new Map([[1, mug]]), new Map([['half', makeCoupon({ code: 'half', discountType: 'percent', amount: 50 })]]), makeConfig({ taxRatePercent: 0 }), NOW, undefined, null, adjuster)
  const [plain, bundle] = priced.lines
  t.equal(plain!.lineOwnDiscount, 0)
  t.equal(plain!.lineDiscount, 500, 'the coupon halves the ordinary line')
  t.equal(bundle!.lineOwnDiscount, 200, '10 % of 2000')
  t.equal(bundle!.lineDiscount, 200 + 900, 'then the coupon halves the remaining 1800')
  t.equal(priced.totals.totalDiscount, 500 + 1100)
  t.equal(priced.coupons[0]!.discount, 500 + 900, 'the coupon row shows only what the coupon took')
})
