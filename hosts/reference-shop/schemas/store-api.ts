import { Type } from 'typebox'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { CartConflictErrorSchema, CartSchema } from './store-api-cart.ts'
import {
  ProductCategoryItemSchema, ProductCategoryListSchema, ProductListSchema, ProductSchema, RouteOptionsSchema
} from './store-api-product.ts'

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
  quantity: Type.Optional(Type.Integer({ description: 'The new quantity; without it nothing changes and the cart is answered.' }))
})

export const RemoveItemBody = Type.Object({ key: CartItemKey })

export const CouponBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 200 }) })

/** A list of ids: `1,2,3`, or the parameter repeated (`include=1&include=2`, `include[]=1`). */
const IdList = (description: string) => Type.Array(Type.String({ pattern: '^\\s*[0-9]{1,10}(\\s*,\\s*[0-9]{1,10})*\\s*$', maxLength: 2000 }), { maxItems: 100, description })
const TextList = (description: string) => Type.String({ maxLength: 2000, description })
const WpBoolean = (description: string) => Type.Union([Type.Boolean(), Type.Enum(['0', '1', 'yes', 'no', 'true', 'false'])], { description })

/** `GET products`: WooCommerce's collection parameters that map onto this platform's catalog. */
export const ProductsQuery = Type.Object({
  // Bounded so that the page's offset stays a finite whole number (a page of 1e308 overflowed it into a 500).
  page: Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  slug: Type.Optional(TextList('Products with these slugs, separated by commas (hidden products included).')),
  sku: Type.Optional(TextList('Products or variations with these SKUs, separated by commas (hidden products included).')),
  include: Type.Optional(IdList('Only these ids (hidden products included).')),
  exclude: Type.Optional(IdList('Leave these ids out.')),
  parent: Type.Optional(IdList('Only products with these parents.')),
  parent_exclude: Type.Optional(IdList('Leave out products with these parents.')),
  type: Type.Optional(Type.Enum(['simple', 'grouped', 'external', 'variable', 'variation'], { description: 'Only this product type (there are no grouped or external products here).' })),
  category: Type.Optional(TextList('Category ids or slugs, separated by commas.')),
  category_operator: Type.Optional(Type.Enum(['in', 'not_in', 'and'], { default: 'in', description: 'How the categories combine.' })),
  catalog_visibility: Type.Optional(Type.Enum(['any', 'visible', 'catalog', 'search', 'hidden'], { description: 'Which catalog visibility to list.' })),
  stock_status: Type.Optional(Type.Array(Type.String({ pattern: '^(instock|outofstock|onbackorder)(,(instock|outofstock|onbackorder))*$' }), { maxItems: 3, description: 'Only these stock statuses (`instock`, `outofstock`, `onbackorder`).' })),
  on_sale: Type.Optional(WpBoolean('Only products on sale (true) or not on sale (false).')),
  featured: Type.Optional(WpBoolean('Only featured products (there are none here) or only the others.')),
  min_price: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Lowest price, in minor units.' })),
  max_price: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Highest price, in minor units.' })),
  related: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Products related to this one (sharing a category).' })),
  orderby: Type.Optional(Type.Enum(['date', 'modified', 'id', 'include', 'title', 'slug', 'price', 'popularity', 'rating', 'menu_order', 'comment_count'], { description: 'Sort by.' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'Sort direction.' }))
})

/** `products/{id}`: a product or variation id, or a product's slug. */
export const ProductParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Product or variation id, or a slug.' }) })

export const ProductCategoriesQuery = Type.Object({
  hide_empty: Type.Optional(WpBoolean('Leave out categories without listed products (default true).')),
  orderby: Type.Optional(Type.Enum(['name', 'id', 'slug', 'count'], { default: 'name' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'asc' }))
})

export const ProductCategoryParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Category id.' }) })

/** Response schemas, re-exported so the routes import every Store API schema from here. */
export { CART_KEYS, CartConflictErrorSchema, CartItemSchema, CartSchema, type StoreApiCartBody, type StoreApiCartItemBody, type StoreApiCartConflictBody } from './store-api-cart.ts'
export { PricesSchema, ProductListSchema, ProductSchema, type StoreApiProductBody, type StoreApiProductListBody } from './store-api-product.ts'

/** `response` maps of the Store API routes: the body for each status (every error in the WordPress shape). */
export const CartResponses = { 200: CartSchema, 400: ErrorBody, 503: ErrorBody }
export const AddItemResponses = { 201: CartSchema, 400: ErrorBody, 503: ErrorBody }
/** Changes naming an item key: an unknown key is a 409 carrying the cart. */
export const ItemChangeResponses = { 200: CartSchema, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
/** remove-coupon: an unknown code is a 400, a coupon that is not applied a 409 carrying the cart. */
export const CouponRemovalResponses = { 200: CartSchema, 400: ErrorBody, 409: CartConflictErrorSchema, 503: ErrorBody }
export const ProductListResponses = { 200: ProductListSchema, 400: ErrorBody, 503: ErrorBody }
export const ProductResponses = { 200: ProductSchema, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
export const ProductCategoryListResponses = { 200: ProductCategoryListSchema, 400: ErrorBody, 503: ErrorBody }
export const ProductCategoryResponses = { 200: ProductCategoryItemSchema, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody }
export const RouteOptionsResponses = { 200: RouteOptionsSchema, 400: ErrorBody, 503: ErrorBody }
