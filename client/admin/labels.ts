/**
 * The words a shop owner reads on the settings screen: section titles and introductions, labels, help texts and the
 * choices of the lists, by setting. The schema's own descriptions are written for developers (the API reference):
 * the screen uses these instead, and falls back to the schema's only for a setting not listed here.
 *
 * A setting is named by its keys without list positions (`smart_addons.addons.label` for every add-on's label).
 */

const SECTION_TITLES: Record<string, string> = {
  enabled: 'Cart drawer',
  drawer_config: 'Drawer',
  launcher: 'Floating cart button',
  recommendations: 'Recommendations',
  language: 'Language and texts',
  shipping_meter: 'Free-shipping meter',
  smart_addons: 'Add-ons',
  bundles: 'Bundles',
  spotlight: 'Spotlight',
  analytics: 'Analytics'
}

const SECTION_NOTES: Record<string, string> = {
  drawer_config: 'How the cart drawer looks and opens. The live preview shows your changes before you save them.',
  launcher: 'A cart button that stays in a corner of every page and opens the drawer.',
  recommendations: 'Products suggested to the shopper in the drawer.',
  language: 'The language of the drawer’s words, and your own wording for any of them. The drawer speaks the language of the page it is on when it knows it, else the shop’s language.',
  shipping_meter: 'A bar in the drawer that shows the shopper how much more to spend to reach free shipping.',
  smart_addons: 'Optional extras the shopper can tick in the drawer, such as gift wrapping or insurance.',
  bundles: 'Sets the shopper puts together in the drawer, one product for each slot, at a discount.',
  spotlight: 'One featured product offered in the drawer.',
  analytics: 'What the Analytics page counts.'
}

const LABELS: Record<string, string> = {
  enabled: 'Use the cart drawer',
  'drawer_config.position': 'Side of the screen',
  'drawer_config.width_desktop': 'Width on computers and tablets (pixels)',
  'drawer_config.width_mobile': 'Width on phones (% of the screen)',
  'drawer_config.animation': 'Opening animation',
  'drawer_config.animation_duration': 'Animation length (milliseconds)',
  'drawer_config.border_radius': 'Corner rounding (pixels)',
  'drawer_config.dark_mode': 'Light or dark',
  'drawer_config.colors': 'Colours',
  'drawer_config.colors.primary': 'Button colour',
  'drawer_config.colors.background': 'Background colour',
  'drawer_config.colors.text': 'Text colour',
  'drawer_config.colors.accent': 'Accent colour',
  'launcher.enabled': 'Show the floating cart button',
  'launcher.position': 'Corner of the screen',
  'launcher.show_count': 'Show the number of items',
  'launcher.show_total': 'Show the cart total',
  'recommendations.enabled': 'Show recommendations',
  'recommendations.source': 'Products to recommend',
  'recommendations.manual_ids': 'Your chosen products',
  'recommendations.limit': 'Most products shown',
  'language.locale': 'Shop language',
  'language.texts': 'Your own texts',
  'shipping_meter.enabled': 'Show the free-shipping meter',
  'shipping_meter.threshold': 'Free shipping from',
  'smart_addons.enabled': 'Offer add-ons',
  'smart_addons.addons': 'Add-ons',
  'smart_addons.addons.id': 'Reference',
  'smart_addons.addons.product_id': 'Product',
  'smart_addons.addons.label': 'Name shown to shoppers',
  'smart_addons.addons.description': 'Description',
  'smart_addons.addons.conditions': 'Offer it when',
  'bundles.enabled': 'Offer bundles',
  'bundles.bundles': 'Bundles',
  'bundles.bundles.id': 'Reference',
  'bundles.bundles.title': 'Name shown to shoppers',
  'bundles.bundles.description': 'Description',
  'bundles.bundles.discount_percent': 'Discount (%)',
  'bundles.bundles.slots': 'Slots',
  'bundles.bundles.slots.label': 'Slot name',
  'bundles.bundles.slots.product_ids': 'Products to choose from',
  'spotlight.enabled': 'Show the spotlight',
  'spotlight.product_id': 'Featured product',
  'spotlight.title': 'Headline',
  'spotlight.text': 'Offer text',
  'spotlight.conditions': 'Show it when',
  'analytics.enabled': 'Record drawer activity',
  'analytics.retention_days': 'Keep activity for (days)'
}

