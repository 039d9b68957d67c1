import { test } from 'tap'
import type { CartAdjustments } from '../../../kernel/domain/adjustments.ts'
import { cartItemKey } from '../../../kernel/domain/cart.ts'
import type { CartView, CartViewLine } from '../../../kernel/domain/cart-view.ts'
import { rewardAdjustments, type RewardProgram, type RewardTier } from '../../../kernel/domain/rewards.ts'
import { cartView, priceCart } from '../../../kernel/domain/totals.ts'
import type { CartData, CartLine, Coupon, ShopConfig } from '../../../kernel/domain/types.ts'
import { makeConfig, makeCoupon, makeProduct, makeVariableParent, makeVariation, NOW } from './fixtures.ts'

/** The reward tiers as data (`CartAdjustments`) over a view of the cart (`CartView`), and the view of a priced cart. */

const tier = (id: string, kind: RewardTier['kind'], threshold: number, extra: Partial<RewardTier> = {}): RewardTier =>
  ({ id, label: `Tier ${id}`, threshold, kind, amount: 0, productId: 0, ...extra })

const program = (...tiers: RewardTier[]): RewardProgram => ({ basis: { measure: 'subtotal', afterDiscounts: true, includeTax: false }, tiers })

const viewLine = (key: string, subtotal: number, total: number, extra: Partial<CartViewLine> = {}): CartViewLine =>
  ({ key, productId: 1, variationId: 0, quantity: 1, unitPrice: subtotal, subtotal, subtotalTax: 0, total, totalTax: 0, categoryIds: [], ...extra })

// Two shopper lines after a coupon (3000 → 2700, 1001 → 901) and a gift line of tier `tote`, at its price.
const A = viewLine('a', 3000, 2700, { quantity: 3, unitPrice: 1000 })
const B = viewLine('b', 1001, 901)
const GIFT = viewLine('g', 1500, 1500, { productId: 7, mark: 'reward:tote' })
const VIEW: CartView = { lines: [A, B, GIFT], couponCodes: ['save10'] }

test('each reached tier as its adjustment: the gift line free, the discount after the coupons, the shipping waived', async (t) => {
  const adjustments = rewardAdjustments(program(
    tier('ship', 'free_shipping', 3000),
    tier('pct', 'percent_discount', 2000, { amount: 10 }),
    tier('tote', 'gift', 3500, { productId: 7 }),
    tier('far', 'fixed_discount', 9000, { amount: 500 })
  ), VIEW)
  // The basis leaves the gift out: 2700 + 901 = 3601.
  t.equal(adjustments.outcome.basis, 3601)
  t.same(adjustments.lines, [{ lineKey: 'g', amount: 1500, label: 'Tier tote', rule: 'reward:tote' }])
  // 10 % of what the coupon left of each line, rounded half up per line: 270 and 90 (90.1).
  t.same(adjustments.cart, [{ amount: 360, lines: [{ lineKey: 'a', amount: 270 }, { lineKey: 'b', amount: 90 }], label: 'Tier pct', rule: 'reward:pct' }])
  t.same(adjustments.shipping, [{ label: 'Tier ship', rule: 'reward:ship' }])
  t.same(adjustments.gifts, [{ id: 'tote', label: 'Tier tote', productId: 7 }])
  t.same(adjustments.outcome.tiers.map((p) => [p.id, p.reached, p.blocked]), [['ship', true, false], ['pct', true, false], ['tote', true, false], ['far', false, false]])
  t.equal(adjustments.outcome.freeShipping, true)
  t.same(adjustments.outcome.discount, { id: 'pct', label: 'Tier pct', kind: 'percent_discount', amount: 10 })
})

test('a fixed discount is shared in proportion to what each line has left, and never more than the cart has left', async (t) => {
  const fixed = rewardAdjustments(program(tier('low', 'percent_discount', 1000, { amount: 5 }), tier('five', 'fixed_discount', 3000, { amount: 500 })), VIEW)
  // The ladder: the highest reached discount tier applies alone. 500 × 2700 / 3601 = 374.89…, 500 × 901 / 3601 =
  // 125.10…: 374 + 125 = 499, and the cent left goes to the larger remainder (a).
  t.same(fixed.cart, [{ amount: 500, lines: [{ lineKey: 'a', amount: 375 }, { lineKey: 'b', amount: 125 }], label: 'Tier five', rule: 'reward:five' }])
  const capped = rewardAdjustments(program(tier('big', 'fixed_discount', 100, { amount: 5000 })), VIEW)
  t.same(capped.cart, [{ amount: 3601, lines: [{ lineKey: 'a', amount: 2700 }, { lineKey: 'b', amount: 901 }], label: 'Tier big', rule: 'reward:big' }])
})

