import { validateConditions } from '../../domain/conditions/index.ts'
import type { SettingsProblems } from './document.ts'
import { CATALOGS } from '../../i18n/catalogs.ts'
import { overrideProblem } from '../../i18n/compile.ts'
import { LOCALES, type Locale } from '../../i18n/locales.ts'

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
  if (isObject(document.language)) Object.assign(problems, textProblems(document.language.texts))
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
