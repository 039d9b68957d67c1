import { stockAvailableFor } from './catalog.ts'
import { domainError } from './result.ts'
import type { DomainError, Product, QuantityLimits } from './types.ts'

/** WooCommerce's ceiling when nothing else caps the quantity. */
export const DEFAULT_MAXIMUM_QUANTITY = 9999

export interface QuantityContext {
  /**
   * Units of the same stock item held by *other* cart lines (for example the same variation chosen with a
   * different "any" attribute). They use up stock, so they lower the stock cap. Default 0.
   */
  alreadyInCart?: number
}

function positiveInteger (n: number | undefined): number | undefined {
  return n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined
}

/** Whether backorders are refused for a stock-managed product, so stock caps what can be bought. */
function stockCaps (p: Product): boolean {
  return p.manageStock && p.backorders === 'no'
}

function stockRemaining (p: Product, alreadyInCart: number): number {
  return Math.max(0, stockAvailableFor(p) - Math.max(0, alreadyInCart))
}

/**
 * Quantity limits for one cart line, following WooCommerce's Store API: minimum 1, maximum 9999, multiple of 1.
 * Sold individually: exactly 1 and not editable (quantity rules do not apply). A stock-managed product that refuses
 * backorders is capped at its remaining stock (less `alreadyInCart`). `quantityRules` narrow these; the minimum then
 * rounds up and the maximum down to a multiple of `multipleOf`. `unlimited` when the 9999 default is the cap.
 * The maximum may end below the minimum (for example no stock left): `validateQuantity` then refuses any quantity.
 */
export function quantityLimits (p: Product, context: QuantityContext = {}): QuantityLimits {
  if (p.soldIndividually) {
    return { minimum: 1, maximum: 1, multipleOf: 1, editable: false, unlimited: false }
  }
  const rules = p.quantityRules
  const multipleOf = positiveInteger(rules.multipleOf) ?? 1
  let minimum = Math.max(1, positiveInteger(rules.minimum) ?? 1)
  let maximum = DEFAULT_MAXIMUM_QUANTITY
  const ruleMaximum = positiveInteger(rules.maximum)
  if (ruleMaximum !== undefined) maximum = Math.min(maximum, ruleMaximum)
  if (stockCaps(p)) maximum = Math.min(maximum, stockRemaining(p, context.alreadyInCart ?? 0))
  const unlimited = maximum >= DEFAULT_MAXIMUM_QUANTITY
  minimum = Math.ceil(minimum / multipleOf) * multipleOf
  maximum = Math.floor(maximum / multipleOf) * multipleOf
  return { minimum, maximum, multipleOf, editable: true, unlimited }
}

function invalidQuantity (message: string): DomainError {
  return domainError('woocommerce_rest_product_invalid_quantity', message, 400)
}

/** 400 `woocommerce_rest_product_invalid_quantity` unless `quantity` is a whole number of at least 1. */
export function checkWholeQuantity (p: Product, quantity: number): DomainError | null {
  return Number.isInteger(quantity) && quantity >= 1
    ? null
    : invalidQuantity(`The quantity of "${p.name}" must be a whole number of at least 1.`)
}

/**
 * Checks `quantity` (the whole quantity the line would hold) against `limits`, returning the first problem or null:
 * not a whole number ≥ 1, more than the stock left (`woocommerce_rest_product_partially_out_of_stock`), below the
 * minimum, above the maximum, not a multiple (`woocommerce_rest_product_invalid_quantity`), each 400.
 * Pass the same `alreadyInCart` used for the limits.
 */
export function validateQuantity (p: Product, quantity: number, limits: QuantityLimits, context: QuantityContext = {}): DomainError | null {
  const notWhole = checkWholeQuantity(p, quantity)
  if (notWhole !== null) return notWhole
  const name = `"${p.name}"`
  if (stockCaps(p)) {
    const remaining = stockRemaining(p, context.alreadyInCart ?? 0)
    if (quantity > remaining) {
      return domainError('woocommerce_rest_product_partially_out_of_stock',
        `There is not enough stock of ${name} for that quantity (${remaining} remaining).`, 400, { remaining })
    }
  }
  if (quantity < limits.minimum) {
    return invalidQuantity(`The minimum quantity of ${name} allowed in the cart is ${limits.minimum}.`)
  }
  if (quantity > limits.maximum) {
    return invalidQuantity(`The maximum quantity of ${name} allowed in the cart is ${limits.maximum}.`)
  }
  if (limits.multipleOf > 1 && quantity % limits.multipleOf !== 0) {
    return invalidQuantity(`The quantity of ${name} must be a multiple of ${limits.multipleOf}.`)
  }
  return null
}
