import { isOnSale } from '../../kernel/domain/catalog.ts'
import { currencyBlock, toMinorString, type CurrencyBlock } from '../../kernel/domain/money.ts'
import { toPlainText } from '../../kernel/domain/plain-text.ts'
import type { RewardKind } from '../../kernel/domain/rewards.ts'
import type { Currency, DomainReason, PricedCart, PricedLine } from '../../kernel/domain/types.ts'
import { truncateUtf8 } from '../../kernel/domain/utf8.ts'

/**
 * What the cart drawer service shows of a cart: the per-line fields of `extensions.svc`, the presentation rows, the
 * coupon rows, and the drawer's whole cart state (the `.svc-cart-json` fragment and `GET svc/v1/cart`). Pure: the
 * plugins supply the locked keys, the presentations (after filters) and a permalink function.
 */

/** Specification §8: `item_presentations` rows. */
export const MAX_ITEM_PRESENTATIONS = 100
/** Specification §8: `backorderNotice`, in UTF-8 bytes. */
export const MAX_BACKORDER_NOTICE_BYTES = 500

export interface SvcQuantityLimits {
  minimum: number
  maximum: number
  multipleOf: number
  unlimited: boolean
}

/** `extensions.svc` of a cart item, and the per-line fields of its presentation row. */
export interface SvcItemFields {
  key: string
  /** The product the shopper chose: the parent of a variation. */
  product_id: number
  visible: boolean
  quantityEditable: boolean
  removable: boolean
  quantityLimits: SvcQuantityLimits
  /** Plain text, at most 500 bytes of UTF-8. */
  backorderNotice: string
}

/** An extra line the drawer shows under an item (`Engraving: "For Sam"`), plain text both. */
export interface ExtraLine {
  label: string
  value: string
  [extra: string]: unknown
}

/** One row of `extensions.svc.item_presentations`: the output of the filter `svc_cart_item_data`. */
export interface ItemPresentation extends SvcItemFields {
  name: string
  short_description: string
  /** `Color: blue, Size: large`; empty for a simple product. */
  variationSummary: string
  extraLines: ExtraLine[]
  /** Whatever a server-side filter gives the drawer's custom renderer; null when none. */
  customPresentation: Record<string, unknown> | null
  /** Keys added by filters are kept. */
  [extra: string]: unknown
}

export interface SvcCoupon {
  code: string
  label: string
  /** A discount the service granted by itself (Pro), as opposed to a coupon the shopper entered. */
  isSystemReward: boolean
  removable: boolean
}

/** A backorder notice as the service sends it: plain text, cut to at most 500 bytes between characters. */
export function limitBackorderNotice (plainText: string): string {
  return truncateUtf8(plainText, MAX_BACKORDER_NOTICE_BYTES)
}

/** Text from a filter (which may hold markup) as a backorder notice: plain text, at most 500 bytes. */
export function backorderNoticeFromHtml (html: string): string {
  return limitBackorderNotice(toPlainText(html))
}

/**
 * Whether the platform lets the line appear in a mini cart. WooCommerce's `woocommerce_widget_cart_item_visible`
 * defaults to true for every line, hidden products included (catalog visibility only affects listings), and the
 * platform's mini cart renders every line: always true here.
 */
export function visibleInMiniCart (_line: PricedLine): boolean {
  return true
}

/** The per-line fields of `extensions.svc`: `locked` lines (Pro) can be neither changed nor removed. */
export function svcItemFields (priced: PricedLine, locked: ReadonlySet<string>): SvcItemFields {
  const { line, quantityLimits: limits } = priced
  const isLocked = locked.has(line.key)
  return {
    key: line.key,
    product_id: line.productId,
    visible: visibleInMiniCart(priced),
    // Controls make sense only when there is a choice: sold individually, or stock leaving one quantity, offers none.
    quantityEditable: limits.editable && limits.maximum > limits.minimum && !isLocked,
    removable: !isLocked,
    quantityLimits: {
      minimum: limits.minimum,
      maximum: limits.maximum,
      multipleOf: limits.multipleOf,
      unlimited: limits.unlimited
    },
    // The platform's notice is plain text already (catalog.ts `backorderNotice`); only the length is limited here.
    backorderNotice: limitBackorderNotice(priced.backorderNotice)
  }
}

/**
 * The attributes of a line, labelled, in the parent's order: the variation's own values with the shopper's choices
 * over them (a line added by variation id alone has no choices; an "any" attribute has only the choice).
 */
