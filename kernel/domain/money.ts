import type { Currency } from './types.ts'

/** US dollars, the shop's default currency. */
export const DEFAULT_CURRENCY: Readonly<Currency> = Object.freeze({
  code: 'USD',
  symbol: '$',
  minorUnit: 2,
  decimalSeparator: '.',
  thousandSeparator: ',',
  prefix: '$',
  suffix: ''
})

/** An integer number of minor units as the Store API writes it: `"3900"`, `"-250"`, never `"-0"`. */
export function toMinorString (n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite amount: ${n}`)
  const rounded = Math.round(n)
  return rounded === 0 ? '0' : String(rounded)
}

/**
 * Formats minor units for display, WooCommerce style: `-` then prefix, the number with thousand and decimal
 * separators and `minorUnit` decimals, then suffix (`formatMoney(5000, usd)` → `$50.00`, `-1234567` → `-$12,345.67`).
 */
export function formatMoney (minor: number, currency: Currency): string {
  const rounded = Math.round(minor)
  const negative = rounded < 0
  const digits = String(Math.abs(rounded))
  const minorUnit = Math.max(0, Math.trunc(currency.minorUnit))
  const padded = digits.padStart(minorUnit + 1, '0')
  const whole = padded.slice(0, padded.length - minorUnit)
  const fraction = padded.slice(padded.length - minorUnit)
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, currency.thousandSeparator)
  const number = minorUnit > 0 ? `${grouped}${currency.decimalSeparator}${fraction}` : grouped
  return `${negative ? '-' : ''}${currency.prefix}${number}${currency.suffix}`
}

/** The Store API's currency fields, appended to every money object. */
export interface CurrencyBlock {
  currency_code: string
  currency_symbol: string
  currency_minor_unit: number
  currency_decimal_separator: string
  currency_thousand_separator: string
  currency_prefix: string
  currency_suffix: string
}

export function currencyBlock (currency: Currency): CurrencyBlock {
  return {
    currency_code: currency.code,
    currency_symbol: currency.symbol,
    currency_minor_unit: currency.minorUnit,
    currency_decimal_separator: currency.decimalSeparator,
    currency_thousand_separator: currency.thousandSeparator,
    currency_prefix: currency.prefix,
    currency_suffix: currency.suffix
  }
}
