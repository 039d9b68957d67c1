import { Type } from 'typebox'
import { DrawerCartStateSchema } from './drawer-cart.ts'
import { ErrorBody, ErrorBodyWith } from '../../kernel/schemas/error.ts'
import { RECOMMENDATION_SOURCES, SettingsSchema } from './settings.ts'
import { Amount, CurrencyBlockSchema } from '../../kernel/schemas/store-api-common.ts'

/** Request and response schemas of the Free edition's `svc/v1` routes (specification §4.3, design §3.7). */

/**
 * Closed request bodies: an unknown property is a 400 `svc_invalid_params` naming it. Fastify's Ajv runs with
 * `removeAdditional: true`, which silently drops the properties that `additionalProperties: false` forbids (a
 * mistyped `version` would turn off the settings' conflict check); a schema nothing matches refuses them instead.
 */
const closed = { additionalProperties: Type.Never() }

const CartItemKey = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'A cart item key (32 hex characters).' })

export const RemoveItemsBody = Type.Object({
  keys: Type.Array(CartItemKey, { minItems: 1, maxItems: 100, uniqueItems: true, description: '1 to 100 unique cart item keys, removed together or not at all.' })
}, closed)

export const CouponCodeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'The coupon code; trimmed and compared case-insensitively.' })
}, closed)

export const DRAWER_DATA_SECTIONS = ['cart', 'recommendations', 'shipping_meter', 'smart_addons', 'spotlight'] as const
export const DrawerDataQuery = Type.Object({
  fields: Type.Optional(Type.String({
    maxLength: 200,
    description: `Comma-separated section names (${DRAWER_DATA_SECTIONS.join(', ')}); default every section of the edition.`
  }))
})

export const RecommendedProductSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'Text: escape it before writing it into HTML.' }),
  short_description: Type.String(),
  permalink: Type.String(),
  image: Type.Union([Type.Object({ src: Type.String(), thumbnail: Type.String(), alt: Type.String() }), Type.Null()]),
  prices: Type.Object({ price: Amount, regular_price: Amount, sale_price: Amount, on_sale: Type.Boolean() }),
  currency: CurrencyBlockSchema
}, { title: 'SvcRecommendedProduct' })

export const RecommendationsSchema = Type.Object({
  source: Type.Enum(RECOMMENDATION_SOURCES, { description: 'The first source asked (a rule\'s or the settings\'); fallbacks may add products of other sources.' }),
  products: Type.Array(RecommendedProductSchema, { description: 'Products `recommendations/add` accepts for this cart, not already in it, at most the configured limit.' })
}, { title: 'SvcRecommendations' })

export const AddRecommendationBody = Type.Object({
  product_id: Type.Integer({ minimum: 1 })
}, closed)

/** The sections of `GET drawer-data`; the Pro sections are described by the Pro edition. */
export const DrawerDataSchema = Type.Object({
  cart: Type.Optional(DrawerCartStateSchema),
  recommendations: Type.Optional(RecommendationsSchema),
  shipping_meter: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Pro.' })),
  smart_addons: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'Pro.' })),
  spotlight: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'Pro.' }))
}, { title: 'SvcDrawerData', description: 'One key per requested section.' })

export const SettingsResponse = Type.Object({ settings: SettingsSchema, version: Type.Integer({ minimum: 0 }) }, { title: 'SvcVersionedSettings' })

export const SaveSettingsBody = Type.Object({
  settings: Type.Object({}, { additionalProperties: true, description: 'Any part of the settings document: deep-merged into the current settings.' }),
  version: Type.Optional(Type.Integer({ minimum: 0, description: 'The version the change is based on: a save against another version is refused with 409.' }))
}, closed)

export const SETTINGS_EXPORT_FORMAT = 'svc-settings'
export const SETTINGS_SCHEMA_VERSION = 1

export const SettingsExportSchema = Type.Object({
  format: Type.Literal(SETTINGS_EXPORT_FORMAT),
  schema_version: Type.Literal(SETTINGS_SCHEMA_VERSION),
  exported_at: Type.String({ format: 'date-time' }),
  settings: SettingsSchema
}, { title: 'SvcSettingsExport' })

/**
 * An import is checked by the route and the settings service, so that every problem of the file (wrong format,
 * schema version, each bad setting) is listed at once; the body schema only requires an object.
 */
export const SettingsImportBody = Type.Object({
  format: Type.Optional(Type.Unknown({ description: 'Must be "svc-settings".' })),
  schema_version: Type.Optional(Type.Unknown({ description: 'Must be 1.' })),
  exported_at: Type.Optional(Type.Unknown({ description: 'When the file was made (not checked).' })),
  settings: Type.Optional(Type.Unknown({ description: 'The whole settings document; values left out take their defaults.' }))
}, {
  additionalProperties: true,
  description: 'A document made by GET settings/export: `{format: "svc-settings", schema_version: 1, exported_at, settings}`.'
})

export const CartConflictBody = ErrorBodyWith({ keys: Type.Array(Type.String()), cart: DrawerCartStateSchema }, { title: 'SvcCartConflict', description: 'A refused cart change: the keys at fault and the cart as it stands.' })
export const SettingsConflictBody = ErrorBodyWith({ version: Type.Integer() }, { title: 'SvcSettingsConflict', description: 'The settings were saved by someone else: `data.version` is the current version.' })

export const cartErrors = { 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 503: ErrorBody } as const
