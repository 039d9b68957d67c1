import type { PricedCart, PricedLine } from '../types.ts'
import type { ConditionContext } from './types.ts'

export interface Visitor {
  loggedIn: boolean
  capabilities: readonly string[]
}

/**
 * The facts conditions test, taken from a priced cart and the visitor. `counts` picks the lines that count (add-on
 * lines leave themselves out, so an add-on cannot keep its own conditions true).
 */
export function conditionContext (priced: PricedCart, visitor: Visitor, now: Date, counts: (line: PricedLine) => boolean = () => true): ConditionContext {
  const productIds = new Set<number>()
  const categoryIds = new Set<number>()
  let subtotal = 0
  let itemCount = 0
  for (const pricedLine of priced.lines) {
    if (!counts(pricedLine)) continue
    const { line, parent } = pricedLine
    productIds.add(line.productId)
    if (line.variationId) productIds.add(line.variationId)
    for (const category of parent.categories) categoryIds.add(category.id)
    subtotal += pricedLine.lineTotal
    itemCount += line.quantity
  }
  return {
    subtotal,
    itemCount,
    productIds,
    categoryIds,
    loggedIn: visitor.loggedIn,
    capabilities: visitor.capabilities,
    now
  }
}
