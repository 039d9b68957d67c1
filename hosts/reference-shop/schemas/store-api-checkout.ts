import { Type, type Static } from 'typebox'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { Amount, ExtensionsSchema, MoneyObject } from '../../../kernel/schemas/store-api-common.ts'

/** Request and response schemas of `{restRoot}wc/store/v1/checkout` and `…/order/{id}`, in WooCommerce's shapes. */

const field = (description: string) => Type.String({ maxLength: 200, description })

const addressProperties = {
  first_name: field('First name.'),
  last_name: field('Last name.'),
  company: field('Company.'),
  address_1: field('Address, first line.'),
  address_2: field('Address, second line.'),
  city: field('City.'),
  state: field('State or county code (e.g. `CA`).'),
  postcode: Type.String({ maxLength: 20, description: 'Postal code.' }),
  country: Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2 country code.' }),
  phone: Type.String({ maxLength: 40, description: 'Phone number.' })
}

export const AddressSchema = Type.Object(addressProperties, { title: 'StoreApiAddress', description: 'A postal address.' })
export const BillingAddressSchema = Type.Object({
  ...addressProperties,
  email: Type.String({ maxLength: 254, description: 'E-mail address.' })
}, { title: 'StoreApiBillingAddress', description: 'The billing address, with the e-mail address.' })

/** In a request every field may be left out (it keeps the cart's value). */
const PartialAddress = Type.Partial(Type.Object(addressProperties), { additionalProperties: false })
const PartialBilling = Type.Partial(Type.Object({ ...addressProperties, email: Type.String({ maxLength: 254 }) }), { additionalProperties: false })

const PaymentDataSchema = Type.Array(Type.Object({
  key: Type.String({ maxLength: 100 }),
  value: Type.Union([Type.String({ maxLength: 1000 }), Type.Boolean(), Type.Number()])
}), { maxItems: 20, description: 'Data for the payment method (none is needed by the offline methods).' })

export const CheckoutBody = Type.Object({
  billing_address: PartialBilling,
  shipping_address: Type.Optional(PartialAddress),
  customer_note: Type.Optional(Type.String({ maxLength: 2000, description: 'A note for the shop.' })),
  payment_method: Type.Optional(Type.String({ maxLength: 100, description: 'The payment method id (`cod`, `bacs`).' })),
  payment_data: Type.Optional(PaymentDataSchema),
  create_account: Type.Optional(Type.Boolean({ description: 'Accepted and ignored: the platform creates no accounts at checkout.' })),
  extensions: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()), { maxProperties: 20 }))
}, { additionalProperties: false })

export const CheckoutUpdateBody = Type.Object({
  billing_address: Type.Optional(PartialBilling),
  shipping_address: Type.Optional(PartialAddress),
  customer_note: Type.Optional(Type.String({ maxLength: 2000 })),
  order_notes: Type.Optional(Type.String({ maxLength: 2000, description: 'The note for the shop, as WooCommerce\'s checkout block sends it on PUT (`customer_note` wins).' })),
  payment_method: Type.Optional(Type.String({ maxLength: 100 })),
  additional_fields: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 0 }))
}, { additionalProperties: false })

export const CheckoutSchema = Type.Object({
  order_id: Type.Integer({ description: 'The order id (0 before the order is placed).' }),
  status: Type.String({ description: 'The order status (`checkout-draft` before it is placed).' }),
  order_key: Type.String({ description: 'The order key (with the billing e-mail, what lets a guest read the order).' }),
  order_number: Type.String(),
  customer_note: Type.String(),
  customer_id: Type.Integer({ description: 'The shopper\'s user id, 0 for a guest.' }),
  billing_address: BillingAddressSchema,
  shipping_address: AddressSchema,
  payment_method: Type.String(),
  payment_result: Type.Union([Type.Object({
    payment_status: Type.String({ description: '`success`, `pending`, `failure` or `error`.' }),
    payment_details: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
    redirect_url: Type.String({ description: 'Where the shopper goes next (the order-received page).' })
  }), Type.Null()]),
  additional_fields: Type.Record(Type.String(), Type.Unknown()),
  extensions: ExtensionsSchema()
}, { title: 'StoreApiCheckout' })
export type StoreApiCheckoutBody = Static<typeof CheckoutSchema>

const OrderItemSchema = Type.Object({
  key: Type.String(),
  id: Type.Integer({ description: 'Product or variation id.' }),
  quantity: Type.Integer(),
  name: Type.String(),
  sku: Type.String(),
  variation: Type.Array(Type.Object({ attribute: Type.String(), value: Type.String() })),
  prices: MoneyObject({ price: Amount }),
  totals: MoneyObject({ line_subtotal: Amount, line_subtotal_tax: Amount, line_total: Amount, line_total_tax: Amount })
})

export const OrderSchema = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  items: Type.Array(OrderItemSchema),
  coupons: Type.Array(Type.Object({ code: Type.String(), totals: MoneyObject({ total_discount: Amount, total_discount_tax: Amount }) })),
  fees: Type.Array(Type.Object({ name: Type.String(), totals: MoneyObject({ total: Amount, total_tax: Amount }) })),
  totals: MoneyObject({
    subtotal: Amount,
    total_discount: Amount,
    total_shipping: Amount,
    total_fees: Amount,
    total_tax: Amount,
    total_refund: Amount,
    total_price: Amount,
    total_items: Amount,
    total_items_tax: Amount,
    total_fees_tax: Amount,
    total_discount_tax: Amount,
    total_shipping_tax: Amount,
    tax_lines: Type.Array(Type.Object({ name: Type.String(), price: Amount, rate: Type.String() }))
  }),
  shipping_address: AddressSchema,
  billing_address: BillingAddressSchema,
  needs_payment: Type.Boolean(),
  needs_shipping: Type.Boolean(),
  payment_requirements: Type.Array(Type.String()),
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  payment_method: Type.String(),
  payment_method_title: Type.String(),
  customer_note: Type.String(),
  date_created: Type.String({ description: 'ISO 8601 instant.' })
}, { title: 'StoreApiOrder' })
export type StoreApiOrderBody = Static<typeof OrderSchema>

export const OrderParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) })
export const OrderQuery = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 100 })),
  billing_email: Type.Optional(Type.String({ maxLength: 254 }))
})

export const CheckoutResponses = { 200: CheckoutSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 503: ErrorBody }
export const OrderResponses = { 200: OrderSchema, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody }
