import type { Currency } from './types.ts'

/** Minor units as the server writes them (`"3900"`) in the shop's currency format (`$39.00`). */
export function money (minor: string | number, currency: Currency): string {
  const amount = Math.round(Number(minor)) || 0
  const unit = currency.currency_minor_unit
  const digits = String(Math.abs(amount)).padStart(unit + 1, '0')
  const whole = digits.slice(0, digits.length - unit).replace(/\B(?=(\d{3})+(?!\d))/g, currency.currency_thousand_separator)
  const number = unit > 0 ? whole + currency.currency_decimal_separator + digits.slice(digits.length - unit) : whole
  return (amount < 0 ? '-' : '') + currency.currency_prefix + number + currency.currency_suffix
}
