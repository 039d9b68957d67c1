/**
 * The drawer's languages: the supported locales, which of them are written right to left, how a page's `lang` picks
 * one, and the compiled form of an ICU message that the browser formats. No runtime dependency: the drawer's script
 * imports this file, the server too.
 */

export const LOCALES = ['en', 'de', 'fr', 'es', 'ar', 'ja'] as const
export type Locale = typeof LOCALES[number]
export const DEFAULT_LOCALE: Locale = 'en'
export const RTL_LOCALES: readonly Locale[] = ['ar']

/** The supported locale of a BCP 47 tag: the tag's base language (`fr-CA` → `fr`), or null when it is not supported. */
export function supportedLocale (tag: string | null | undefined): Locale | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? ''
  return (LOCALES as readonly string[]).includes(base) ? base as Locale : null
}

/** The drawer's locale: the page's `lang` (its base language), else the shop's locale, else English. */
export function resolveLocale (pageLang: string | null | undefined, shopLocale: string | null | undefined): Locale {
  return supportedLocale(pageLang) ?? supportedLocale(shopLocale) ?? DEFAULT_LOCALE
}

/**
 * An ICU message compiled for the browser (by `@messageformat/parser` at build time or on the server): plain text,
 * or parts. A part is text, or an array:
 * - `[0, name]` the argument (a number formatted in the locale, anything else as text)
 * - `[1, name, offset, cases]` a plural (`=2` and the locale's categories), `[4, …]` the same with ordinal rules
 * - `[2, name, cases]` a select
 * - `[3]` `#` in a plural case: the number less the offset
 * - `[5, name, style]` `{name, number, style}` (`integer`, `percent` or empty)
 */
export type CompiledMessage = string | CompiledPart[]
export type CompiledPart =
  | string
  | [0, string]
  | [1 | 4, string, number, Record<string, CompiledMessage>]
  | [2, string, Record<string, CompiledMessage>]
  | [3]
  | [5, string, string]
export type CompiledCatalog = Record<string, CompiledMessage>
