import { CATALOGS } from '../../i18n/catalogs.ts'
import { overrideProblem } from '../../i18n/compile.ts'
import { MESSAGE_IDS } from '../../i18n/en.ts'
import { LOCALES, RTL_LOCALES, type Locale } from '../../i18n/locales.ts'
import { h } from '../dom.ts'
import type { FormContext } from './context.ts'
import { optionLabel } from './labels.ts'
import { pathKey, type Path } from './paths.ts'

/**
 * The shop's own texts (`language.texts.<locale>.<id>`): one locale at a time, every message of the drawer with the
 * catalog's wording as its placeholder and a field for the shop's. Each text typed is checked here as the server
 * checks it (valid ICU, the catalog's placeholders); emptied, the catalog's text is used again. The live preview
 * shows the locale chosen here, with the texts as typed.
 */
export function textsEditor (context: FormContext, path: Path): HTMLElement {
  const chosen = context.previewLocale.get()
  const choose = h('select', { id: 'f-language-texts-locale', 'data-role': 'texts-locale' },
    ...LOCALES.map((locale) => h('option', { value: locale, selected: locale === chosen }, optionLabel(['language', 'locale'], locale))))
  choose.addEventListener('change', () => { context.previewLocale.set(choose.value as Locale) })
  const catalog: Record<string, string> = CATALOGS[chosen]
  const dir = RTL_LOCALES.includes(chosen) ? 'rtl' : 'ltr'
  const rows = MESSAGE_IDS.map((id) => {
    const at = [...path, chosen, id]
    const fieldId = `f-text-${chosen}-${id}`
    const original = catalog[id] ?? ''
    const value = context.get(at)
    const input = h('input', {
      id: fieldId,
      type: 'text',
      lang: chosen,
      dir,
      value: typeof value === 'string' ? value : '',
      placeholder: original,
      'data-path': pathKey(at),
      'aria-describedby': `${fieldId}-original ${fieldId}-error`
    })
    const error = h('p', { class: 'admin-error', id: `${fieldId}-error`, 'data-error': pathKey(at) })
    const wrapper = h('div', { class: 'admin-field', 'data-text': id },
      h('label', { for: fieldId }, id),
      input,
      h('p', { class: 'admin-help', id: `${fieldId}-original` }, 'Catalog: ', h('span', { lang: chosen, dir }, original)),
      error)
    context.field(at, wrapper, error)
    input.addEventListener('input', () => {
      const text = input.value
      context.set(at, text)
      context.invalid(at, text === '' ? null : overrideProblem(text, original, chosen))
    })
    return wrapper
  })
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const wrapper = h('div', { class: 'admin-list-wrap', 'data-path': pathKey(path) },
    h('h3', {}, 'Your own texts'),
    h('p', { class: 'admin-help' },
      'Any text of the drawer in your own words, per language. Leave a field empty to keep the catalog’s text. ',
      'Keep the placeholders in braces: {name} is replaced by a product’s name, and a {count, plural, one {# item} other {# items}} ',
      'part chooses the words for the number. The live preview shows the language chosen here.'),
    h('div', { class: 'admin-field' }, h('label', { for: 'f-language-texts-locale' }, 'Texts for'), choose),
    h('details', { class: 'admin-texts', 'data-role': 'texts', open: Object.values(context.get([...path, chosen]) ?? {}).some((text) => text !== '') },
      h('summary', {}, `The drawer’s ${MESSAGE_IDS.length} texts`),
      ...rows),
    error)
  context.field(path, wrapper, error)
  return wrapper
}
