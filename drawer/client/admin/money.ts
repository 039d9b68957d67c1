import type { CurrencyBlock } from '../../../kernel/domain/money.ts'
import { h } from '../dom.ts'
import { t } from './i18n.ts'

/**
 * Amounts of money as a shop owner types them (`50.00` dollars), saved as the settings store them: whole numbers of
 * the currency's smallest unit (`5000` cents). Nothing but the way of typing changes: the saved value is the same.
 */

/** `5000` → `50.00` (the currency's decimal separator, no thousands separator: a value to edit). */
export function toAmount (minor: number, currency: CurrencyBlock): string {
  const unit = currency.currency_minor_unit
  const digits = String(Math.abs(Math.trunc(minor))).padStart(unit + 1, '0')
  const whole = digits.slice(0, digits.length - unit)
  return (minor < 0 ? '-' : '') + (unit > 0 ? `${whole}${currency.currency_decimal_separator}${digits.slice(digits.length - unit)}` : whole)
}

/**
 * `50`, `50.5`, `.5`, `1,250.00` or `$50` → the amount in the smallest unit; null for anything else (a negative amount,
 * letters, more decimals than the currency has).
 */
export function parseAmount (text: string, currency: CurrencyBlock): number | null {
  const unit = currency.currency_minor_unit
  const decimal = currency.currency_decimal_separator || '.'
  let plain = text.trim()
  for (const part of [currency.currency_symbol, currency.currency_prefix, currency.currency_suffix, currency.currency_code]) {
    if (part) plain = plain.split(part).join('')
  }
  plain = plain.replace(/\s/g, '')
  const thousands = currency.currency_thousand_separator
  if (thousands && thousands !== decimal) plain = plain.split(thousands).join('')
  if (decimal !== '.') plain = plain.split(decimal).join('.')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(plain)
  if (match === null || !/\d/.test(plain)) return null
  const fraction = match[2] ?? ''
  if (fraction.length > unit) return null
  const minor = Number(match[1] || '0') * 10 ** unit + Number(fraction.padEnd(unit, '0') || '0')
  return Number.isSafeInteger(minor) ? minor : null
}

/** An amount to show as an example: fifty of the currency's main unit (`50.00`). */
function exampleAmount (currency: CurrencyBlock): string {
  return toAmount(50 * 10 ** currency.currency_minor_unit, currency)
}

/**
 * How to type an amount, for help texts: `in USD, for example 50.00` (the example as it is typed: the shop's own
 * decimal separator, which `parseAmount` reads, whatever the screens' language).
 */
export function amountHint (currency: CurrencyBlock): string {
  return t('field.amountHint', { currency: currency.currency_code, example: exampleAmount(currency) })
}

/**
 * A text field for an amount, with the currency's symbol beside it. `change` gets the amount in the smallest unit, or
 * the text as typed when it is not an amount (with `problem` set, so nothing is saved until it is fixed).
 */
export function amountInput (id: string, value: unknown, currency: CurrencyBlock, change: (value: number | string, problem: string | null) => void,
  attributes: Record<string, string> = {}): HTMLElement {
  const input = h('input', {
    id,
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    value: typeof value === 'number' ? toAmount(value, currency) : String(value ?? ''),
    ...attributes
  })
  input.addEventListener('input', () => {
    const minor = parseAmount(input.value, currency)
    if (minor === null) change(input.value, t('field.amountProblem', { currency: currency.currency_code, example: exampleAmount(currency) }))
    else change(minor, null)
  })
  const symbol = currency.currency_prefix || currency.currency_suffix || currency.currency_symbol
  const sign = h('span', { class: 'admin-money-sign', 'aria-hidden': 'true', translate: 'no' }, symbol.trim())
  return h('span', { class: currency.currency_prefix ? 'admin-money' : 'admin-money admin-money-after' }, sign, input)
}
