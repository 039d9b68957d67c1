import { Type, type Static, type TObjectOptions, type TProperties } from 'typebox'

/**
 * Small pieces shared by the Store API response schemas (`store-api-cart.ts`, `store-api-product.ts`).
 *
 * These schemas also drive serialisation (fast-json-stringify writes the properties of a response schema, in the
 * schema's order, and drops the others): every property the serialisers emit must be listed, in their order.
 *
 * A `title` names a schema in the OpenAPI document: the openapi plugin moves every titled schema to
 * `components.schemas[title]` and refers to it from each place it appears.
 */

/** An amount in minor units, as a string of an integer (`"3900"`). */
export const Amount = Type.String({ pattern: '^-?[0-9]+$', description: 'Amount in minor units, as a string of an integer.', examples: ['3900'] })

/** A product price in minor units, or `""` when the product has no price. */
export const PriceAmount = Type.String({ pattern: '^(-?[0-9]+)?$', description: 'Amount in minor units, as a string of an integer; empty when there is no price.' })

/** The currency fields the Store API appends to every money object, in WooCommerce's order. */
export const CurrencyProperties = {
  currency_code: Type.String({ description: 'ISO 4217 currency code.', examples: ['USD'] }),
  currency_symbol: Type.String({ description: 'Currency symbol.', examples: ['$'] }),
  currency_minor_unit: Type.Integer({ minimum: 0, description: 'Number of decimals of the currency (2 for cents).' }),
  currency_decimal_separator: Type.String({ description: 'Decimal separator for display.' }),
  currency_thousand_separator: Type.String({ description: 'Thousand separator for display.' }),
  currency_prefix: Type.String({ description: 'Text before a displayed amount.' }),
  currency_suffix: Type.String({ description: 'Text after a displayed amount.' })
}

/** The currency block alone. */
export const CurrencyBlockSchema = Type.Object(CurrencyProperties, { description: 'Currency of the amounts.' })
export type StoreApiCurrencyBlock = Static<typeof CurrencyBlockSchema>

/** A money object: the given amount properties followed by the currency block. */
export function MoneyObject<Properties extends TProperties> (properties: Properties, options: TObjectOptions = {}) {
  return Type.Object({ ...properties, ...CurrencyProperties }, options)
}

/** An image attachment of a product or cart item. */
export const ImageSchema = Type.Object({
  id: Type.Integer({ description: 'Image id.' }),
  src: Type.String({ description: 'Full size image URL.' }),
  thumbnail: Type.String({ description: 'Thumbnail URL.' }),
  srcset: Type.String({ description: 'Responsive image sources (`srcset`).' }),
  sizes: Type.String({ description: 'Responsive image sizes (`sizes`).' }),
  name: Type.String({ description: 'Image name.' }),
  alt: Type.String({ description: 'Alternative text.' })
}, { title: 'StoreApiImage' })
export type StoreApiImage = Static<typeof ImageSchema>

/**
 * Extension data keyed by namespace (WooCommerce's ExtendSchema): an open object, `{}` when no extension is
 * registered. Every value is written as it is.
 */
export function ExtensionsSchema (description = 'Extension data, keyed by namespace.') {
  return Type.Record(Type.String(), Type.Unknown(), { description })
}

/** Product types. */
export const ProductTypeSchema = Type.Enum(['simple', 'variable', 'variation'], { description: 'Product type.' })

/** Catalog visibility of a product. */
export const CatalogVisibilitySchema = Type.Enum(['visible', 'catalog', 'search', 'hidden'], { description: 'Where the product is shown.' })
