/** Words for the settings' keys and values (the schema's keys are snake_case). */
const SECTION_TITLES: Record<string, string> = {
  enabled: 'General',
  drawer_config: 'Drawer',
  launcher: 'Launcher',
  recommendations: 'Recommendations',
  shipping_meter: 'Shipping meter',
  smart_addons: 'Smart add-ons',
  bundles: 'Bundles',
  spotlight: 'Spotlight',
  analytics: 'Analytics'
}

const LABELS: Record<string, string> = {
  enabled: 'Enabled',
  'drawer_config.position': 'Drawer side',
  'launcher.position': 'Launcher corner',
  'launcher.enabled': 'Show the launcher',
  width_desktop: 'Width on wide screens (px)',
  width_mobile: 'Width on phones (% of the screen)',
  animation: 'Opening animation',
  animation_duration: 'Animation duration (ms)',
  border_radius: 'Corner radius (px)',
  dark_mode: 'Dark mode',
  colors: 'Colours',
  primary: 'Primary colour',
  background: 'Background colour',
  text: 'Text colour',
  accent: 'Accent colour',
  show_count: 'Show the item count',
  show_total: 'Show the cart total',
  source: 'Source',
  manual_ids: 'Manual picks',
  limit: 'How many at most',
  threshold: 'Free shipping from (minor units, e.g. cents)',
  addons: 'Add-ons',
  product_id: 'Product',
  product_ids: 'Products',
  label: 'Label',
  description: 'Description',
  id: 'Id',
  title: 'Title',
  discount_percent: 'Discount (%)',
  slots: 'Slots',
  conditions: 'Conditions',
  retention_days: 'Keep events for (days)'
}

/** `bottom-right` → `Bottom right`, `cross_sells` → `Cross sells`. */
export function humanize (text: string): string {
  const words = text.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function sectionTitle (key: string): string {
  return SECTION_TITLES[key] ?? humanize(key)
}

/** The label of a setting, by its last two keys (`launcher.position`) or its own key. */
export function labelFor (path: ReadonlyArray<string | number>): string {
  const keys = path.filter((part): part is string => typeof part === 'string')
  const last = keys[keys.length - 1] ?? ''
  const pair = keys.slice(-2).join('.')
  if (keys.length === 1 && last === 'enabled') return 'Cart drawer enabled'
  return LABELS[pair] ?? LABELS[last] ?? humanize(last)
}

/** One item of a list (`addons` → `add-on`), for buttons and headings. */
export function singular (key: string): string {
  const words: Record<string, string> = { addons: 'add-on', bundles: 'bundle', slots: 'slot' }
  return words[key] ?? key.replace(/s$/, '')
}
