import type { AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { lookup, t } from './i18n.ts'

/**
 * The words a shop owner reads on the settings screen: section titles and introductions, labels, help texts and the
 * choices of the lists, by setting, from the admin catalogs (kernel/i18n/admin/<locale>.ts): `section.<key>`, `note.<key>`,
 * `label.<setting>`, `help.<setting>`, `option.<setting>.<value>` and `list.<setting>.*`. The schema's own
 * descriptions are written for developers (the API reference) and are never shown.
 *
 * A setting is named by its keys without list positions (`smart_addons.addons.label` for every add-on's label).
 * test/kernel/i18n/admin-catalogs.test.ts walks the settings schema: a setting without its words in every locale fails
 * there. Until its words are written, a setting's label is made from its key (`hide_on_paths` → `Hide on paths`).
 */

/** Lists whose choices are the words of another setting's (the recommendation sources). */
const OPTION_WORDS: Record<string, string> = {
  'recommendations.fallbacks': 'recommendations.source',
  'recommendations.rules.source': 'recommendations.source'
}

/** The settings whose value is an amount of money (stored in the currency's smallest unit, cents for dollars). */
const MONEY = new Set<string>()

/** `bottom-right` → `Bottom right`, `cross_sells` → `Cross sells`: a name for a setting the catalogs do not know yet. */
export function humanize (text: string): string {
  const words = text.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A setting's name without list positions: `['bundles', 'bundles', 0, 'title']` → `bundles.bundles.title`. */
export function settingKey (path: ReadonlyArray<string | number>): string {
  return path.filter((part): part is string => typeof part === 'string').join('.')
}

export function sectionTitle (key: string): string {
  return lookup(`section.${key}`) ?? humanize(key)
}

/** A section's introduction, or null. */
export function sectionNote (key: string): string | null {
  return lookup(`note.${key}`)
}

/** The label of a setting. */
export function labelFor (path: ReadonlyArray<string | number>): string {
  const key = settingKey(path)
  return lookup(`label.${key}`) ?? humanize(key.slice(key.lastIndexOf('.') + 1))
}

/** The help text under a setting, or null. */
export function helpFor (path: ReadonlyArray<string | number>): string | null {
  return lookup(`help.${settingKey(path)}`)
}

/** The catalog id of one choice of a list (`option.drawer_config.animation.slide`). */
export function optionId (path: ReadonlyArray<string | number>, value: unknown): string {
  const key = settingKey(path)
  return `option.${OPTION_WORDS[key] ?? key}.${String(value)}`
}

/** The word for one choice of a list. */
export function optionLabel (path: ReadonlyArray<string | number>, value: unknown): string {
  return lookup(optionId(path, value)) ?? humanize(String(value))
}

/** The words of a list of items (`bundles.bundles`): an item's name by its number, and the list's buttons and notes. */
export function listWords (path: ReadonlyArray<string | number>): { item (n: number): string, add: string, none: string, new: string } {
  const key = settingKey(path)
  const word = humanize(singular(key.slice(key.lastIndexOf('.') + 1)))
  return {
    item: (n) => lookup(`list.${key}.item`, { n }) ?? `${word} ${n}`,
    add: lookup(`list.${key}.add`) ?? `+ ${word}`,
    none: lookup(`list.${key}.none`) ?? '',
    new: lookup(`list.${key}.new`) ?? word
  }
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
  // Inside a condition group (`….conditions`, the one key of that name), its parts have the conditions' own words.
  const group = parts.indexOf('conditions')
  const conditionWords: Record<string, AdminMessageId> = { type: 'condition.type', operator: 'condition.operator', value: 'condition.valueLabel', match: 'condition.match' }
  parts.forEach((part, index) => {
    const path = parts.slice(0, index + 1)
    if (group !== -1 && index > group) {
      if (typeof part === 'number') words.push(t('condition.item', { n: part + 1 }))
      else if (conditionWords[part] !== undefined) words.push(t(conditionWords[part]))
      // `conditions` of a nested group: its number names it.
    } else if (typeof part === 'number') {
      words.push(listWords(parts.slice(0, index)).item(part + 1))
    } else if (index === 0) {
      words.push(parts.length === 1 ? labelFor(path) : sectionTitle(part))
    } else if (index === 1 && labelFor(path) === sectionTitle(String(parts[0]))) {
      // `smart_addons.addons` would read “Add-ons › Add-ons”: the list's name is the section's.
    } else {
      words.push(labelFor(path))
    }
  })
  return words.length === 0 ? dotted : words.reduce((outer, inner) => t('problem.place', { outer, inner }))
}

/** One item of a list (`addons` → `add-on`): new items' ids (`add-on-2`: codes, not words), and the fallback names. */
export function singular (key: string): string {
  const words: Record<string, string> = { addons: 'add-on', bundles: 'bundle', slots: 'slot', conditions: 'condition', tiers: 'tier' }
  return words[key] ?? key.replace(/s$/, '')
}
