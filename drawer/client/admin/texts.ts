import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { overrideProblem } from '../../../kernel/i18n/compile.ts'
import { MESSAGE_IDS } from '../../../kernel/i18n/en.ts'
import { LOCALES, RTL_LOCALES, type Locale } from '../../../kernel/i18n/locales.ts'
import { h } from '../dom.ts'
import type { FormContext } from './context.ts'
import { t, tNodes } from './i18n.ts'
import { labelFor, optionLabel } from './labels.ts'
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
      // The placeholder is the catalog's own text, shown as it is.
      translate: 'no',
      value: typeof value === 'string' ? value : '',
      placeholder: original,
      'data-path': pathKey(at),
      'aria-describedby': `${fieldId}-original ${fieldId}-error`
    })
    const error = h('p', { class: 'admin-error', id: `${fieldId}-error`, 'data-error': pathKey(at) })
    const wrapper = h('div', { class: 'admin-field', 'data-text': id },
      // The message's id names it (a code, as in the catalogs), next to the catalog's own wording.
      h('label', { for: fieldId, translate: 'no' }, id),
      input,
      h('p', { class: 'admin-help', id: `${fieldId}-original` }, ...tNodes('texts.catalog', { text: h('span', { lang: chosen, dir, translate: 'no' }, original) })),
      error)
    context.field(at, wrapper, error)
    input.addEventListener('input', () => {
      const text = input.value
      context.set(at, text)
      // The check is the server's own (kernel/i18n/compile.ts), whose words are English.
      context.invalid(at, text === '' ? null : overrideProblem(text, original, chosen), 'en')
    })
    return wrapper
  })
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const wrapper = h('div', { class: 'admin-list-wrap', 'data-path': pathKey(path) },
    h('h3', {}, labelFor(path)),
    h('p', { class: 'admin-help' }, t('texts.help')),
    h('div', { class: 'admin-field' }, h('label', { for: 'f-language-texts-locale' }, t('texts.for')), choose),
    h('details', { class: 'admin-texts', 'data-role': 'texts', open: Object.values(context.get([...path, chosen]) ?? {}).some((text) => text !== '') },
      h('summary', {}, t('texts.summary', { count: MESSAGE_IDS.length })),
      ...rows),
    error)
  context.field(path, wrapper, error)
  return wrapper
}
