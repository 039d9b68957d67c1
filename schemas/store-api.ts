import { Type } from 'typebox'
import { ErrorBody } from './error.ts'
import { CartConflictErrorSchema, CartSchema } from './store-api-cart.ts'
import { ProductListSchema, ProductSchema } from './store-api-product.ts'

/** Request schemas of the platform's Store API routes (`{restRoot}wc/store/v1/…`). */

export const CartItemKey = Type.String({ minLength: 1, maxLength: 64, description: 'A cart item key (32 hex characters).' })

export const AddItemBody = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Product or variation id.' }),
  quantity: Type.Integer({ default: 1, description: 'Quantity to add.' }),
  variation: Type.Optional(Type.Array(Type.Object({
    attribute: Type.String({ maxLength: 200 }),
    value: Type.String({ maxLength: 200 })
  }), { maxItems: 50, description: 'Chosen attributes of a variable product.' }))
})

export const UpdateItemBody = Type.Object({
  key: CartItemKey,
  quantity: Type.Integer({ description: 'The new quantity.' })
})

export const RemoveItemBody = Type.Object({ key: CartItemKey })

export const CouponBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) })

export const ProductsQuery = Type.Object({
  // Bounded so that the page's offset stays a finite whole number (a page of 1e308 overflowed it into a 500).
  page: Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  category: Type.Optional(Type.Integer({ minimum: 1 }))
})

export const ProductParams = Type.Object({ id: Type.Integer({ minimum: 1 }) })

/** Response schemas, re-exported so the routes import every Store API schema from here. */
export { CART_KEYS, CartConflictErrorSchema, CartItemSchema, CartSchema, type StoreApiCartBody, type StoreApiCartItemBody, type StoreApiCartConflictBody } from './store-api-cart.ts'
export { PricesSchema, ProductListSchema, ProductSchema, type StoreApiProductBody, type StoreApiProductListBody } from './store-api-product.ts'

/** `response` maps of the Store API routes: the body for each status (every error in the WordPress shape). */
export const CartResponses = { 200: CartSchema, 400: ErrorBody, 503: ErrorBody }
export const AddItemResponses = { 201: CartSchema, 400: ErrorBody, 503: ErrorBody }
/** Changes naming an item key: an unknown key is a 409 carrying the cart. */
export const ItemChangeResponses = { 200: CartSchema, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
export const ProductListResponses = { 200: ProductListSchema, 400: ErrorBody, 503: ErrorBody }
export const ProductResponses = { 200: ProductSchema, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
