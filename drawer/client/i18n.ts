import type { MessageId } from '../../kernel/i18n/en.ts'
import { RTL_LOCALES, type CompiledCatalog, type CompiledMessage, type Locale } from '../../kernel/i18n/locales.ts'
import type { Currency } from './types.ts'

export type Values = Record<string, string | number>

/** First strong isolate … pop directional isolate: a value keeps its own direction inside a sentence. */
const FSI = '\u2068'
const PDI = '\u2069'

/**
 * The drawer's words in one locale: compiled ICU messages (the shop's overrides first, then the locale's catalog,
 * then English), formatted with `Intl.PluralRules` and `Intl.NumberFormat` in the page's language tag. In a
 * right-to-left locale every value put into a sentence is isolated, so "2" or "$10.80" cannot be reordered.
 * `Id` is the catalog's ids: the drawer's (the default), or the admin screens' (drawer/client/admin/i18n.ts).
 */
export class I18n<Id extends string = MessageId> {
  readonly locale: Locale
  /** The tag numbers are formatted in: the page's `lang` when its language is this locale (`de-CH`), else the locale. */
  readonly tag: string
  readonly dir: 'rtl' | 'ltr'
  readonly #messages: CompiledCatalog[]
  readonly #plurals = new Map<string, Intl.PluralRules>()
  readonly #numbers = new Map<string, Intl.NumberFormat>()

  constructor (locale: Locale, tag: string, ...catalogs: Array<CompiledCatalog | undefined>) {
    this.locale = locale
    try {
      this.tag = Intl.getCanonicalLocales(tag)[0] ?? locale
    } catch {
      this.tag = locale
    }
    this.dir = RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr'
    this.#messages = catalogs.filter((catalog): catalog is CompiledCatalog => catalog !== undefined)
  }

  t (id: Id, values: Values = {}): string {
    for (const catalog of this.#messages) {
      const message = catalog[id]
      if (message !== undefined) return this.#format(message, values, 0)
    }
    return id
  }

  number (value: number, options?: Intl.NumberFormatOptions): string {
    const key = JSON.stringify(options ?? {})
    let format = this.#numbers.get(key)
    if (format === undefined) this.#numbers.set(key, format = new Intl.NumberFormat(this.tag, options))
    return format.format(value)
  }

  /**
   * Minor units as the server writes them (`"3900"`), in the shop's currency and the page's locale (`$39.00`,
   * `39,00 $`); a negative amount with the minus sign U+2212 (`−$9.00`), where Intl writes a hyphen.
   */
  money (minor: string | number, currency: Currency): string {
    const unit = currency.currency_minor_unit
    const amount = (Math.round(Number(minor)) || 0) / 10 ** unit
    const options: Intl.NumberFormatOptions = { minimumFractionDigits: unit, maximumFractionDigits: unit }
    let text: string
    try {
      const format = this.#format$(currency.currency_code, options)
      // Right to left, the currency (`US$`) is isolated left to right: the bidi algorithm would split it (`$US`).
      text = format.formatToParts(amount).map((part) => part.type === 'currency' && this.dir === 'rtl' ? `\u2066${part.value}\u2069` : part.value).join('')
    } catch {
      text = this.number(amount, options)
    }
    return text.replace('-', '\u2212')
  }

  #format$ (code: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
    let format = this.#numbers.get(code)
    if (format === undefined) this.#numbers.set(code, format = new Intl.NumberFormat(this.tag, { ...options, style: 'currency', currency: code }))
    return format
  }

  #format (message: CompiledMessage, values: Values, hash: number): string {
    if (typeof message === 'string') return message
    let out = ''
    for (const part of message) {
      if (typeof part === 'string') {
        out += part
        continue
      }
      const value = part[0] === 3 ? hash : values[part[1]] ?? ''
      let text: string
      switch (part[0]) {
        case 1:
        case 4: {
          const n = Number(value) - part[2]
          const rules = this.#rules(part[0] === 4 ? 'ordinal' : 'cardinal')
          text = this.#format(part[3][`=${Number(value)}`] ?? part[3][rules.select(n)] ?? part[3].other ?? '', values, n)
          break
        }
        case 2: text = this.#format(part[2][String(value)] ?? part[2].other ?? '', values, hash); break
        case 5: text = this.isolate(this.number(Number(value), part[2] === 'percent' ? { style: 'percent' } : part[2] === 'integer' ? { maximumFractionDigits: 0 } : {})); break
        default: text = this.isolate(typeof value === 'number' ? this.number(value) : value)
      }
      out += text
    }
    return out
  }

  /** A value on its own inside a right-to-left sentence (nothing added in a left-to-right locale). */
  isolate (text: string): string {
    return this.dir === 'rtl' ? FSI + text + PDI : text
  }

  #rules (type: Intl.PluralRulesOptions['type']): Intl.PluralRules {
    let rules = this.#plurals.get(type!)
    if (rules === undefined) this.#plurals.set(type!, rules = new Intl.PluralRules(this.tag, { type }))
    return rules
  }
}
