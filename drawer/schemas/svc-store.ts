import { Type, type Static } from 'typebox'
import { ErrorBody, ErrorBodyWith } from '../../kernel/schemas/error.ts'
import { Amount, CurrencyProperties } from '../../kernel/schemas/store-api-common.ts'
import { ExtensionsWithSvc, SvcCartExtensionSchema, SvcCartItemExtensionSchema } from './svc-extension.ts'

/**
 * The cart routes the drawer serves itself for a host without a Store API (`storeApi: 'drawer'`, under
 * `{restRoot}svc/v1/store/`): WooCommerce's Store API cart requests and the part of its cart the drawer's script reads
 * (`items_count`, `extensions.svc`), with the lines, coupons and totals a page may want.
 */

const closed = { additionalProperties: Type.Never() }
const CartItemKey = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'A cart item key (32 hex characters).' })
const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'The quantity; 0 removes the line.' })

const VariationInput = Type.Union([
  Type.Array(Type.Object({ attribute: Type.String({ minLength: 1, maxLength: 200 }), value: Type.String({ maxLength: 200 }) }, closed), { maxItems: 20 }),
  Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ maxLength: 200 }), { maxProperties: 20 })
], { description: 'The chosen attributes of a variable product: the Store API\'s `[{attribute, value}]`, or `{attribute: value}`.' })

export const StoreAddItemBody = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'The product or variation id.' }),
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'How many (default 1).' })),
  variation: Type.Optional(VariationInput)
}, closed)
export type StoreAddItemInput = Static<typeof StoreAddItemBody>

export const StoreUpdateItemBody = Type.Object({ key: CartItemKey, quantity: Quantity }, closed)
export const StoreRemoveItemBody = Type.Object({ key: CartItemKey }, closed)
export const StoreCouponBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'The coupon code; trimmed and compared case-insensitively.' })
}, closed)

const Currency = Type.Object(CurrencyProperties)

export const StoreCartItemSchema = Type.Object({
  key: Type.String(),
  id: Type.Integer({ description: 'The product, or the variation, of the line.' }),
  quantity: Type.Integer(),
  name: Type.String(),
  variation: Type.Array(Type.Object({ attribute: Type.String(), value: Type.String() })),
  prices: Type.Object({ price: Amount, line_subtotal: Amount, line_total: Amount }, { description: 'Unit price and line totals, before tax, in minor units.' }),
  extensions: ExtensionsWithSvc(SvcCartItemExtensionSchema, 'The drawer\'s data on the line.')
}, { title: 'SvcStoreCartItem' })

export const StoreCartSchema = Type.Object({
  items: Type.Array(StoreCartItemSchema),
  items_count: Type.Integer({ minimum: 0 }),
  coupons: Type.Array(Type.Object({ code: Type.String(), discount: Amount })),
  totals: Type.Object({
    total_items: Amount,
    total_discount: Amount,
    total_shipping: Amount,
    total_tax: Amount,
    total_price: Amount,
    ...Currency.properties
  }),
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  extensions: ExtensionsWithSvc(SvcCartExtensionSchema, 'The drawer\'s data on the cart (as on the Store API cart).')
}, { title: 'SvcStoreCart', description: 'The cart as the drawer\'s own cart routes answer it: the Store API cart\'s fields the drawer reads.' })
export type StoreCartBody = Static<typeof StoreCartSchema>

export const StoreCartConflictBody = ErrorBodyWith({ keys: Type.Optional(Type.Array(Type.String())), cart: Type.Optional(StoreCartSchema) },
  { title: 'SvcStoreCartConflict', description: 'A refused cart change: for a line, the keys at fault and the cart as it stands.' })

export const storeCartErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: StoreCartConflictBody, 413: ErrorBody, 429: ErrorBody, 503: ErrorBody } as const
