import { createHash } from 'node:crypto'
import type { PricedCart } from './types.ts'

/**
 * The classic cart hash: '' for an empty cart, else md5 (hex) of the lines' keys and quantities and the total
 * price, so it changes whenever the contents or the total change.
 */
export function cartHash (priced: PricedCart): string {
  if (priced.lines.length === 0) return ''
  const contents = JSON.stringify({
    lines: priced.lines.map((l) => [l.line.key, l.line.quantity]),
    total: priced.totals.totalPrice
  })
  return createHash('md5').update(contents).digest('hex')
}
