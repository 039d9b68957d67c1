import { Type, type Static } from 'typebox'
import {
  Amount, CurrencyProperties, ExtensionsSchema, ImageSchema, PriceAmount, ProductTypeSchema
} from '../../../kernel/schemas/store-api-common.ts'

/**
 * Response schemas of the Store API products (`GET {restRoot}wc/store/v1/products`, `…/products/{id}`), following
 * `serializeProduct` in hosts/reference-shop/store-api/serialize-product.ts key for key.
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
  attributes: Type.Array(Type.Object({
    name: Type.String({ description: 'Attribute label.' }),
    value: Type.Union([Type.String(), Type.Null()], { description: 'The value the variation stands for; null for any value.' })
  }))
})

export const StockAvailabilitySchema = Type.Object({
  text: Type.String({ description: 'Availability text (`Out of stock`, `3 in stock`, …); empty when there is nothing to say.' }),
  class: Type.String({ description: '`in-stock`, `out-of-stock` or `available-on-backorder`.' })
}, { description: "The product's availability, as the product page shows it." })

export const DimensionsSchema = Type.Object({
  length: Type.String(),
  width: Type.String(),
  height: Type.String()
}, { description: 'Dimensions, as entered (empty when not given).' })

const LinkList = Type.Array(Type.Object({
  href: Type.String(),
  embeddable: Type.Optional(Type.Boolean({ description: 'The linked products can be embedded (`_embed`).' }))
}))

export const ProductLinksSchema = Type.Object({
  self: LinkList,
  collection: LinkList,
  up: Type.Optional(LinkList),
  upsells: Type.Optional(LinkList),
  cross_sells: Type.Optional(LinkList),
  related: Type.Optional(LinkList)
}, { description: 'Links to this product, its collection, its parent (variations) and the products it suggests.' })

export const AddToCartInfoSchema = Type.Object({
  text: Type.String({ description: 'Button text.' }),
  description: Type.String({ description: 'Button description.' }),
  url: Type.String({ description: 'Add-to-cart URL (the product page for a variable product).' }),
  single_text: Type.String({ description: 'Button text on the product page.' }),
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
  price_html: Type.String({ description: 'The price as HTML (a range for a variable product, the regular price struck out when on sale).' }),
  average_rating: Type.String(),
  review_count: Type.Integer(),
  images: Type.Array(ImageSchema),
  categories: Type.Array(ProductCategorySchema),
  tags: Type.Array(ProductTagSchema),
  brands: Type.Array(ProductTagSchema, { description: 'Brands (none on this platform).' }),
  attributes: Type.Array(ProductAttributeSchema),
  variations: Type.Array(ProductVariationRefSchema),
  grouped_products: Type.Array(Type.Integer(), { description: 'Grouped products (none on this platform).' }),
  has_options: Type.Boolean(),
  is_purchasable: Type.Boolean(),
  is_in_stock: Type.Boolean(),
  is_on_backorder: Type.Boolean(),
  low_stock_remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'Stock left when low, else null.' }),
  stock_availability: StockAvailabilitySchema,
  sold_individually: Type.Boolean(),
  weight: Type.String({ description: 'Weight, as entered (empty when not given).' }),
  formatted_weight: Type.String({ description: 'Weight with its unit, or `N/A`.' }),
  dimensions: DimensionsSchema,
  formatted_dimensions: Type.String({ description: 'Dimensions with their unit (`10 × 5 × 3 cm`), or `N/A`.' }),
  add_to_cart: AddToCartInfoSchema,
  extensions: ExtensionsSchema(),
  _links: Type.Optional(ProductLinksSchema)
}, { title: 'StoreApiProduct', description: 'A product of the Store API.' })
export type StoreApiProductBody = Static<typeof ProductSchema>

/** `GET products`: one page of products (`X-WP-Total`, `X-WP-TotalPages` give the totals). */
export const ProductListSchema = Type.Array(ProductSchema, { description: 'One page of products.' })
export type StoreApiProductListBody = Static<typeof ProductListSchema>

/** A product category (`GET products/categories`), WooCommerce's ProductCategorySchema. */
export const ProductCategoryItemSchema = Type.Object({
  id: Type.Integer({ description: 'Category id.' }),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String({ description: 'Description (none on this platform: empty).' }),
  parent: Type.Integer({ description: 'Parent category id, 0 for none.' }),
  count: Type.Integer({ description: 'Published products listed in the catalog under this category.' }),
  image: Type.Union([ImageSchema, Type.Null()], { description: 'Category image, or null.' }),
  review_count: Type.Integer(),
  permalink: Type.String({ description: 'Category page URL.' })
}, { title: 'StoreApiProductCategory', description: 'A product category of the Store API.' })

export const ProductCategoryListSchema = Type.Array(ProductCategoryItemSchema, { description: 'Product categories.' })

/** What WordPress answers to OPTIONS on a route: its namespace, methods, endpoints and item schema. */
export const RouteOptionsSchema = Type.Object({
  namespace: Type.String(),
  methods: Type.Array(Type.String()),
  endpoints: Type.Array(Type.Object({
    methods: Type.Array(Type.String()),
    args: Type.Record(Type.String(), Type.Unknown())
  })),
  schema: Type.Unknown()
}, { description: 'The route described, WordPress style.' })
