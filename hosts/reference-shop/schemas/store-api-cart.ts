import { Type, type Static } from 'typebox'
import { ErrorBodyWith } from '../../../kernel/schemas/error.ts'
import {
  Amount, CatalogVisibilitySchema, ImageSchema, MoneyObject, ProductTypeSchema
} from '../../../kernel/schemas/store-api-common.ts'
import { PricesSchema, ProductSchema } from './store-api-product.ts'
import { ExtensionsWithSvc, SvcCartExtensionSchema, SvcCartItemExtensionSchema } from '../../../drawer/index.ts'

/**
 * Response schemas of the Store API cart (`{restRoot}wc/store/v1/cart…`), following `serializeCart` in
 * hosts/reference-shop/store-api/serialize-cart.ts key for key, in WooCommerce's order.
 */

export const QuantityLimitsSchema = Type.Object({
  minimum: Type.Integer({ description: 'Smallest quantity allowed.' }),
  maximum: Type.Integer({ description: 'Largest quantity allowed.' }),
  multiple_of: Type.Integer({ description: 'Quantities must be a multiple of this.' }),
  editable: Type.Boolean({ description: 'Whether the quantity can be changed.' })
}, { description: 'How the quantity of this item can be changed.' })

export const CartItemTotalsSchema = MoneyObject({
  line_subtotal: Amount,
  line_subtotal_tax: Amount,
  line_total: Amount,
  line_total_tax: Amount
}, { description: 'Line totals before (`subtotal`) and after (`total`) coupon discounts.' })

/** A line of the cart. */
export const CartItemSchema = Type.Object({
  key: Type.String({ description: 'Cart item key (32 hex characters).' }),
  id: Type.Integer({ description: 'Product or variation id.' }),
  type: ProductTypeSchema,
  quantity: Type.Integer(),
  quantity_limits: QuantityLimitsSchema,
  name: Type.String(),
  short_description: Type.String({ description: 'Short description (HTML).' }),
  description: Type.String({ description: 'Description (HTML).' }),
  sku: Type.String(),
  low_stock_remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'Stock left when low, else null.' }),
  backorders_allowed: Type.Boolean(),
  show_backorder_badge: Type.Boolean(),
  sold_individually: Type.Boolean(),
  permalink: Type.String({ description: 'Product page URL, with the chosen attributes of a variation.' }),
  images: Type.Array(ImageSchema),
  variation: Type.Array(Type.Object({
    attribute: Type.String({ description: 'Attribute label.' }),
    value: Type.String({ description: 'Chosen value.' })
  }), { description: 'Chosen attributes of a variation.' }),
  item_data: Type.Array(Type.Object({
    name: Type.String(),
    value: Type.String(),
    display: Type.String()
  }), { description: 'Metadata of the item.' }),
  prices: PricesSchema,
  totals: CartItemTotalsSchema,
  catalog_visibility: CatalogVisibilitySchema,
  extensions: ExtensionsWithSvc(SvcCartItemExtensionSchema, 'Extension data of the item, keyed by namespace (`svc`: the cart drawer service).')
}, { title: 'StoreApiCartItem', description: 'A cart item.' })
export type StoreApiCartItemBody = Static<typeof CartItemSchema>

export const CartCouponSchema = Type.Object({
  code: Type.String({ description: 'Coupon code (normalised: trimmed, lower case).' }),
  discount_type: Type.Enum(['percent', 'fixed_cart', 'fixed_product'], { description: 'Discount type.' }),
  totals: MoneyObject({ total_discount: Amount, total_discount_tax: Amount })
})

export const CartFeeSchema = Type.Object({
  key: Type.String({ description: 'Fee id.' }),
  name: Type.String(),
  totals: MoneyObject({ total: Amount, total_tax: Amount })
})

