import type { RewardOutcome } from './reward-outcome.ts'
/**
 * Shapes of the shop's domain. Plain data only: storage persists these as JSON and the pure functions in kernel/domain/
 * compute on them. Money is always an integer number of minor units (cents).
 */
import type { DomainReason } from './reasons.ts'

export type { DomainReason }

export type ProductType = 'simple' | 'variable' | 'variation'
export type ProductStatus = 'publish' | 'draft' | 'private'
export type CatalogVisibility = 'visible' | 'catalog' | 'search' | 'hidden'
export type StockStatus = 'instock' | 'outofstock' | 'onbackorder'
export type Backorders = 'no' | 'notify' | 'yes'

export interface ProductImage {
  id: number
  src: string
  thumbnail: string
  alt: string
  name: string
}

export interface ProductCategory {
  id: number
  name: string
  slug: string
}

/** A product attribute offered by a variable product (for example `pa_color` with options red, blue). */
export interface ProductAttribute {
  name: string
  label: string
  options: string[]
}

/** Per-product quantity rules; every member is optional and narrows the platform's defaults. */
export interface QuantityRules {
  minimum?: number
  maximum?: number
  multipleOf?: number
}

export interface Product {
  id: number
  /** For a variation: the variable product it belongs to. Otherwise 0. */
  parentId: number
  type: ProductType
  name: string
  slug: string
  sku: string
  shortDescription: string
  description: string
  status: ProductStatus
  catalogVisibility: CatalogVisibility
  /** Minor units. `null` means the product has no price and cannot be bought. */
  regularPrice: number | null
  /** Minor units, when on sale. */
  salePrice: number | null
  /** Whether stock is tracked as a number (`stockQuantity`). */
  manageStock: boolean
  stockQuantity: number | null
  stockStatus: StockStatus
  backorders: Backorders
  /** Text shown to the shopper for a line on backorder; when empty the platform's default text is used. */
  backorderNotice: string
  /** Remaining stock at or under which `low_stock_remaining` is reported. */
  lowStockAmount: number | null
  soldIndividually: boolean
  quantityRules: QuantityRules
  images: ProductImage[]
  categories: ProductCategory[]
  crossSellIds: number[]
  upsellIds: number[]
  /** Variable products: the attributes a shopper chooses. */
  attributes: ProductAttribute[]
  /** Variable products: their variation ids. */
  variationIds: number[]
  /** Variations: the attribute values they stand for, `{pa_color: 'red'}`; an empty value means "any". */
  variationAttributes: Record<string, string>
  /** Weight in the shop's weight unit, as entered (`'2.5'`); absent or empty when not given. */
  weight?: string
  /** Dimensions in the shop's dimension unit, as entered; absent when not given. */
  dimensions?: ProductDimensions
}

export interface ProductDimensions {
  length: string
  width: string
  height: string
}

/** The drawer's controls that add lines: recommendations, the spotlight offer, smart add-ons, bundles. */
export type LineOrigin = 'recommendation' | 'spotlight' | 'addon' | 'bundle'

export interface CartLine {
  /** 32 lowercase hex characters, stable for the same product, variation and attributes. */
  key: string
  /** The product a shopper chose: for a variation, the parent product's id. */
  productId: number
  /** The variation's id, or 0. */
  variationId: number
  /** The chosen attribute values. */
  variation: Record<string, string>
  quantity: number
  /**
   * The drawer's mark on a line it added (`addon:<id>`, `bundle:<id>`, `reward:<tierId>`, `recommendation`,
   * `spotlight`; kernel/domain/marks.ts): opaque to the shop, which stores it and gives it back. A marked line has a key of
   * its own, so it never merges with the same product added another way; the order's line records the drawer control
   * it names (`OrderLine.origin`), which the drawer's attributed revenue counts.
   */
  mark?: string
}

/** A postal address as the Store API carries it (every field a string, empty when not given). */
export interface Address {
  firstName: string
  lastName: string
  company: string
  address1: string
  address2: string
  city: string
  /** State or county code (`CA`), as entered. */
  state: string
  postcode: string
  /** ISO 3166-1 alpha-2 country code, upper case (`US`), or empty. */
  country: string
  phone: string
}

/** The billing address: an address with the shopper's e-mail. */
export interface BillingAddress extends Address {
  email: string
}

/** The shopper's addresses as the cart keeps them (`cart/update-customer`, the checkout). */
export interface CartCustomer {
  billing: BillingAddress
  shipping: Address
}

/** What is stored for a cart. Everything else (prices, totals) is derived when the cart is priced. */
export interface CartData {
  lines: CartLine[]
  /** Applied coupon codes, normalised (trimmed, lower case), in the order they were applied. */
  coupons: string[]
  /** The shopper's addresses, when given (absent: all empty). */
  customer?: CartCustomer
  /** The selected shipping rate id per package id (`cart/select-shipping-rate`); absent: the first rate. */
  shippingRates?: Record<string, string>
}

export type CouponDiscountType = 'percent' | 'fixed_cart'

