import { Type, type Static, type TProperties } from 'typebox'
import { ConditionGroupSchema, PRO_SETTINGS_SECTIONS } from './settings-pro.ts'
import { LanguageSchema } from './settings-language.ts'
import { RewardsSettingsSchema } from './settings-rewards.ts'
import { BehaviourSchema, LauncherLookProperties } from './settings-behaviour.ts'

/**
 * The service's settings document: one TypeBox schema with a default for every value. Each section is its own
 * schema (used on its own by `extensions.svc.drawer_config` and `launcher`); `SETTINGS_SECTIONS` lists them, so a
 * later section (the Pro ones) is one more member there. Every object is closed (`additionalProperties: false`): an
 * unknown key is a mistake to report, not something to keep.
 *
 * Property order is the order the service writes the document in (defaults first, see `drawer/plugins/settings`).
 */

const HexColor = (fallback: string, description: string) => Type.String({
  pattern: '^#[0-9a-fA-F]{6}$',
  default: fallback,
  description: `${description} (\`#rrggbb\`).`,
  examples: [fallback]
})

export const DRAWER_WIDTH_DESKTOP = { minimum: 280, maximum: 960 } as const
export const DRAWER_WIDTH_MOBILE = { minimum: 50, maximum: 100 } as const

export const DrawerColorsSchema = Type.Object({
  primary: HexColor('#1f2937', 'Buttons and links'),
  background: HexColor('#ffffff', 'Drawer background'),
  text: HexColor('#111827', 'Body text'),
  accent: HexColor('#2563eb', 'Badges, progress and highlights')
}, { additionalProperties: false, description: 'Drawer colours.' })

export const DrawerConfigSchema = Type.Object({
  position: Type.Enum(['right', 'left'], { default: 'right', description: 'The side the drawer slides in from.' }),
  width_desktop: Type.Integer({ ...DRAWER_WIDTH_DESKTOP, default: 420, description: 'Drawer width on wide screens, in pixels.' }),
  width_mobile: Type.Integer({ ...DRAWER_WIDTH_MOBILE, default: 100, description: 'Drawer width on narrow screens, in percent of the viewport.' }),
  animation: Type.Enum(['slide', 'fade', 'none'], { default: 'slide', description: 'How the drawer opens.' }),
  animation_duration: Type.Integer({ minimum: 0, maximum: 2000, default: 300, description: 'Animation length in milliseconds.' }),
  border_radius: Type.Integer({ minimum: 0, maximum: 48, default: 0, description: 'Corner radius in pixels.' }),
  dark_mode: Type.Enum(['auto', 'light', 'dark'], { default: 'auto', description: '`auto` follows the visitor\'s system preference.' }),
  colors: DrawerColorsSchema
}, { additionalProperties: false, title: 'SvcDrawerConfig', description: 'How the drawer looks and moves.' })
export type DrawerConfig = Static<typeof DrawerConfigSchema>

export const LauncherSchema = Type.Object({
  enabled: Type.Boolean({ default: true, description: 'Whether the floating launcher button is shown.' }),
  position: Type.Enum(['bottom-right', 'bottom-left', 'top-right', 'top-left'], { default: 'bottom-right', description: 'Screen corner of the launcher.' }),
  show_count: Type.Boolean({ default: true, description: 'Show the number of items on the launcher.' }),
  show_total: Type.Boolean({ default: false, description: 'Show the cart total on the launcher.' }),
  ...LauncherLookProperties
}, { additionalProperties: false, title: 'SvcLauncher', description: 'The floating button that opens the drawer.' })
export type LauncherSettings = Static<typeof LauncherSchema>

export const RECOMMENDATION_SOURCES = ['cross_sells', 'upsells', 'manual', 'same_category', 'best_sellers'] as const

const RecommendationSourceSchema = (description: string, fallback?: string) => Type.Enum(RECOMMENDATION_SOURCES, {
  ...(fallback === undefined ? {} : { default: fallback }),
  description: `${description} \`cross_sells\`/\`upsells\`: of the cart's products; \`manual\`: listed ids; \`same_category\`: other products of the cart's products' categories; \`best_sellers\`: most units in placed orders.`
})

export const RecommendationRuleSchema = Type.Object({
  conditions: ConditionGroupSchema,
  source: RecommendationSourceSchema('The first source while the conditions hold.'),
  product_ids: Type.Array(Type.Integer({ minimum: 1 }), { default: [], maxItems: 100, uniqueItems: true, description: 'The products of a `manual` source, in display order.' })
}, { additionalProperties: false, title: 'SvcRecommendationRule' })

export const RecommendationsSchema = Type.Object({
  enabled: Type.Boolean({ default: true, description: 'Whether the drawer shows recommendations.' }),
  source: RecommendationSourceSchema('Where recommended products come from first, when no rule holds.', 'cross_sells'),
  manual_ids: Type.Array(Type.Integer({ minimum: 1 }), {
    default: [],
    maxItems: 100,
    uniqueItems: true,
    description: 'Product ids for the `manual` source, in display order.'
  }),
  limit: Type.Integer({ minimum: 1, maximum: 12, default: 4, description: 'How many recommendations at most (the maximum count).' }),
  fallbacks: Type.Array(RecommendationSourceSchema('A further source.'), {
    default: [],
    maxItems: 5,
    uniqueItems: true,
    description: 'Sources asked in order after the first one while fewer than `limit` products were found (for example `same_category`, then `best_sellers`).'
  }),
  rules: Type.Array(RecommendationRuleSchema, {
    default: [],
    maxItems: 20,
    description: 'The first rule whose conditions hold for the cart and the visitor chooses the first source instead of `source`.'
  })
}, { additionalProperties: false, description: 'Product recommendations in the drawer. Only products the drawer can add are listed.' })
export type RecommendationsSettings = Static<typeof RecommendationsSchema>

/**
 * The sections of the document. A later section is added here (with defaults for every value) and becomes part
 * of the schema, the defaults, validation, export and import at once.
 */
export const SETTINGS_SECTIONS = {
  enabled: Type.Boolean({ default: true, description: 'Master switch: when false there is no `.svc-cart-json` fragment (extension data and routes still work).' }),
  drawer_config: DrawerConfigSchema,
  launcher: LauncherSchema,
  recommendations: RecommendationsSchema,
  language: LanguageSchema,
  rewards: RewardsSettingsSchema,
  behaviour: BehaviourSchema,
  ...PRO_SETTINGS_SECTIONS
} satisfies TProperties

/** The whole settings document. */
export const SettingsSchema = Type.Object(SETTINGS_SECTIONS, {
  additionalProperties: false,
  title: 'SvcSettings',
  description: 'The cart drawer service settings.'
})
export type Settings = Static<typeof SettingsSchema>

/** A partial document, as `POST settings` takes it: any subset of the sections and of their values. */
export type SettingsPatch = DeepPartial<Settings>
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] }
