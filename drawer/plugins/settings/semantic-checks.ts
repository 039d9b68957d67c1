import { validateConditions } from '../../domain/conditions/index.ts'
import type { SettingsProblems } from './problems.ts'
import { rewardProblems } from './reward-checks.ts'
import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { overrideProblem } from '../../../kernel/i18n/compile.ts'
import { LOCALES, type Locale } from '../../../kernel/i18n/locales.ts'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const listOf = (value: unknown): unknown[] => Array.isArray(value) ? value : []

/**
 * What the JSON schema cannot say: every condition group is checked against the condition types' own schemas
 * (`GET conditions/types`), and ids are unique within their list.
 */
export function semanticProblems (document: unknown): SettingsProblems {
  if (!isObject(document)) return {}
  const problems: SettingsProblems = {}
  const conditionsAt = (value: unknown, path: string) => {
    if (value !== undefined) Object.assign(problems, validateConditions(value, path))
  }
  const uniqueIds = (items: unknown[], path: string) => {
    const seen = new Set<unknown>()
    items.forEach((item, index) => {
      const id = isObject(item) ? item.id : undefined
      if (id === undefined) return
      if (seen.has(id)) problems[`${path}.${index}.id`] = `"${String(id)}" is used twice`
      seen.add(id)
    })
  }

  const rules = listOf(isObject(document.recommendations) ? document.recommendations.rules : undefined)
  rules.forEach((rule, index) => { if (isObject(rule)) conditionsAt(rule.conditions, `recommendations.rules.${index}.conditions`) })

  const addons = listOf(isObject(document.smart_addons) ? document.smart_addons.addons : undefined)
  uniqueIds(addons, 'smart_addons.addons')
  addons.forEach((addon, index) => { if (isObject(addon)) conditionsAt(addon.conditions, `smart_addons.addons.${index}.conditions`) })

  const bundles = listOf(isObject(document.bundles) ? document.bundles.bundles : undefined)
  uniqueIds(bundles, 'bundles.bundles')

  if (isObject(document.spotlight)) conditionsAt(document.spotlight.conditions, 'spotlight.conditions')

  const tiers = listOf(isObject(document.rewards) ? document.rewards.tiers : undefined)
  uniqueIds(tiers, 'rewards.tiers')
  tiers.forEach((tier, index) => { if (isObject(tier)) conditionsAt(tier.conditions, `rewards.tiers.${index}.conditions`) })
  Object.assign(problems, rewardProblems(document.rewards))
  if (isObject(document.language)) Object.assign(problems, textProblems(document.language.texts))
  Object.assign(problems, behaviourProblems(document))
  return problems
}

/** An address the drawer links to: empty, an http(s) URL with a host, or a path on this site (`/…`, never `//…`). */
export function isDrawerLink (value: string): boolean {
  if (value === '') return true
  if (/[\s\\]/.test(value)) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  if (!/^https?:\/\//.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/**
 * The `behaviour` section's links and the launcher's paths, in words a shop manager reads (the schema's patterns say
 * the same for the API reference), and a circle launcher, which has no room for the total.
 */
function behaviourProblems (document: Json): SettingsProblems {
  const problems: SettingsProblems = {}
  const link = (value: unknown, path: string) => {
    if (typeof value === 'string' && !isDrawerLink(value)) problems[path] = 'must be an http(s) address or a path on this site starting with /'
  }
  const behaviour = isObject(document.behaviour) ? document.behaviour : {}
  link(behaviour.checkout_url, 'behaviour.checkout_url')
  link(behaviour.cart_url, 'behaviour.cart_url')
  if (isObject(behaviour.empty_state)) link(behaviour.empty_state.continue_url, 'behaviour.empty_state.continue_url')
  const launcher = isObject(document.launcher) ? document.launcher : {}
  listOf(launcher.hide_on_paths).forEach((path, index) => {
    if (typeof path === 'string' && !/^\/[^\s*?#\\]*\*?$/.test(path)) {
      problems[`launcher.hide_on_paths.${index}`] = `"${path}" must be a path starting with / (without ? or #), with at most one * at the end`
    }
  })
  if (launcher.shape === 'circle' && launcher.show_total === true) {
    problems['launcher.shape'] = 'a circle has room for the icon and the count only: choose another shape, or do not show the total'
  }
  return problems
}

/**
 * The shop's own texts: each names a message of the catalogs and is ICU that compiles for its locale, with exactly
 * the placeholders of the locale's own message (an empty string keeps the catalog's text and is not checked).
 */
export function textProblems (texts: unknown): SettingsProblems {
  const problems: SettingsProblems = {}
  if (!isObject(texts)) return problems
  for (const [locale, messages] of Object.entries(texts)) {
    if (!(LOCALES as readonly string[]).includes(locale) || !isObject(messages)) continue
    const catalog: Record<string, string> = CATALOGS[locale as Locale]
    for (const [id, source] of Object.entries(messages)) {
      if (typeof source !== 'string' || source === '') continue
      const path = `language.texts.${locale}.${id}`
      const original = Object.hasOwn(catalog, id) ? catalog[id] : undefined
      if (original === undefined) {
        problems[path] = 'is not a text of the drawer'
        continue
      }
      const problem = overrideProblem(source, original, locale as Locale)
      if (problem !== null) problems[path] = problem
    }
  }
  return problems
}