export interface Coupon {
  /** Normalised code: trimmed, lower case. */
  code: string
  discountType: CouponDiscountType
  /** Percent (0–100) for `percent`, minor units for `fixed_cart`. */
  amount: number
  freeShipping: boolean
  /** ISO date-time after which the coupon no longer applies, or null. */
  expiresAt: string | null
  /** How many times the coupon may be used in all, or null for no limit. */
  usageLimit: number | null
  usageCount: number
  /** Minimum cart subtotal (minor units, before discounts) for the coupon to apply, or null. */
  minimumAmount: number | null
  description: string
}

export interface Currency {
  code: string
  symbol: string
  minorUnit: number
  decimalSeparator: string
  thousandSeparator: string
  prefix: string
  suffix: string
}

export interface Fee {
  id: string
  name: string
  /** Minor units, before tax. */
  amount: number
  taxable: boolean
}

/** Shop-wide pricing configuration (a plugin option of the shop). */
export interface ShopConfig {
  currency: Currency
  /** A flat tax rate in percent applied to taxable amounts, 0 for none. Prices are entered without tax. */
  taxRatePercent: number
  taxLabel: string
  /** Flat shipping cost (minor units, before tax) for a cart that needs shipping; waived by a free-shipping coupon. */
  shippingFlatRate: number
  /** Fees added to every non-empty cart. */
  fees: Fee[]
}

/**
 * An error the domain reports instead of throwing: why (`reason`), the shopper-facing `message` and the details
 * (`data`). No HTTP status, no wire code: `kernel/errors/domain-reasons.ts` maps the reason to each API's answer.
 */
export interface DomainError {
  reason: DomainReason
  message: string
  data?: Record<string, unknown>
}

export type Result<T> = { ok: true, value: T } | { ok: false, error: DomainError }

export interface QuantityLimits {
  minimum: number
  maximum: number
  multipleOf: number
  editable: boolean
  /** True when neither stock nor a rule caps the quantity (the maximum is then the platform's default ceiling). */
  unlimited: boolean
}

export interface PricedLine {
  line: CartLine
  /** The product priced for this line: the variation for a variable product, else the product. */
  product: Product
  /** The parent product of a variation, else the product itself. */
  parent: Product
  unitPrice: number
  quantityLimits: QuantityLimits
  /** Plain text, empty unless the line is (partly) on backorder and the product notifies. */
  backorderNotice: string
  lineSubtotal: number
  lineSubtotalTax: number
  /** Coupon and line discounts together (`lineDiscount` ≥ `lineOwnDiscount`). */
  lineDiscount: number
  /** The drawer's line adjustments on this line (bundles), before coupons. */
  lineOwnDiscount: number
  lineDiscountTax: number
  lineTotal: number
  lineTotalTax: number
}

export interface PricedCoupon {
  coupon: Coupon
  /** Discount this coupon gave, before tax, and the tax it removed. */
  discount: number
  discountTax: number
  /** Set on a discount a reward tier granted (no stored coupon, not removable): the tier's id. */
  rewardId?: string
}

export interface PricedFee {
  fee: Fee
  tax: number
}

export interface CartTotals {
  totalItems: number
  totalItemsTax: number
  totalFees: number
  totalFeesTax: number
  totalDiscount: number
  totalDiscountTax: number
  totalShipping: number
  totalShippingTax: number
  totalPrice: number
  totalTax: number
  taxLines: Array<{ name: string, price: number, rate: string }>
}

/** A cart with every derived figure, ready to be serialised. */
export interface PricedCart {
  lines: PricedLine[]
  coupons: PricedCoupon[]
  fees: PricedFee[]
  totals: CartTotals
  itemsCount: number
  needsShipping: boolean
  freeShipping: boolean
  /** Problems found while pricing (a line whose product vanished, a coupon that no longer applies). */
  errors: Array<{ reason: DomainReason, message: string }>
  /** What the reward tiers gave this cart (kernel/domain/rewards.ts); null when the shop has no reward program. */
  rewards: RewardOutcome | null
}

/** Order statuses, as WooCommerce names them. */
export type OrderStatus = 'pending' | 'processing' | 'on-hold' | 'completed' | 'cancelled' | 'refunded' | 'failed'

/** One line of a placed order: the product as it was sold, with its priced figures (minor units). */
export interface OrderLine {
  /** The cart line's key. */
  key: string
  productId: number
  variationId: number
  name: string
  sku: string
  variation: Record<string, string>
  quantity: number
  unitPrice: number
  subtotal: number
  subtotalTax: number
  total: number
  totalTax: number
  /** The cart line's `origin`: the drawer's control that added it (absent: the shopper's own add). */
  origin?: LineOrigin
}

/** A placed order. Money in minor units. */
export interface Order {
  id: number
  /** The secret that, with the billing e-mail, lets a guest read the order (`wc_order_…`). */
  key: string
  status: OrderStatus
  /** The shopper's user id, or null for a guest. */
  customerId: number | null
  billing: BillingAddress
  shipping: Address
  customerNote: string
  paymentMethod: string
  paymentMethodTitle: string
  lines: OrderLine[]
  coupons: Array<{ code: string, discount: number, discountTax: number }>
  fees: Array<{ name: string, total: number, totalTax: number }>
  shippingLines: Array<{ methodId: string, name: string, total: number, totalTax: number }>
  totals: CartTotals
  /** ISO 4217 code. */
  currency: string
  /** ISO instant. */
  createdAt: string
}

/** An order before storage gives it its id. */
export type NewOrder = Omit<Order, 'id'>