test('a gift earned without its line grants nothing yet: its tier shows blocked, and the host is told to add it', async (t) => {
  const adjustments = rewardAdjustments(program(tier('tote', 'gift', 100, { productId: 7 })), { lines: [A, B], couponCodes: [] })
  t.same(adjustments.lines, [])
  t.same(adjustments.gifts, [{ id: 'tote', label: 'Tier tote', productId: 7 }])
  t.same(adjustments.outcome.gifts, [])
  t.match(adjustments.outcome.tiers[0], { id: 'tote', reached: false, blocked: true, remaining: 0 })
})

test('gift lines count for nothing: not in the basis, the item count, the emptiness or the conditions', async (t) => {
  const byCount: RewardProgram = { basis: { measure: 'item_count', afterDiscounts: false, includeTax: false }, tiers: [tier('ship', 'free_shipping', 4)] }
  t.equal(rewardAdjustments(byCount, VIEW).outcome.basis, 4)
  const seen: CartView[] = []
  const watched = tier('ship', 'free_shipping', 0, { holds: (view) => { seen.push(view); return true } })
  rewardAdjustments(program(watched), VIEW)
  t.same(seen.map((view) => view.lines.map((line) => line.key)), [['a', 'b']])
  const onlyGift = rewardAdjustments(program(tier('ship', 'free_shipping', 0)), { lines: [GIFT], couponCodes: [] })
  t.same(onlyGift.shipping, [])
  t.equal(onlyGift.outcome.tiers[0]?.reached, false)
  const withTax = rewardAdjustments({ basis: { measure: 'subtotal', afterDiscounts: false, includeTax: true }, tiers: [] },
    { lines: [{ ...A, subtotalTax: 300 }, { ...GIFT, subtotalTax: 150 }], couponCodes: [] })
  t.equal(withTax.outcome.basis, 3300)
})

test('conditions that cannot be evaluated grant nothing and are listed', async (t) => {
  const adjustments = rewardAdjustments(program(tier('ship', 'free_shipping', 0, { holds: () => 'error' })), VIEW)
  t.same(adjustments.shipping, [])
  t.same(adjustments.outcome.unevaluable, ['ship'])
  t.match(adjustments.outcome.tiers[0], { reached: false, blocked: true })
})

// The reference platform: its priced cart as a view, and its totals priced through the adjustments.

const TAX = 10
const mug = makeProduct({ id: 1, regularPrice: 1250, categories: [{ id: 3, name: 'Mugs', slug: 'mugs' }] })
const shirts = makeVariableParent({ categories: [{ id: 5, name: 'Shirts', slug: 'shirts' }] })
const red = makeVariation({ id: 11, regularPrice: 2000 })
const tote = makeProduct({ id: 7, name: 'Tote', regularPrice: 900 })
const products = new Map([mug, shirts, red, tote].map((p) => [p.id, p]))
const line = (productId: number, variationId: number, quantity: number): CartLine =>
  ({ key: cartItemKey(productId, variationId), productId, variationId, variation: {}, quantity })
const MUG = line(1, 0, 3)
const RED = line(10, 11, 1)
const GIFT_LINE: CartLine = { ...line(7, 0, 1), key: cartItemKey(7, 0, {}, 'reward:tote'), mark: 'reward:tote' }

test('cartView: each priced line as the tiers read it, and the coupons the shopper applied', async (t) => {
  const config = makeConfig({ taxRatePercent: TAX })
  const coupons = new Map([['save10', makeCoupon()]])
  const priced = priceCart({ lines: [MUG, RED], coupons: ['save10'] }, products, coupons, config, NOW)
  t.same(cartView(priced), {
    lines: [
      // 3 × 1250 = 3750, 10 % off: 3375; taxes 375 and 337.5 → 338.
      { key: MUG.key, productId: 1, variationId: 0, quantity: 3, unitPrice: 1250, subtotal: 3750, subtotalTax: 375, total: 3375, totalTax: 338, categoryIds: [3] },
      // A variation's categories are its parent's.
      { key: RED.key, productId: 10, variationId: 11, quantity: 1, unitPrice: 2000, subtotal: 2000, subtotalTax: 200, total: 1800, totalTax: 180, categoryIds: [5] }
    ],
    couponCodes: ['save10']
  })
  // A held gift line carries its tier's mark; a discount tier is no coupon of the shopper's.
  const rewarded = priceCart({ lines: [MUG, GIFT_LINE], coupons: [] }, products, new Map(), config, NOW, undefined,
    (view) => rewardAdjustments(program(tier('tote', 'gift', 0, { productId: 7 }), tier('pct', 'percent_discount', 0, { amount: 5 })), view))
  const view = cartView(rewarded)
  t.match(view.lines[1], { key: GIFT_LINE.key, productId: 7, unitPrice: 0, subtotal: 0, mark: 'reward:tote' })
  t.same(view.couponCodes, [])
})

/**
 * A host's own totals, from nothing but its view and the adjustments: a wholly adjusted line (a gift) is priced at
 * zero, each cart adjustment's share comes off its line's total (the line taxed on what is left), a shipping
 * adjustment waives the flat rate.
 */
function hostTotals (view: CartView, adjustments: CartAdjustments, config: ShopConfig, couponShipsFree: boolean) {
  const lineOff = new Map<string, number>()
  for (const a of adjustments.lines) lineOff.set(a.lineKey, (lineOff.get(a.lineKey) ?? 0) + a.amount)
  const cartOff = new Map<string, number>()
  for (const a of adjustments.cart) for (const share of a.lines) cartOff.set(share.lineKey, (cartOff.get(share.lineKey) ?? 0) + share.amount)
  const tax = (amount: number) => Math.floor((amount * config.taxRatePercent + 50) / 100)
  let items = 0; let itemsTax = 0; let lines = 0; let linesTax = 0
  for (const l of view.lines) {
    const free = (lineOff.get(l.key) ?? 0) >= l.subtotal
    const total = free ? 0 : l.total - (cartOff.get(l.key) ?? 0)
    items += free ? 0 : l.subtotal
    itemsTax += free ? 0 : l.subtotalTax
    lines += total
    linesTax += tax(total)
  }
  const nonEmpty = view.lines.length > 0
  const shipping = nonEmpty && !couponShipsFree && adjustments.shipping.length === 0 ? config.shippingFlatRate : 0
  const fees = nonEmpty ? config.fees.reduce((sum, fee) => sum + fee.amount, 0) : 0
  const feesTax = nonEmpty ? config.fees.reduce((sum, fee) => sum + (fee.taxable ? tax(fee.amount) : 0), 0) : 0
  return {
    totalItems: items,
    totalItemsTax: itemsTax,
    totalDiscount: items - lines,
    totalDiscountTax: itemsTax - linesTax,
    totalShipping: shipping,
    totalShippingTax: tax(shipping),
    totalFees: fees,
    totalFeesTax: feesTax,
    totalPrice: lines + linesTax + fees + feesTax + shipping + tax(shipping),
    totalTax: linesTax + feesTax + tax(shipping)
  }
}

