import { Type, type Static, type TSchema } from 'typebox'
import { DrawerConfigSchema, LauncherSchema } from './settings.ts'

/**
 * `extensions.svc` of the Store API cart and of each cart item (specification §2.1). These schemas also serialise
 * the responses (fast-json-stringify writes listed properties in this order and drops unlisted ones), so every
 * object a filter may add keys to is open (`additionalProperties: true`): the cart's `svc` object, the presentation
 * rows, their extra lines and `customPresentation`.
 */

export const SvcQuantityLimitsSchema = Type.Object({
  minimum: Type.Integer({ description: 'Smallest quantity allowed.' }),
  maximum: Type.Integer({ description: 'Largest quantity allowed.' }),
  multipleOf: Type.Integer({ description: 'Quantities must be a multiple of this.' }),
  unlimited: Type.Boolean({ description: 'True when neither stock nor a rule caps the quantity (the maximum is the platform\'s default ceiling).' })
}, { description: "The platform's quantity rules for the line." })

/** The per-line fields, after `key`, shared by the item's `extensions.svc` and its presentation row. */
const ItemFieldProperties = {
  product_id: Type.Integer({ description: 'The product the shopper chose: the parent for a variation (the Store API item `id` is then the variation).' }),
  visible: Type.Boolean({ description: 'Whether the platform lets the line appear in a mini cart.' }),
  quantityEditable: Type.Boolean({ description: 'Whether the drawer offers quantity controls for the line.' }),
  removable: Type.Boolean({ description: 'Whether the drawer offers removal for the line.' }),
  quantityLimits: SvcQuantityLimitsSchema,
  backorderNotice: Type.String({ description: 'Plain-text backorder notice (no HTML), at most 500 bytes of UTF-8; empty when none.' })
}

const ItemKey = Type.String({ description: 'The exact cart item key of the platform.' })

/** `extensions.svc` of a cart item. */
export const SvcCartItemExtensionSchema = Type.Object({
  key: ItemKey,
  ...ItemFieldProperties
}, { title: 'SvcCartItemExtension', description: 'The cart drawer service\'s data on a cart item.' })
export type SvcCartItemExtension = Static<typeof SvcCartItemExtensionSchema>

export const ExtraLineSchema = Type.Object({
  label: Type.String({ description: 'Plain text.' }),
  value: Type.String({ description: 'Plain text.' })
}, { additionalProperties: true, description: 'An extra line shown under the item, e.g. `Engraving: For Sam`.' })

/** An object for the drawer's custom renderer, or null. Written as it is. */
export const CustomPresentationSchema = Type.Unsafe<Record<string, unknown> | null>({
  type: ['object', 'null'],
  additionalProperties: true,
  description: 'Data for a custom renderer of the line, set by a `svc_cart_item_data` filter; null when none.'
})

/** A row of `item_presentations`: the output of the filter `svc_cart_item_data`. */
export const ItemPresentationSchema = Type.Object({
  key: ItemKey,
  name: Type.String({ description: 'Product name, as the Store API item `name`.' }),
  short_description: Type.String({ description: 'Short description (HTML), as the Store API item `short_description`.' }),
  variationSummary: Type.String({ description: 'The chosen attributes, e.g. `Color: blue, Size: large`; empty for a simple product.' }),
  extraLines: Type.Array(ExtraLineSchema),
  customPresentation: CustomPresentationSchema,
  ...ItemFieldProperties
}, {
  additionalProperties: true,
  title: 'SvcItemPresentation',
  description: 'How the drawer presents one cart line. Keys added by `svc_cart_item_data` filters are kept.'
})

export const SvcCouponSchema = Type.Object({
  code: Type.String({ description: 'Coupon code.' }),
  label: Type.String({ description: 'Text to show, e.g. `Coupon: save10`.' }),
  isSystemReward: Type.Boolean({ description: 'A discount the service granted by itself, not a coupon the shopper entered.' }),
  removable: Type.Boolean({ description: 'Whether the drawer offers removal.' })
}, { title: 'SvcCoupon', description: 'An applied coupon as the service presents it.' })

/** `extensions.svc` of the cart. Every prop is optional in the schema (specification §2.1); the service sets them all. */
export const SvcCartExtensionSchema = Type.Object({
  drawer_config: Type.Optional(DrawerConfigSchema),
  launcher: Type.Optional(LauncherSchema),
  coupons: Type.Optional(Type.Array(SvcCouponSchema, { description: 'Always set by the service; filters cannot change it.' })),
  item_presentations: Type.Optional(Type.Array(ItemPresentationSchema, {
    maxItems: 100,
    description: 'One row per cart line, for the first 100 lines. Always set by the service; only `svc_cart_item_data` shapes the rows.'
  })),
  optional_locked_keys: Type.Optional(Type.Array(Type.String(), { description: 'Cart item keys locked against changes; empty in the Free edition. Always set by the service.' }))
}, {
  additionalProperties: true,
  title: 'SvcCartExtension',
  description: 'The cart drawer service\'s data on the cart. Keys added by `svc_store_api_cart_extension_data` filters are kept.'
})
export type SvcCartExtension = Static<typeof SvcCartExtensionSchema>

/**
 * A Store API `extensions` object with the `svc` namespace described: still open to every other namespace, whose
 * values are written as they are.
 */
export function ExtensionsWithSvc (svc: TSchema, description: string) {
  return Type.Object({ svc: Type.Optional(svc) }, { additionalProperties: true, description })
}
