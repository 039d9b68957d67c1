import type { CartView, CartViewLine } from '../../../kernel/domain/cart-view.ts'
import type { ConditionContext } from './types.ts'

export interface Visitor {
  loggedIn: boolean
  capabilities: readonly string[]
}

/**
 * The facts conditions test, taken from a view of the cart and the visitor. `counts` picks the lines that count
 * (add-on lines leave themselves out, so an add-on cannot keep its own conditions true).
 */
export function conditionContext (view: CartView, visitor: Visitor, now: Date, counts: (line: CartViewLine) => boolean = () => true): ConditionContext {
  const productIds = new Set<number>()
  const categoryIds = new Set<number>()
  let subtotal = 0
  let itemCount = 0
  for (const line of view.lines) {
    if (!counts(line)) continue
    productIds.add(line.productId)
    if (line.variationId) productIds.add(line.variationId)
    for (const category of line.categoryIds) categoryIds.add(category)
    subtotal += line.total
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
