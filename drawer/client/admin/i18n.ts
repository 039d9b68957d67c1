import en, { type AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { compileCatalog } from '../../../kernel/i18n/compile.ts'
import { DEFAULT_LOCALE, type CompiledCatalog, type Locale } from '../../../kernel/i18n/locales.ts'
import type { AdminPageI18n } from '../../schemas/admin-page-config.ts'
import { append } from '../dom.ts'
import { I18n, type Values } from '../i18n.ts'
import type { Currency } from '../types.ts'

/**
 * The admin screens' words: the admin catalog of the page's locale (fetched, compiled, from
 * `/assets/svc-admin-i18n/<locale>.json`), then English (in the script; compiled here with the parser the texts
 * editor needs anyway), formatted by the drawer's own `I18n` (`Intl.PluralRules`, `Intl.NumberFormat`). One set of
 * words per page, chosen before a screen is drawn (`loadWords`); every function here reads it.
 */

const ENGLISH: CompiledCatalog = compileCatalog(en, DEFAULT_LOCALE)
let catalogs: CompiledCatalog[] = [ENGLISH]
let words = new I18n<AdminMessageId>(DEFAULT_LOCALE, DEFAULT_LOCALE, ENGLISH)

/**
 * Loads the page's catalog (the server chose the locale: the manager's `?lang=`, else the shop's language). A catalog
 * that cannot be fetched leaves the screens in English.
 */
export async function loadWords (i18n: AdminPageI18n | undefined): Promise<void> {
  if (i18n === undefined || i18n.catalog === null) return
  try {
    const response = await fetch(i18n.catalog, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    if (!response.ok) return
    const catalog = await response.json() as CompiledCatalog
    useWords(i18n.locale, catalog)
  } catch {}
}

/** The words of `locale` from its compiled catalog, English for any id it lacks. */
export function useWords (locale: Locale, catalog: CompiledCatalog | null): void {
  catalogs = catalog === null ? [ENGLISH] : [catalog, ENGLISH]
  words = new I18n<AdminMessageId>(locale, locale, ...catalogs)
}

/** The screens' locale and direction. */
export const adminLocale = (): Locale => words.locale
export const adminDir = (): 'ltr' | 'rtl' => words.dir

/** One message, formatted (numbers in the locale; in a right-to-left locale, values isolated). */
export function t (id: AdminMessageId, values?: Values): string {
  return words.t(id, values)
}

/**
 * A message whose id is made from a setting's name (`label.drawer_config.position`): its text, or null when no
 * catalog has it.
 */
export function lookup (id: string, values?: Values): string | null {
  return catalogs.some((catalog) => id in catalog) ? words.t(id as AdminMessageId, values) : null
}

const OPEN = '\uE000'
const CLOSE = '\uE001'

/**
 * A message with elements in it (`Logged in as {name}` with the name in `<strong>`): the text around them as text
 * nodes, in the order the locale puts them.
 */
export function tNodes (id: AdminMessageId, values: Record<string, string | number | Node>): Node[] {
  const nodes: Node[] = []
  const plain: Values = {}
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'object') {
      plain[name] = `${OPEN}${nodes.length}${CLOSE}`
      nodes.push(value)
    } else {
      plain[name] = value
    }
  }
  const fragment = document.createDocumentFragment()
  for (const [index, part] of words.t(id, plain).split(new RegExp(`${OPEN}(\\d+)${CLOSE}`)).entries()) {
    if (index % 2 === 1) append(fragment, [nodes[Number(part)]])
    else if (part !== '') append(fragment, [part])
  }
  return [...fragment.childNodes]
}

/** A number in the locale (`1,234`, `1.234`). */
export function formatNumber (value: number, options?: Intl.NumberFormatOptions): string {
  return words.isolate(words.number(value, options))
}

/** Minor units in the shop's currency, in the locale (`$1,080.00`, `1.080,00 $`). */
export function formatMoney (minor: string | number, currency: Currency): string {
  return words.money(minor, currency)
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** A day (`2026-07-03`, UTC as the analytics count it) in the locale: `Jul 3, 2026`, `03.07.2026`, `2026/07/03`. */
export function formatDay (day: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const key = JSON.stringify(options)
  let format = dateFormats.get(key)
  if (format === undefined) dateFormats.set(key, format = new Intl.DateTimeFormat(words.tag, { ...options, timeZone: 'UTC' }))
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : format.format(date)
}

/** The name of a weekday (0 is Sunday), in the locale. */
export function weekdayName (day: number): string {
  // 2023-01-01 was a Sunday.
  return formatDay(`2023-01-${String(1 + day).padStart(2, '0')}`, { weekday: 'long' })
}

/** Items of a list joined the locale's way (`a, b and c`; `a、b、c`). */
export function formatList (items: string[], type: Intl.ListFormatType = 'unit'): string {
  return new Intl.ListFormat(words.tag, { style: 'narrow', type }).format(items)
}