export const CartTotalsSchema = MoneyObject({
  total_items: Amount,
  total_items_tax: Amount,
  total_fees: Amount,
  total_fees_tax: Amount,
  total_discount: Amount,
  total_discount_tax: Amount,
  total_shipping: Type.Union([Amount, Type.Null()], { description: 'Null until shipping is calculated.' }),
  total_shipping_tax: Type.Union([Amount, Type.Null()], { description: 'Null until shipping is calculated.' }),
  total_price: Amount,
  total_tax: Amount,
  tax_lines: Type.Array(Type.Object({
    name: Type.String(),
    price: Amount,
    rate: Type.String({ description: 'Rate in percent, as text.' })
  }))
}, { title: 'StoreApiCartTotals', description: 'Cart totals in minor units.' })

const AddressProperties = {
  first_name: Type.String(),
  last_name: Type.String(),
  company: Type.String(),
  address_1: Type.String(),
  address_2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postcode: Type.String(),
  country: Type.String(),
  phone: Type.String()
}
export const ShippingAddressSchema = Type.Object(AddressProperties)
export const BillingAddressSchema = Type.Object({ ...AddressProperties, email: Type.String() })

export const ShippingRateSchema = MoneyObject({
  rate_id: Type.String({ description: 'Rate id, e.g. `flat_rate:1`.' }),
  name: Type.String(),
  description: Type.String(),
  delivery_time: Type.String(),
  price: Amount,
  taxes: Amount,
  instance_id: Type.Integer(),
  method_id: Type.String(),
  meta_data: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
  selected: Type.Boolean()
})

export const ShippingPackageSchema = Type.Object({
  package_id: Type.Union([Type.Integer(), Type.String()]),
  name: Type.String(),
  destination: Type.Object({
    address_1: Type.String(),
    address_2: Type.String(),
    city: Type.String(),
    state: Type.String(),
    postcode: Type.String(),
    country: Type.String()
  }),
  items: Type.Array(Type.Object({ key: Type.String(), name: Type.String(), quantity: Type.Integer() })),
  shipping_rates: Type.Array(ShippingRateSchema)
}, { title: 'StoreApiShippingPackage', description: 'A shipping package and its rates.' })

export const CartErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String()
}, { description: 'A problem with the cart, e.g. a line whose product is gone.' })

/** The Store API cart: the body of every successful cart response. */
export const CartSchema = Type.Object({
  items: Type.Array(CartItemSchema),
  coupons: Type.Array(CartCouponSchema),
  fees: Type.Array(CartFeeSchema),
  totals: CartTotalsSchema,
  shipping_address: ShippingAddressSchema,
  billing_address: BillingAddressSchema,
  needs_payment: Type.Boolean(),
  needs_shipping: Type.Boolean(),
  payment_requirements: Type.Array(Type.String()),
  has_calculated_shipping: Type.Boolean(),
  shipping_rates: Type.Array(ShippingPackageSchema),
  items_count: Type.Integer({ description: 'Sum of the quantities.' }),
  items_weight: Type.Number(),
  cross_sells: Type.Array(ProductSchema),
  errors: Type.Array(CartErrorSchema),
  payment_methods: Type.Array(Type.String({ description: 'Payment method id.' })),
  extensions: ExtensionsWithSvc(SvcCartExtensionSchema, 'Extension data, keyed by namespace (`svc`: the cart drawer service).')
}, { title: 'StoreApiCart', description: 'The Store API cart.' })
export type StoreApiCartBody = Static<typeof CartSchema>

/** The top-level keys of a cart, in WooCommerce's order. */
export const CART_KEYS = Object.keys(CartSchema.properties) as ReadonlyArray<keyof StoreApiCartBody>

/** 409 `woocommerce_rest_cart_invalid_key`: the error, with the whole cart in `data.cart`. */
export const CartConflictErrorSchema = ErrorBodyWith(
  { cart: CartSchema },
  { title: 'StoreApiCartConflictError', description: 'The item key is unknown (`woocommerce_rest_cart_invalid_key`); `data.cart` holds the unchanged cart.' }
)
export type StoreApiCartConflictBody = Static<typeof CartConflictErrorSchema>