const REFERENCE_HELP = 'A short name for your own records: lowercase letters, digits and dashes. Keep it once shoppers see the item.'
const ONE_PRODUCT_HELP = 'A product without options to choose (no sizes or colours to pick).'

const HELP: Record<string, string> = {
  enabled: 'When off, the shop’s pages no longer load the cart drawer and shoppers use the shop’s own cart page. Your settings here are kept.',
  'drawer_config.position': 'The drawer slides in from this side.',
  'drawer_config.width_desktop': 'From 280 to 960 pixels; 420 suits most shops.',
  'drawer_config.width_mobile': '100 fills the whole width of the phone; from 50 to 100.',
  'drawer_config.animation': 'How the drawer appears when it opens.',
  'drawer_config.animation_duration': '1000 is one second; 300 feels quick. Shoppers whose device asks for less motion see no animation.',
  'drawer_config.border_radius': '0 gives square corners; higher numbers round them, up to 48.',
  'drawer_config.dark_mode': '“Follow the shopper’s device” shows the dark drawer to shoppers whose phone or computer is set to dark mode.',
  'drawer_config.colors.primary': 'Buttons and links in the drawer.',
  'drawer_config.colors.background': 'The drawer’s background.',
  'drawer_config.colors.text': 'The drawer’s text.',
  'drawer_config.colors.accent': 'The item-count badge, the free-shipping bar and other highlights.',
  'launcher.enabled': 'Shoppers tap it to open the drawer.',
  'launcher.position': 'Where the button sits on the screen.',
  'launcher.show_count': 'A badge on the button with the number of items in the cart.',
  'launcher.show_total': 'The cart total on the button.',
  'recommendations.enabled': 'Suggested products in the drawer, under the cart’s items.',
  'recommendations.source': 'Cross-sells and upsells are the ones set on each product of your catalog.',
  'recommendations.manual_ids': 'Used when “Products to recommend” is “Products you choose”; shown in this order.',
  'recommendations.limit': 'From 1 to 12.',
  'language.locale': 'Used when the page does not say its language, or says one the drawer does not speak (English, German, French, Spanish, Arabic, Japanese).',
  'shipping_meter.threshold': 'The cart subtotal, after discounts, that the meter counts up to. Set it to the amount from which your shipping is free: the meter itself does not change shipping prices.',
  'smart_addons.enabled': 'When off, no add-on is offered; the add-ons below are kept.',
  'smart_addons.addons.id': REFERENCE_HELP,
  'smart_addons.addons.product_id': `The product put in the cart when the shopper ticks the add-on. ${ONE_PRODUCT_HELP}`,
  'smart_addons.addons.label': 'Shown next to the tick box in the drawer.',
  'smart_addons.addons.description': 'Shown under the name.',
  'bundles.enabled': 'When off, no bundle is offered; the bundles below are kept.',
  'bundles.bundles.id': REFERENCE_HELP,
  'bundles.bundles.title': 'For example “Starter kit”.',
  'bundles.bundles.description': 'Shown with the bundle.',
  'bundles.bundles.discount_percent': 'Taken off the price of every product in the bundle; from 0 to 90.',
  'bundles.bundles.slots': 'Each slot is one product of the bundle, which the shopper picks from the products you list.',
  'bundles.bundles.slots.label': 'Shown to the shopper, for example “Pick a hat”.',
  'bundles.bundles.slots.product_ids': 'The shopper picks one of these for this slot.',
  'spotlight.enabled': 'A featured product offered in the drawer, shown when its conditions hold.',
  'spotlight.product_id': `The product offered. ${ONE_PRODUCT_HELP}`,
  'spotlight.title': 'For example “Complete your look”.',
  'spotlight.text': 'A sentence or two under the headline.',
  'analytics.enabled': 'Counts drawer opens, adds and checkout clicks for the Analytics page. No names, e-mail addresses or IP addresses are stored.',
  'analytics.retention_days': 'Older activity is deleted; from 1 to 730 days.'
}