export function chosenAttributes ({ line, product, parent }: PricedLine): Array<{ attribute: string, value: string }> {
  const values: Record<string, string> = product.type === 'variation' ? { ...product.variationAttributes, ...line.variation } : line.variation
  return parent.attributes
    .filter((attribute) => (values[attribute.name] ?? '') !== '')
    .map((attribute) => ({ attribute: attribute.label !== '' ? attribute.label : attribute.name, value: values[attribute.name]! }))
}

/** `Color: blue, Size: large`: the line's attributes as one line of text; empty for a simple product. */
export function variationSummary (priced: PricedLine): string {
  return chosenAttributes(priced).map(({ attribute, value }) => `${attribute}: ${value}`).join(', ')
}

/** The service's own presentation row of a line, before the filter `svc_cart_item_data`. */
export function defaultItemPresentation (priced: PricedLine, fields: SvcItemFields): ItemPresentation {
  const { product, parent } = priced
  const { key, ...perLine } = fields
  return {
    key,
    name: product.name,
    short_description: product.shortDescription || parent.shortDescription,
    variationSummary: variationSummary(priced),
    extraLines: [],
    customPresentation: null,
    ...perLine
  }
}

/**
 * The applied coupons as the service presents them: every coupon a shopper applies is an ordinary, removable one; a
 * reward tier's discount is a system reward, labelled with the tier's label, that only the tier takes away.
 */
export function svcCoupons (priced: PricedCart): SvcCoupon[] {
  return priced.coupons.map(({ coupon, rewardId }) => rewardId === undefined
    ? { code: coupon.code, label: `Coupon: ${coupon.code}`, isSystemReward: false, removable: true }
    : { code: coupon.code, label: coupon.description, isSystemReward: true, removable: false })
}

/** The reward tiers' progress as the drawer shows it: amounts (or item counts) as strings of integers. */
export interface DrawerRewards {
  measure: 'subtotal' | 'item_count'
  basis: string
  tiers: Array<{ id: string, label: string, kind: RewardKind, threshold: string, remaining: string, progress: number, reached: boolean }>
}

export function drawerRewards (priced: PricedCart): DrawerRewards | null {
  const { rewards } = priced
  if (rewards === null || rewards.tiers.length === 0) return null
  return {
    measure: rewards.measure,
    basis: String(rewards.basis),
    tiers: rewards.tiers.map((tier) => ({
      id: tier.id,
      label: tier.label,
      kind: tier.kind,
      threshold: String(tier.threshold),
      remaining: String(tier.remaining),
      progress: tier.progress,
      // A free-shipping tier counts as reached only while shipping costs nothing (the shopper may have chosen a paid
      // rate): the drawer never says "free" over a shipping charge.
      reached: tier.kind === 'free_shipping' ? tier.reached && priced.totals.totalShipping === 0 : tier.reached
    }))
  }
}

/** Locked keys as the service trusts them: strings naming lines of this cart, once each, in cart order. */
export function normaliseLockedKeys (priced: PricedCart, keys: unknown): string[] {
  if (!Array.isArray(keys)) return []
  const wanted = new Set(keys.filter((key): key is string => typeof key === 'string'))
  return priced.lines.map(({ line }) => line.key).filter((key) => wanted.has(key))
}

/** The currency of the drawer's amounts: the Store API's currency block. */
export type DrawerCurrency = CurrencyBlock

export interface DrawerCartItem extends SvcItemFields {
  /** The variation's id, 0 for a simple product. */
  variation_id: number
  name: string
  sku: string
  quantity: number
  variationSummary: string
  /** The chosen attributes, labelled. */
  variation: Array<{ attribute: string, value: string }>
  permalink: string
  image: { src: string, thumbnail: string, alt: string } | null
  /** Unit prices in minor units. */
  prices: { price: string, regular_price: string, sale_price: string }
  /** Line totals in minor units, before (`subtotal`) and after (`total`) coupon discounts. */
  totals: { line_subtotal: string, line_subtotal_tax: string, line_total: string, line_total_tax: string }
  /** The line's presentation row (after `svc_cart_item_data`), null beyond the 100th line. */
  presentation: ItemPresentation | null
}

export interface DrawerCoupon extends SvcCoupon {
  discount: string
  discountTax: string
}

export interface DrawerFee {
  key: string
  name: string
  total: string
  totalTax: string
}

