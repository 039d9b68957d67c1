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
  behaviour: 'Behaviour',
  recommendations: 'Recommendations',
  language: 'Language and texts',
  rewards: 'Rewards',
  smart_addons: 'Add-ons',
  bundles: 'Bundles',
  spotlight: 'Spotlight',
  analytics: 'Analytics'
}

const SECTION_NOTES: Record<string, string> = {
  drawer_config: 'How the cart drawer looks and opens. The live preview shows your changes before you save them.',
  launcher: 'A cart button that stays in a corner of every page and opens the drawer.',
  behaviour: 'What the drawer does when the cart changes, where its buttons lead, and what an empty cart shows. The live preview can show a line just removed and an empty cart (“Show” above it).',
  recommendations: 'Products suggested to the shopper in the drawer.',
  language: 'The language of the drawer’s words, and your own wording for any of them. The drawer speaks the language of the page it is on when it knows it, else the shop’s language.',
  rewards: 'What the cart unlocks as it grows: free shipping, a discount or a free gift. They apply to the cart’s totals by themselves, and a bar in the drawer shows the shopper how far the next one is. The Free edition has one tier, free shipping; Pro up to five of any kind.',
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
  'launcher.hide_on_paths': 'Hide it on these pages',
  'launcher.hide_on_devices': 'Hide it on',
  'launcher.icon': 'Icon',
  'launcher.shape': 'Shape',
  'launcher.size': 'Size (pixels)',
  'behaviour.open_on_add': 'Open the drawer when a product is added',
  'behaviour.undo_seconds': 'Offer to undo a remove for (seconds)',
  'behaviour.clear_cart': 'Offer a “Clear cart” button',
  'behaviour.checkout_url': 'Checkout button goes to',
  'behaviour.cart_link': 'Show a “View cart” link',
  'behaviour.cart_url': '“View cart” goes to',
  'behaviour.empty_state': 'Empty cart',
  'behaviour.empty_state.recommendations': 'Show recommendations in the empty cart',
  'behaviour.empty_state.continue_shopping': 'Show a “Continue shopping” button',
  'behaviour.empty_state.continue_url': '“Continue shopping” goes to',
  'recommendations.enabled': 'Show recommendations',
  'recommendations.source': 'Products to recommend',
  'recommendations.manual_ids': 'Your chosen products',
  'recommendations.limit': 'Most products shown',
  'language.locale': 'Shop language',
  'language.texts': 'Your own texts',
  'rewards.enabled': 'Give rewards',
  'rewards.basis': 'Count towards rewards',
  'rewards.after_discounts': 'Subtotal after coupons and bundle discounts',
  'rewards.include_tax': 'Subtotal with tax',
  'rewards.tiers': 'Tiers',
  'rewards.tiers.id': 'Reference',
  'rewards.tiers.label': 'Name shown to shoppers',
  'rewards.tiers.reward': 'Reward',
  'rewards.tiers.threshold': 'From',
  'rewards.tiers.amount': 'Discount',
  'rewards.tiers.product_id': 'Gift',
  'rewards.tiers.conditions': 'Only when',
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
  'launcher.hide_on_paths': 'One page address per line, starting with /, for example /about/ for that page only. End it with * for every page below it: /account/* hides the button on every account page. The drawer still opens when something is added.',
  'launcher.hide_on_devices': 'By screen width: phones up to 640 pixels, tablets from 641 to 1023, computers from 1024. Choose a width above the preview to see it there.',
  'launcher.icon': 'Drawn in the button’s colour.',
  'launcher.shape': 'A circle shows the icon with the number of items on its corner; it has no room for the total.',
  'launcher.size': 'The button’s height; from 44 (the smallest a finger taps easily) to 96.',
  'behaviour.open_on_add': 'When off, the drawer stays closed: the button’s count changes and screen readers say what was added.',
  'behaviour.undo_seconds': '“Beanie removed from the cart. Undo” shows for this long after a remove (and while the Undo button has the keyboard’s focus); Undo puts the line back with its quantity. 0 turns it off; at most 30.',
  'behaviour.clear_cart': 'The button asks first, then removes every item the shopper can remove.',
  'behaviour.checkout_url': 'Leave empty for your shop’s checkout page. A full address (https://…) or a page of this site starting with /.',
  'behaviour.cart_link': 'Next to “Clear cart”, above the Checkout button, while the cart has items.',
  'behaviour.cart_url': 'Leave empty for your shop’s cart page (/cart/). A full address (https://…) or a page of this site starting with /.',
  'behaviour.empty_state.recommendations': 'Products from the Recommendations settings. An empty cart has no cross-sells, upsells or categories: add “Products you choose” or “Best sellers” as a source or fallback to fill it.',
  'behaviour.empty_state.continue_shopping': 'A button under “Your cart is empty.”',
  'behaviour.empty_state.continue_url': 'Leave empty for your shop’s home page. A full address (https://…) or a page of this site starting with /.',
  'recommendations.enabled': 'Suggested products in the drawer, under the cart’s items.',
  'recommendations.source': 'Cross-sells and upsells are the ones set on each product of your catalog.',
  'recommendations.manual_ids': 'Used when “Products to recommend” is “Products you choose”; shown in this order.',
  'recommendations.limit': 'From 1 to 12.',
  'language.locale': 'Used when the page does not say its language, or says one the drawer does not speak (English, German, French, Spanish, Arabic, Japanese).',
  'rewards.enabled': 'When off, no reward applies and the drawer shows no reward bar; the tiers below are kept.',
  'rewards.basis': 'The money in the cart, or the number of items in it. A free gift never counts.',
  'rewards.after_discounts': 'When on, coupons and bundle discounts lower what counts; a reward’s own discount never does.',
  'rewards.include_tax': 'When on, the tax on the items counts too.',
  'rewards.tiers': 'Every tier the cart reaches applies. Of several discounts only the highest tier reached applies.',
  'rewards.tiers.id': REFERENCE_HELP,
  'rewards.tiers.label': 'What the drawer promises, for example “Free shipping”, “10% off” or “A free tote bag”.',
  'rewards.tiers.threshold': 'The amount (or the number of items) from which the reward applies; exactly this much counts.',
  'rewards.tiers.amount': 'For a percent discount, the percent (1 to 100); for a fixed discount, the amount taken off the items.',
  'rewards.tiers.product_id': `For a free gift: the product put in the cart at no charge while the tier is reached, and taken out below it. ${ONE_PRODUCT_HELP}`,
  'rewards.tiers.conditions': 'Leave empty to give the reward to every cart that reaches the tier.',
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
  'launcher.hide_on_devices': { mobile: 'Phones', tablet: 'Tablets', desktop: 'Computers' },
  'launcher.icon': { bag: 'Shopping bag', cart: 'Shopping cart', basket: 'Basket' },
  'launcher.shape': { pill: 'Rounded ends', circle: 'Circle', square: 'Square corners' },
  'language.locale': { en: 'English', de: 'Deutsch (German)', fr: 'Français (French)', es: 'Español (Spanish)', ar: 'العربية (Arabic)', ja: '日本語 (Japanese)' },
  'rewards.basis': { subtotal: 'The subtotal', item_count: 'The number of items' },
  'rewards.tiers.reward': { free_shipping: 'Free shipping', percent_discount: 'A percent off the items', fixed_discount: 'An amount off the items', gift: 'A free gift' },
  'recommendations.source': { cross_sells: 'Cross-sells of the products in the cart', upsells: 'Upsells of the products in the cart', manual: 'Products you choose' }
}

