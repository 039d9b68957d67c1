import { Type, type Static } from 'typebox'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { CartConflictErrorSchema, CartCouponSchema, CartItemSchema, CartSchema } from './store-api-cart.ts'

/**
 * Request and response schemas of the Store API cart routes beyond the cart itself (WooCommerce's CartItems,
 * CartItemsByKey, CartCoupons, CartCouponsByCode, CartUpdateCustomer, CartSelectShippingRate, CartExtensions and
 * Batch routes).
 */

export const ItemKeyParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64, description: 'The cart item key (32 hex characters).' })
})

export const CouponCodeParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200, description: 'A coupon code.' })
})

export const UpdateItemByKeyBody = Type.Object({
  quantity: Type.Optional(Type.Integer({ description: 'The new quantity; without it nothing changes.' }))
})

const text = (description?: string) => Type.Optional(Type.String({ maxLength: 200, ...(description ? { description } : {}) }))

const AddressBodyProperties = {
  first_name: text(),
  last_name: text(),
  company: text(),
  address_1: text(),
  address_2: text(),
  city: text(),
  state: text('State or county: a code (`CA`), or for the United States also the name (`California`).'),
  postcode: text(),
  country: text('ISO 3166-1 alpha-2 country code.'),
  phone: text()
}

export const ShippingAddressBody = Type.Object(AddressBodyProperties, { description: 'The fields to change; the others keep their value.' })
export const BillingAddressBody = Type.Object({ ...AddressBodyProperties, email: text('A valid e-mail address, or empty.') },
  { description: 'The fields to change; the others keep their value.' })

export const UpdateCustomerBody = Type.Object({
  billing_address: Type.Optional(BillingAddressBody),
  shipping_address: Type.Optional(ShippingAddressBody)
})

export const SelectShippingRateBody = Type.Object({
  package_id: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 64 }), Type.Null()],
    { description: 'The package; without it, every package.' })),
  rate_id: Type.String({ minLength: 1, maxLength: 100, description: 'The chosen rate, e.g. `flat_rate:1`.' })
})

export const ExtensionsBody = Type.Object({
  namespace: Type.String({ minLength: 1, maxLength: 100, description: 'The extension namespace that handles the data.' }),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Data for the extension.' }))
})

export const BatchRequestSchema = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 500, description: 'A Store API route, e.g. `/wc/store/v1/cart/add-item`.' }),
  method: Type.Optional(Type.Enum(['POST', 'PUT', 'PATCH', 'DELETE'], { default: 'POST' })),
  body: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  headers: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 4096 }), Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10 })])))
})

export const BatchBody = Type.Object({
  validation: Type.Optional(Type.Enum(['require-all-validate', 'normal'], { default: 'normal' })),
  requests: Type.Array(BatchRequestSchema, { maxItems: 25, description: 'Up to 25 Store API cart requests, run in order.' })
})
export type StoreApiBatchBody = Static<typeof BatchBody>

export const BatchResponseSchema = Type.Object({
  responses: Type.Array(Type.Object({
    body: Type.Unknown({ description: 'The sub-request\'s answer body.' }),
    status: Type.Integer(),
    headers: Type.Record(Type.String(), Type.Unknown())
  }))
}, { title: 'StoreApiBatchResponse', description: 'The answer of each sub-request, in order.' })

const EmptyArray = Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' })

const NoContent = Type.Null({ description: 'No content.' })

export const CartItemListResponses = { 200: Type.Array(CartItemSchema), 400: ErrorBody, 503: ErrorBody }
export const CartItemCreatedResponses = { 201: CartItemSchema, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
export const CartItemResponses = { 200: CartItemSchema, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
export const CartItemDeletedResponses = { 204: NoContent, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
export const EmptiedResponses = { 200: EmptyArray, 400: ErrorBody, 503: ErrorBody }
export const CartCouponListResponses = { 200: Type.Array(CartCouponSchema), 400: ErrorBody, 503: ErrorBody }
export const CartCouponCreatedResponses = { 201: CartCouponSchema, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
export const CartCouponResponses = { 200: CartCouponSchema, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
export const CartCouponDeletedResponses = { 204: NoContent, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
export const CartOnlyResponses = { 200: CartSchema, 400: ErrorBody, 503: ErrorBody }
/** The batch answers 207 (Multi-Status); the document names it `2XX`. */
export const BatchResponses = { '2xx': BatchResponseSchema, 400: ErrorBody, 503: ErrorBody }