test('a host\'s own totals from its view and the adjustments equal the reference platform\'s priceCart', async (t) => {
  const config = makeConfig({ taxRatePercent: TAX, shippingFlatRate: 700, fees: [{ id: 'wrap', name: 'Wrapping', amount: 250, taxable: true }] })
  const tiers = program(
    tier('ship', 'free_shipping', 5000),
    tier('pct', 'percent_discount', 3000, { amount: 15 }),
    tier('fix', 'fixed_discount', 5500, { amount: 333 }),
    tier('tote', 'gift', 4000, { productId: 7 })
  )
  // Each case: the cart as the reference platform stores it, and the same cart as a host prices it itself (its
  // coupons by its own rules, its gift line at the product's price taking no share of a coupon), computed here.
  const cases: Array<{ name: string, cart: CartData, coupons: Coupon[], view: CartView, ships?: boolean, price?: number }> = [
    {
      // 3750 + 2000 → 10 % off: 3375 + 1800 = 5175: below the 5500 tier, so 15 % off (506.25 → 506, 270): 2869 +
      // 1530, taxed 287 + 153; free shipping; the gift at zero; the fee 250 + 25. 4399 + 440 + 275 = 5114.
      name: 'a percent coupon, the percent tier, free shipping and the gift',
      price: 5114,
      cart: { lines: [MUG, RED, GIFT_LINE], coupons: ['save10'] },
      coupons: [makeCoupon()],
      view: {
        lines: [
          { key: MUG.key, productId: 1, variationId: 0, quantity: 3, unitPrice: 1250, subtotal: 3750, subtotalTax: 375, total: 3375, totalTax: 338, categoryIds: [3] },
          { key: RED.key, productId: 10, variationId: 11, quantity: 1, unitPrice: 2000, subtotal: 2000, subtotalTax: 200, total: 1800, totalTax: 180, categoryIds: [5] },
          { key: GIFT_LINE.key, productId: 7, variationId: 0, quantity: 1, unitPrice: 900, subtotal: 900, subtotalTax: 90, total: 900, totalTax: 90, categoryIds: [], mark: 'reward:tote' }
        ],
        couponCodes: ['save10']
      }
    },
    {
      // 3750 − 600 × 3750 / 5750 (391.3 → 391) = 3359; 2000 − 209 = 1791: 5150, below the 5500 tier: 15 % off.
      name: 'a fixed_cart coupon and the percent tier, free shipping, the gift held',
      cart: { lines: [MUG, RED, GIFT_LINE], coupons: ['minus6'] },
      coupons: [makeCoupon({ code: 'minus6', discountType: 'fixed_cart', amount: 600 })],
      view: {
        lines: [
          { key: MUG.key, productId: 1, variationId: 0, quantity: 3, unitPrice: 1250, subtotal: 3750, subtotalTax: 375, total: 3359, totalTax: 336, categoryIds: [3] },
          { key: RED.key, productId: 10, variationId: 11, quantity: 1, unitPrice: 2000, subtotal: 2000, subtotalTax: 200, total: 1791, totalTax: 179, categoryIds: [5] },
          { key: GIFT_LINE.key, productId: 7, variationId: 0, quantity: 1, unitPrice: 900, subtotal: 900, subtotalTax: 90, total: 900, totalTax: 90, categoryIds: [], mark: 'reward:tote' }
        ],
        couponCodes: ['minus6']
      }
    },
    {
      // 3750 alone: the percent tier only; shipping charged.
      name: 'the percent tier alone',
      cart: { lines: [MUG], coupons: [] },
      coupons: [],
      view: {
        lines: [{ key: MUG.key, productId: 1, variationId: 0, quantity: 3, unitPrice: 1250, subtotal: 3750, subtotalTax: 375, total: 3750, totalTax: 375, categoryIds: [3] }],
        couponCodes: []
      }
    },
    {
      // A free-shipping coupon and 2000 reach no tier: the coupon alone waives the shipping.
      name: 'a free-shipping coupon, no tier',
      cart: { lines: [RED], coupons: ['ships'] },
      coupons: [makeCoupon({ code: 'ships', discountType: 'fixed_cart', amount: 0, freeShipping: true })],
      ships: true,
      view: {
        lines: [{ key: RED.key, productId: 10, variationId: 11, quantity: 1, unitPrice: 2000, subtotal: 2000, subtotalTax: 200, total: 2000, totalTax: 200, categoryIds: [5] }],
        couponCodes: ['ships']
      }
    }
  ]
  for (const { name, cart, coupons, view, ships, price } of cases) {
    const asked: CartView[] = []
    const priced = priceCart(cart, products, new Map(coupons.map((c) => [c.code, c])), config, NOW, undefined, (v) => {
      asked.push(v)
      return rewardAdjustments(tiers, v)
    })
    t.same(asked, [view], `${name}: the reference platform asks with the view the host builds`)
    const host = hostTotals(view, rewardAdjustments(tiers, view), config, ships ?? false)
    const { taxLines: _, ...reference } = priced.totals
    t.same(host, reference, `${name}: the same totals`)
    if (price !== undefined) t.equal(priced.totals.totalPrice, price, `${name}: the total worked out by hand`)
  }
})
