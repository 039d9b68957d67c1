import { escapeHtml } from '../../../kernel/domain/html.ts'
import { ADMIN_CATALOGS } from '../../../kernel/i18n/admin/catalogs.ts'
import type { AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { compileCatalog } from '../../../kernel/i18n/compile.ts'
import {
  DEFAULT_LOCALE, LOCALES, RTL_LOCALES, supportedLocale, type CompiledCatalog, type CompiledMessage, type Locale
} from '../../../kernel/i18n/locales.ts'
import { describeBundle, type ClientBundle } from '../../../kernel/lib/index.ts'

/** The admin catalogs but English (which is in the admin script): `/assets/svc-admin-i18n/<locale>.json`. */
export const ADMIN_CATALOG_PATH = '/assets/svc-admin-i18n/'

export interface AdminCatalogs {
  /** Every locale's catalog compiled (the server's pages use them). */
  compiled: Record<Locale, CompiledCatalog>
  /** The files served, `<locale>.json`, each with the one hash of them all (the `?v=` of their URLs). */
  files: Map<string, ClientBundle>
  hash: string
}

/** The admin catalogs compiled once (a message that does not compile stops the start, as the drawer's do). */
export function compileAdminCatalogs (): AdminCatalogs {
  const compiled = {} as Record<Locale, CompiledCatalog>
  const files = new Map<string, ClientBundle>()
  for (const locale of LOCALES) {
    compiled[locale] = compileCatalog(ADMIN_CATALOGS[locale], locale)
    if (locale !== DEFAULT_LOCALE) files.set(`${locale}.json`, describeBundle(Buffer.from(JSON.stringify(compiled[locale]))))
  }
  const hash = describeBundle(Buffer.from([...files.values()].map((file) => file.hash).join())).hash
  for (const [name, file] of files) files.set(name, { ...file, hash })
  return { compiled, files, hash }
}

/**
 * The admin pages' language: the manager's `?lang=` when the screens speak it (its base language: `de-AT` → de), else
 * the shop's `language.locale`, else English. `requested` is the supported `?lang=` alone (kept in the pages' links).
 */
export function adminLocale (lang: string | undefined, shopLocale: string | undefined): { locale: Locale, requested: Locale | null } {
  const requested = supportedLocale(lang)
  return { locale: requested ?? supportedLocale(shopLocale) ?? DEFAULT_LOCALE, requested }
}

/** The words of a page the server writes, as HTML. */
export interface PageWords {
  locale: Locale
  dir: 'ltr' | 'rtl'
  /**
   * A message as HTML: its text escaped (and passed through `text`, say to wrap it in a `<span>`), each value put in
   * as it is given (HTML the caller made safe).
   */
  html (id: AdminMessageId, values?: Record<string, string>, text?: (escaped: string) => string): string
}

/**
 * The server's pages use messages of text and `{name}` arguments only (test/kernel/i18n/admin-catalogs.test.ts checks the
 * `page.*` messages of every locale): a plural or a select here is an error, not a silent blank.
 */
function toHtml (message: CompiledMessage, values: Record<string, string>, text: (escaped: string) => string): string {
  if (typeof message === 'string') return text(escapeHtml(message))
  return message.map((part) => {
    if (typeof part === 'string') return text(escapeHtml(part))
    if (part[0] === 0) return values[part[1]] ?? ''
    throw new Error(`a page message may hold text and {arguments} only, not part kind ${part[0]}`)
  }).join('')
}

export function pageWords (catalogs: AdminCatalogs, locale: Locale): PageWords {
  const own = catalogs.compiled[locale]
  const english = catalogs.compiled[DEFAULT_LOCALE]
  return {
    locale,
    dir: RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr',
    html: (id, values = {}, text = (escaped) => escaped) => toHtml(own[id] ?? english[id] ?? id, values, text)
  }
}
