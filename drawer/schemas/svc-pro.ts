import { Type } from 'typebox'
import { ErrorBody } from '../../kernel/schemas/error.ts'
import { CurrencyBlockSchema } from '../../kernel/schemas/store-api-common.ts'
import { RecommendedProductSchema } from './svc-free.ts'

/** Request and response schemas of the Pro edition's `svc/v1` routes (design §3.7). */

/**
 * Closed request bodies, as in the Free edition (drawer/schemas/svc-free.ts): Fastify's Ajv runs with `removeAdditional:
 * true`, which would silently drop what `additionalProperties: false` forbids; a schema nothing matches refuses it.
 */
const closed = { additionalProperties: Type.Never() }

export const ShippingMeterSchema = Type.Object({
  enabled: Type.Boolean({ description: 'Whether a free-shipping reward tier is set (settings `rewards`).' }),
  measure: Type.Enum(['subtotal', 'item_count'], { description: 'What `threshold`, `basis` and `remaining` count: minor units, or items.' }),
  threshold: Type.String({ pattern: '^[0-9]+$', description: 'The free-shipping tier\'s threshold (minor units or items, as a string of an integer); "0" without a tier.' }),
  basis: Type.String({ pattern: '^[0-9]+$', description: 'What the cart counts towards it, as the settings `rewards.basis` measures it.' }),
  remaining: Type.String({ pattern: '^[0-9]+$', description: 'Still missing; "0" once reached.' }),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  reached: Type.Boolean({ description: 'True only while the cart\'s shipping costs nothing (the tier reached, or a free-shipping coupon, and the free rate chosen).' }),
  currency: CurrencyBlockSchema
}, { title: 'SvcShippingMeter' })

export const SmartAddonViewSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  description: Type.String(),
  product: RecommendedProductSchema,
  active: Type.Boolean({ description: 'Whether the add-on is in the cart.' }),
  key: Type.Union([Type.String(), Type.Null()], { description: 'The add-on line\'s cart item key when active.' })
}, { title: 'SvcSmartAddon' })

export const SmartAddonListSchema = Type.Array(SmartAddonViewSchema, { description: 'The add-ons whose conditions hold.' })

export const ToggleAddonBody = Type.Object({
  addon_id: Type.String({ minLength: 1, maxLength: 40 }),
  active: Type.Boolean()
}, closed)

export const SpotlightViewSchema = Type.Union([
  Type.Object({ title: Type.String(), text: Type.String(), product: RecommendedProductSchema, in_cart: Type.Boolean() }),
  Type.Null()
], { title: 'SvcSpotlight', description: 'The featured offer, or null when none applies.' })

export const SpotlightAddBody = Type.Object({ product_id: Type.Integer({ minimum: 1 }) }, closed)

export const ProductSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Matches name or SKU.' })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 })
})

export const ProductSearchResultSchema = Type.Object({
  id: Type.Integer(),
  parent_id: Type.Integer(),
  name: Type.String(),
  sku: Type.String(),
  type: Type.String(),
  status: Type.String(),
  catalog_visibility: Type.String(),
  stock_status: Type.String(),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()]),
  price: Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Null()], { description: 'Minor units, as a string of an integer; null without a price.' }),
  currency: CurrencyBlockSchema
}, { title: 'SvcProductSearchResult' })

export const ConditionTypeSchema = Type.Object({
  type: Type.String(),
  label: Type.String(),
  operators: Type.Array(Type.String()),
  value_schema: Type.Object({}, { additionalProperties: true, description: 'JSON schema of the value.' })
}, { title: 'SvcConditionType' })

export const adminErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody } as const