/** The settings whose value is an amount of money (stored in the currency's smallest unit, cents for dollars). */
const MONEY = new Set<string>()

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

/**
 * Whether a setting is an amount of money (typed in the currency, saved in minor units). A reward tier's threshold
 * is money unless the tiers count items, and its amount is money for a fixed discount (a percent otherwise): `get`
 * reads the draft for those.
 */
export function isMoney (path: ReadonlyArray<string | number>, get?: (path: ReadonlyArray<string | number>) => unknown): boolean {
  const key = settingKey(path)
  if (key === 'rewards.tiers.threshold') return get?.(['rewards', 'basis']) !== 'item_count'
  if (key === 'rewards.tiers.amount') return get?.([...path.slice(0, -1), 'reward']) === 'fixed_discount'
  return MONEY.has(key)
}

/** Settings whose choice changes how other fields read (money or a count): the form is drawn again on a change. */
export function reshapes (path: ReadonlyArray<string | number>): boolean {
  const key = settingKey(path)
  return key === 'rewards.basis' || key === 'rewards.tiers.reward'
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
  const words: Record<string, string> = { addons: 'add-on', bundles: 'bundle', slots: 'slot', conditions: 'condition', tiers: 'tier' }
  return words[key] ?? key.replace(/s$/, '')
}