/** The drawer's cart state (design §3.7): everything the drawer renders, money in minor units as strings. */
export interface DrawerCartState {
  cartItems: DrawerCartItem[]
  /** The sum of the quantities. */
  cartCount: number
  /** What the shopper pays: items after discounts, fees, shipping and every tax. */
  cartTotal: string
  /** The items before discounts, without tax. */
  cartSubtotal: string
  cartFees: DrawerFee[]
  /** Every tax of the cart. */
  cartTax: string
  coupons: DrawerCoupon[]
  currency: DrawerCurrency
  optionalLockedKeys: string[]
  /** The classic cart hash ('' for an empty cart): changes whenever the contents or the total change. */
  cartHash: string
  /** The coupons' discount, without tax. */
  cartDiscount: string
  /** Shipping without tax, null while no shipping is needed. */
  cartShipping: string | null
  /** Problems found while pricing (a product no longer sold was taken out…). */
  errors: Array<{ code: string, message: string }>
  /** The reward tiers' progress; null without tiers. */
  rewards: DrawerRewards | null
}

export interface DrawerStateContext {
  currency: Currency
  /** The cart hash of the priced cart. */
  hash: string
  /** The product page of a line. */
  permalink: (priced: PricedLine) => string
  /** Keys of locked lines (Pro); already normalised. */
  optionalLockedKeys: readonly string[]
  /** Presentation rows by line key (the first 100 lines); lines without one get `presentation: null`. */
  presentations?: ReadonlyMap<string, ItemPresentation>
  /** The code `errors` shows for a problem found while pricing (the Store API's code: `storeApiCode` of kernel/errors/). */
  errorCode: (reason: DomainReason) => string
}

function drawerItem (priced: PricedLine, locked: ReadonlySet<string>, context: DrawerStateContext): DrawerCartItem {
  const { line, product, parent, unitPrice } = priced
  const fields = svcItemFields(priced, locked)
  const image = product.images[0] ?? parent.images[0]
  return {
    key: fields.key,
    product_id: fields.product_id,
    variation_id: line.variationId,
    name: product.name,
    sku: product.sku,
    quantity: line.quantity,
    quantityLimits: fields.quantityLimits,
    quantityEditable: fields.quantityEditable,
    removable: fields.removable,
    visible: fields.visible,
    backorderNotice: fields.backorderNotice,
    variationSummary: variationSummary(priced),
    variation: chosenAttributes(priced),
    permalink: context.permalink(priced),
    image: image ? { src: image.src, thumbnail: image.thumbnail, alt: image.alt } : null,
    prices: {
      price: toMinorString(unitPrice),
      regular_price: toMinorString(product.regularPrice ?? unitPrice),
      sale_price: toMinorString(isOnSale(product) ? product.salePrice! : unitPrice)
    },
    totals: {
      line_subtotal: toMinorString(priced.lineSubtotal),
      line_subtotal_tax: toMinorString(priced.lineSubtotalTax),
      line_total: toMinorString(priced.lineTotal),
      line_total_tax: toMinorString(priced.lineTotalTax)
    },
    presentation: context.presentations?.get(line.key) ?? null
  }
}

/** The drawer's cart state of a priced cart. */
export function drawerCartState (priced: PricedCart, context: DrawerStateContext): DrawerCartState {
  const locked = new Set(context.optionalLockedKeys)
  const { totals } = priced
  const coupons = svcCoupons(priced)
  return {
    cartItems: priced.lines.map((line) => drawerItem(line, locked, context)),
    cartCount: priced.itemsCount,
    cartTotal: toMinorString(totals.totalPrice),
    cartSubtotal: toMinorString(totals.totalItems),
    cartFees: priced.fees.map(({ fee, tax }) => ({ key: fee.id, name: fee.name, total: toMinorString(fee.amount), totalTax: toMinorString(tax) })),
    cartTax: toMinorString(totals.totalTax),
    coupons: priced.coupons.map((applied, index) => ({
      ...coupons[index]!,
      discount: toMinorString(applied.discount),
      discountTax: toMinorString(applied.discountTax)
    })),
    currency: currencyBlock(context.currency),
    optionalLockedKeys: [...context.optionalLockedKeys],
    cartHash: context.hash,
    cartDiscount: toMinorString(totals.totalDiscount),
    cartShipping: priced.needsShipping ? toMinorString(totals.totalShipping) : null,
    errors: priced.errors.map(({ reason, message }) => ({ code: context.errorCode(reason), message })),
    rewards: drawerRewards(priced)
  }
}
