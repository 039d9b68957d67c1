import { Type, type Static } from 'typebox'
import {
  Amount, CurrencyProperties, ExtensionsSchema, ImageSchema, PriceAmount, ProductTypeSchema
} from './store-api-common.ts'

/**
 * Response schemas of the Store API products (`GET {restRoot}wc/store/v1/products`, `…/products/{id}`), following
 * `serializeProduct` in plugins/shop/store-api/serialize-product.ts key for key.
 */

/** Raw, unrounded prices with a higher precision than the currency (6 decimals). */
export const RawPricesSchema = Type.Object({
  precision: Type.Integer({ description: 'Decimal precision of the raw prices.' }),
  price: PriceAmount,
  regular_price: PriceAmount,
  sale_price: PriceAmount
}, { description: 'Raw prices used in calculations, with `precision` decimals.' })

/** `prices` of a product or a cart item: the amounts, the price range, the currency block, the raw prices. */
export const PricesSchema = Type.Object({
  price: PriceAmount,
  regular_price: PriceAmount,
  sale_price: PriceAmount,
  price_range: Type.Union([
    Type.Object({ min_amount: Amount, max_amount: Amount }),
    Type.Null()
  ], { description: 'Price range of a variable product, or null.' }),
  ...CurrencyProperties,
  raw_prices: RawPricesSchema
}, { title: 'StoreApiPrices', description: 'Prices in minor units of the currency.' })
export type StoreApiPrices = Static<typeof PricesSchema>

export const ProductCategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  link: Type.String({ description: 'Category page URL.' })
})

export const ProductTagSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  link: Type.String({ description: 'Tag page URL.' })
})

export const ProductAttributeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'Attribute label.' }),
  taxonomy: Type.String({ description: 'Attribute name (taxonomy), e.g. `pa_size`.' }),
  has_variations: Type.Boolean({ description: 'Whether the attribute is used for variations.' }),
  terms: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() }))
})

export const ProductVariationRefSchema = Type.Object({
  id: Type.Integer({ description: 'Variation id.' }),
  attributes: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }))
})

export const AddToCartInfoSchema = Type.Object({
  text: Type.String({ description: 'Button text.' }),
  description: Type.String({ description: 'Button description.' }),
  url: Type.String({ description: 'Add-to-cart URL (the product page for a variable product).' }),
  minimum: Type.Integer({ description: 'Minimum quantity.' }),
  maximum: Type.Integer({ description: 'Maximum quantity.' }),
  multiple_of: Type.Integer({ description: 'Quantities must be a multiple of this.' })
}, { description: 'Add to cart button details.' })

/** A Store API product. */
export const ProductSchema = Type.Object({
  id: Type.Integer({ description: 'Product id.' }),
  name: Type.String(),
  slug: Type.String(),
  parent: Type.Integer({ description: 'Parent product id, 0 for none.' }),
  type: ProductTypeSchema,
  variation: Type.String({ description: 'Variation attributes text (variations only).' }),
  permalink: Type.String({ description: 'Product page URL.' }),
  sku: Type.String(),
  short_description: Type.String({ description: 'Short description (HTML).' }),
  description: Type.String({ description: 'Description (HTML).' }),
  on_sale: Type.Boolean(),
  prices: PricesSchema,
  average_rating: Type.String(),
  review_count: Type.Integer(),
  images: Type.Array(ImageSchema),
  categories: Type.Array(ProductCategorySchema),
  tags: Type.Array(ProductTagSchema),
  attributes: Type.Array(ProductAttributeSchema),
  variations: Type.Array(ProductVariationRefSchema),
  has_options: Type.Boolean(),
  is_purchasable: Type.Boolean(),
  is_in_stock: Type.Boolean(),
  is_on_backorder: Type.Boolean(),
  low_stock_remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'Stock left when low, else null.' }),
  sold_individually: Type.Boolean(),
  add_to_cart: AddToCartInfoSchema,
  extensions: ExtensionsSchema()
}, { title: 'StoreApiProduct', description: 'A product of the Store API.' })
export type StoreApiProductBody = Static<typeof ProductSchema>

/** `GET products`: one page of products (`X-WP-Total`, `X-WP-TotalPages` give the totals). */
export const ProductListSchema = Type.Array(ProductSchema, { description: 'One page of products.' })
export type StoreApiProductListBody = Static<typeof ProductListSchema>