/** The words for a list's choices, where the value itself would read as code. */
const OPTIONS: Record<string, Record<string, string>> = {
  'drawer_config.animation': { slide: 'Slide in from the side', fade: 'Fade in', none: 'No animation' },
  'drawer_config.dark_mode': { auto: 'Follow the shopper’s device', light: 'Always light', dark: 'Always dark' },
  'language.locale': { en: 'English', de: 'Deutsch (German)', fr: 'Français (French)', es: 'Español (Spanish)', ar: 'العربية (Arabic)', ja: '日本語 (Japanese)' },
  'recommendations.source': { cross_sells: 'Cross-sells of the products in the cart', upsells: 'Upsells of the products in the cart', manual: 'Products you choose' }
}

/** The settings whose value is an amount of money (stored in the currency's smallest unit, cents for dollars). */
const MONEY = new Set(['shipping_meter.threshold'])

/** `bottom-right` → `Bottom right`, `cross_sells` → `Cross sells`. */
export function humanize (text: string): string {
  const words = text.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A setting's name without list positions: `['bundles', 'bundles', 0, 'title']` → `bundles.bundles.title`. */
export function settingKey (path: ReadonlyArray<string | number>): string {
  return path.filter((part): part is string => typeof part === 'string').join('.')
}

export function sectionTitle (key: string): string {
  return SECTION_TITLES[key] ?? humanize(key)
}

/** A section's introduction, or null. */
export function sectionNote (key: string): string | null {
  return SECTION_NOTES[key] ?? null
}

/** The label of a setting. */
export function labelFor (path: ReadonlyArray<string | number>): string {
  const key = settingKey(path)
  return LABELS[key] ?? humanize(key.slice(key.lastIndexOf('.') + 1))
}

/** The help text under a setting, or null. */
export function helpFor (path: ReadonlyArray<string | number>): string | null {
  return HELP[settingKey(path)] ?? null
}

/** The word for one choice of a list. */
export function optionLabel (path: ReadonlyArray<string | number>, value: unknown): string {
  return OPTIONS[settingKey(path)]?.[String(value)] ?? humanize(String(value))
}

export function isMoney (path: ReadonlyArray<string | number>): boolean {
  return MONEY.has(settingKey(path))
}

/**
 * Where a setting is, in the screen's words: `drawer_config.colors.primary` → `Drawer › Colours › Button colour`,
 * `smart_addons.addons.0.label` → `Add-ons › Add-on 1 › Name shown to shoppers`.
 */
export function placeOf (dotted: string): string {
  const parts: Array<string | number> = dotted.split('.').map((part) => /^\d+$/.test(part) ? Number(part) : part)
  const words: string[] = []
  parts.forEach((part, index) => {
    const path = parts.slice(0, index + 1)
    if (typeof part === 'number') {
      words.push(`${humanize(singular(String(parts[index - 1] ?? '')))} ${part + 1}`)
    } else if (index === 0) {
      words.push(parts.length === 1 ? labelFor(path) : sectionTitle(part))
    } else if (index === 1 && labelFor(path) === sectionTitle(String(parts[0]))) {
      // `smart_addons.addons` would read “Add-ons › Add-ons”: the list's name is the section's.
    } else if (part === 'conditions' && parts[index - 1] === 'conditions') {
      // A condition group's list: “Offer it when › Condition 1”.
    } else {
      words.push(labelFor(path))
    }
  })
  return words.join(' › ')
}

/** One item of a list (`addons` → `add-on`), for buttons and headings. */
export function singular (key: string): string {
  const words: Record<string, string> = { addons: 'add-on', bundles: 'bundle', slots: 'slot', conditions: 'condition' }
  return words[key] ?? key.replace(/s$/, '')
}
