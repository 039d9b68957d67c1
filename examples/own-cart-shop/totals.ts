import { giftTierOf, type LineAdjuster, type Product } from 'cart-drawer-service/drawer'
import { SHOP_CONFIG, type Catalog, type ShopCoupon } from './catalog.ts'
import type { ShopCart, ShopLine } from './model.ts'

/**
 * The shop's own totals: unit prices from the catalog, the drawer's line adjustments (bundle discounts) off their
 * lines first, then the shop's coupons (percent ones, then fixed ones, each on what is left), then what the reward
 * tiers grant (`Grants`, from tiers.ts): a discount on what the coupons left, free shipping, gift lines at zero.
 * Prices include VAT. Integers (cents) throughout; every cart-wide amount is spread over the lines.
 */

export interface Grants {
  freeShipping: boolean
  discount: { id: string, label: string, kind: 'percent_discount' | 'fixed_discount', amount: number } | null
  /** The tier ids whose gift lines are free; other gift lines are left out. */
  gifts: ReadonlySet<string>
}

export interface LineTotal {
  line: ShopLine
  product: Product
  parent: Product
  unit: number
  subtotal: number
  /** The drawer's adjustments on the line (bundles). */
  adjusted: number
  /** The shop's coupons' share of the line. */
  couponed: number
  /** The reward discount's share of the line. */
  rewarded: number
  total: number
}

export interface Totals {
  lines: LineTotal[]
  coupons: Array<{ coupon: ShopCoupon, amount: number }>
  reward: { id: string, label: string, amount: number } | null
  items: number
  discount: number
  shipping: number
  freeShipping: boolean
  total: number
  /** Lines and coupons left out, with why. */
  dropped: Array<{ reason: 'line_product_missing' | 'line_product_unpurchasable' | 'coupon_not_found' | 'coupon_minimum_spend', message: string }>
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

/** `amount` spread over `bases` in proportion (each share at most its base), the shares summing to the amount. */
export function spread (amount: number, bases: readonly number[]): number[] {
  const whole = sum(bases)
  if (whole <= 0 || amount <= 0) return bases.map(() => 0)
  const shares = bases.map((base) => Math.floor(amount * base / whole))
  let left = Math.min(amount, whole) - sum(shares)
  for (let i = 0; left > 0; i = (i + 1) % bases.length) {
    if (shares[i]! < bases[i]!) { shares[i]!++; left-- }
  }
  return shares
}

/** A product a line may be sold at: published (private for staff), priced, in stock. */
export function sellable (item: Product, canReadPrivate: boolean): boolean {
  if (item.type === 'variable') return false
  const price = item.salePrice ?? item.regularPrice
  return (item.status === 'publish' || (item.status === 'private' && canReadPrivate)) && price !== null && item.stockStatus !== 'outofstock'
}

export function unitPrice (item: Product): number {
  return item.salePrice ?? item.regularPrice ?? 0
}

export function computeTotals (cart: ShopCart, catalog: Catalog, canReadPrivate: boolean, adjuster: LineAdjuster | null, grants: Grants | null): Totals {
  const dropped: Totals['dropped'] = []
  const lines: LineTotal[] = []
  for (const line of cart.lines) {
    const giftTier = giftTierOf(line.mark)
    if (giftTier !== undefined && !(grants?.gifts.has(giftTier) ?? false)) continue
    const product = catalog.get(line.variantId || line.productId)
    const parent = catalog.get(line.productId)
    if (product === null || parent === null) {
      dropped.push({ reason: 'line_product_missing', message: 'An item which is no longer available was removed from your cart.' })
    } else if (!sellable(product, canReadPrivate)) {
      dropped.push({ reason: 'line_product_unpurchasable', message: `"${product.name}" can no longer be bought.` })
    } else {
      const unit = giftTier === undefined ? unitPrice(product) : 0
      lines.push({ line, product, parent, unit, subtotal: unit * line.qty, adjusted: 0, couponed: 0, rewarded: 0, total: 0 })
    }
  }
  const items = sum(lines.map((line) => line.subtotal))

  // The drawer's line adjustments, capped at each line's subtotal.
  const adjustments = adjuster === null || lines.length === 0
    ? []
    : adjuster(lines.map(({ line, unit }) => ({ key: line.id, productId: line.productId, variationId: line.variantId, quantity: line.qty, unitPrice: unit, ...(line.mark === undefined ? {} : { mark: line.mark }) })))
  for (const adjustment of adjustments) {
    const target = lines.find(({ line }) => line.id === adjustment.lineKey)
    if (target !== undefined && Number.isInteger(adjustment.amount) && adjustment.amount > 0) target.adjusted = Math.min(target.subtotal, target.adjusted + adjustment.amount)
  }

  const left = () => lines.map((line) => line.subtotal - line.adjusted - line.couponed - line.rewarded)
  const coupons: Totals['coupons'] = []
  const applicable = cart.coupons.flatMap((code) => {
    const coupon = catalog.coupon(code)
    if (coupon === null) dropped.push({ reason: 'coupon_not_found', message: `The coupon "${code}" no longer exists.` })
    else if (items < coupon.minSpend) dropped.push({ reason: 'coupon_minimum_spend', message: `The coupon "${code}" needs a larger cart.` })
    else return [coupon]
    return []
  })
  // Percent coupons first, then fixed ones; listed in the order applied.
  for (const coupon of [...applicable].sort((a, b) => (a.kind === 'percent' ? 0 : 1) - (b.kind === 'percent' ? 0 : 1))) {
    const base = sum(left())
    const amount = Math.min(base, coupon.kind === 'percent' ? Math.round(base * coupon.value / 100) : coupon.value)
    spread(amount, left()).forEach((share, i) => { lines[i]!.couponed += share })
    coupons.push({ coupon, amount })
  }
  coupons.sort((a, b) => applicable.indexOf(a.coupon) - applicable.indexOf(b.coupon))

  let reward: Totals['reward'] = null
  if (grants?.discount != null) {
    const base = sum(left())
    const { id, label, kind, amount } = grants.discount
    const off = Math.min(base, kind === 'percent_discount' ? Math.round(base * amount / 100) : amount)
    spread(off, left()).forEach((share, i) => { lines[i]!.rewarded += share })
    reward = { id, label, amount: off }
  }

  for (const line of lines) line.total = line.subtotal - line.adjusted - line.couponed - line.rewarded
  const freeShipping = grants?.freeShipping ?? false
  const shipping = lines.length > 0 && !freeShipping ? SHOP_CONFIG.shippingFlatRate : 0
  return {
    lines,
    coupons,
    reward,
    items,
    discount: sum(lines.map((line) => line.adjusted + line.couponed + line.rewarded)),
    shipping,
    freeShipping,
    total: sum(lines.map((line) => line.total)) + shipping,
    dropped
  }
}
