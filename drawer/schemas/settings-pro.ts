import { Type } from 'typebox'
import { MAX_BUNDLE_SLOTS } from '../domain/bundle-solver.ts'

/** The Pro edition's settings sections (they exist in every document; only the Pro edition acts on them). */

const Id = (description: string) => Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,39}$', description })
const Text = (maxLength: number, description: string, fallback = '') => Type.String({ maxLength, default: fallback, description })

const ConditionSchema = Type.Object({
  type: Type.String({ description: 'A type of `GET conditions/types`.' }),
  operator: Type.String({ description: 'One of the type\'s operators.' }),
  value: Type.Unknown({ description: 'Checked against the type\'s `value_schema`.' })
}, { additionalProperties: false })

const InnerGroupSchema = Type.Object({
  match: Type.Enum(['all', 'any']),
  conditions: Type.Array(ConditionSchema, { maxItems: 50 })
}, { additionalProperties: false })

/** Conditions joined by AND (`all`) or OR (`any`), with groups one level down; no condition always holds. */
export const ConditionGroupSchema = Type.Object({
  match: Type.Enum(['all', 'any'], { default: 'all' }),
  conditions: Type.Array(Type.Union([ConditionSchema, InnerGroupSchema]), { maxItems: 50, default: [] })
}, { additionalProperties: false, title: 'SvcConditionGroup', description: 'When something applies.' })

export const SmartAddonSchema = Type.Object({
  id: Id('Stable id of the add-on.'),
  product_id: Type.Integer({ minimum: 1, description: 'The simple product added when the shopper ticks the add-on.' }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
  description: Text(300, 'Shown under the label.'),
  conditions: ConditionGroupSchema
}, { additionalProperties: false })

export const SmartAddonsSettingsSchema = Type.Object({
  enabled: Type.Boolean({ default: true }),
  addons: Type.Array(SmartAddonSchema, { maxItems: 20, default: [] })
}, { additionalProperties: false, description: 'Optional extras offered in the drawer (gift wrap, insurance…).' })

export const BundleSlotSchema = Type.Object({
  label: Type.String({ minLength: 1, maxLength: 100 }),
  product_ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 20, uniqueItems: true, description: 'The products this slot may be filled with.' })
}, { additionalProperties: false })

export const BundleSchema = Type.Object({
  id: Id('Stable id of the bundle.'),
  title: Type.String({ minLength: 1, maxLength: 100 }),
  description: Text(300, 'Shown with the bundle.'),
  discount_percent: Type.Integer({ minimum: 0, maximum: 90, description: 'Discount on every line of the bundle.' }),
  slots: Type.Array(BundleSlotSchema, { minItems: 1, maxItems: MAX_BUNDLE_SLOTS })
}, { additionalProperties: false })

export const BundlesSettingsSchema = Type.Object({
  enabled: Type.Boolean({ default: true }),
  bundles: Type.Array(BundleSchema, { maxItems: 20, default: [] })
}, { additionalProperties: false, description: 'Bundles the shopper builds from slots, with a discount.' })

export const SpotlightSettingsSchema = Type.Object({
  enabled: Type.Boolean({ default: false }),
  product_id: Type.Integer({ minimum: 0, default: 0, description: 'The featured simple product (0: none).' }),
  title: Text(100, 'Headline of the offer.'),
  text: Text(300, 'Text of the offer.'),
  conditions: ConditionGroupSchema
}, { additionalProperties: false, description: 'One featured offer in the drawer.' })

export const AnalyticsSettingsSchema = Type.Object({
  enabled: Type.Boolean({ default: true, description: 'Whether drawer events are recorded.' }),
  retention_days: Type.Integer({ minimum: 1, maximum: 730, default: 90, description: 'Events older than this are deleted.' })
}, { additionalProperties: false, description: 'Drawer analytics.' })

export const PRO_SETTINGS_SECTIONS = {
  smart_addons: SmartAddonsSettingsSchema,
  bundles: BundlesSettingsSchema,
  spotlight: SpotlightSettingsSchema,
  analytics: AnalyticsSettingsSchema
}
