export { currencyBlock, type CurrencyBlock } from '../../../kernel/domain/money.ts'

/** Store API amounts are strings of integers in minor units. */
export function amount (minor: number): string {
  return String(Math.round(minor))
}
