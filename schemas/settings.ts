import { Type, type Static, type TProperties } from 'typebox'
import { PRO_SETTINGS_SECTIONS } from './settings-pro.ts'

/**
 * The service's settings document: one TypeBox schema with a default for every value. Each section is its own
 * schema (used on its own by `extensions.svc.drawer_config` and `launcher`); `SETTINGS_SECTIONS` lists them, so a
 * later section (the Pro ones) is one more member there. Every object is closed (`additionalProperties: false`): an
 * unknown key is a mistake to report, not something to keep.
 *
 * Property order is the order the service writes the document in (defaults first, see `plugins/settings`).
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
  show_total: Type.Boolean({ default: false, description: 'Show the cart total on the launcher.' })
}, { additionalProperties: false, title: 'SvcLauncher', description: 'The floating button that opens the drawer.' })
export type LauncherSettings = Static<typeof LauncherSchema>

export const RecommendationsSchema = Type.Object({
  enabled: Type.Boolean({ default: true, description: 'Whether the drawer shows recommendations.' }),
  source: Type.Enum(['cross_sells', 'upsells', 'manual'], { default: 'cross_sells', description: 'Where recommended products come from.' }),
  manual_ids: Type.Array(Type.Integer({ minimum: 1 }), {
    default: [],
    maxItems: 100,
    uniqueItems: true,
    description: 'Product ids for the `manual` source, in display order.'
  }),
  limit: Type.Integer({ minimum: 1, maximum: 12, default: 4, description: 'How many recommendations at most.' })
}, { additionalProperties: false, description: 'Product recommendations in the drawer.' })
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
