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

/** Reason `quantity_not_whole` unless `quantity` is a whole number of at least 1. */
export function checkWholeQuantity (p: Product, quantity: number): DomainError | null {
  return Number.isInteger(quantity) && quantity >= 1
    ? null
    : domainError('quantity_not_whole', `The quantity of "${p.name}" must be a whole number of at least 1.`)
}

/**
 * Checks `quantity` (the whole quantity the line would hold) against `limits`, returning the first problem or null:
 * not a whole number ≥ 1 (`quantity_not_whole`), more than the stock left (`quantity_exceeds_stock`, `data.remaining`),
 * below the minimum (`quantity_below_minimum`), above the maximum (`quantity_above_maximum`), not a multiple
 * (`quantity_not_multiple`).
 * Pass the same `alreadyInCart` used for the limits.
 */
export function validateQuantity (p: Product, quantity: number, limits: QuantityLimits, context: QuantityContext = {}): DomainError | null {
  const notWhole = checkWholeQuantity(p, quantity)
  if (notWhole !== null) return notWhole
  const name = `"${p.name}"`
  const short = checkStock(p, quantity, context)
  if (short !== null) return short
  if (quantity < limits.minimum) {
    return domainError('quantity_below_minimum', `The minimum quantity of ${name} allowed in the cart is ${limits.minimum}.`)
  }
  if (quantity > limits.maximum) {
    return domainError('quantity_above_maximum', `The maximum quantity of ${name} allowed in the cart is ${limits.maximum}.`)
  }
  if (limits.multipleOf > 1 && quantity % limits.multipleOf !== 0) {
    return domainError('quantity_not_multiple', `The quantity of ${name} must be a multiple of ${limits.multipleOf}.`)
  }
  return null
}

/**
 * Reason `quantity_exceeds_stock` (`data.remaining`) when a stock-managed product that refuses backorders has fewer
 * than `quantity` units left (less `alreadyInCart`), else null.
 */
export function checkStock (p: Product, quantity: number, context: QuantityContext = {}): DomainError | null {
  if (!stockCaps(p)) return null
  const remaining = stockRemaining(p, context.alreadyInCart ?? 0)
  if (quantity <= remaining) return null
  return domainError('quantity_exceeds_stock',
    `There is not enough stock of "${p.name}" for that quantity (${remaining} remaining).`, { remaining })
}

/**
 * The quantity a new cart line starts with, as WooCommerce's Store API sets it: down to the maximum, up to the
 * minimum, then to the nearest multiple (halves round up). A quantity that is no whole number ≥ 1 is returned as it
 * is (`validateQuantity` refuses it).
 */
export function normaliseNewLineQuantity (quantity: number, limits: QuantityLimits): number {
  if (!Number.isInteger(quantity) || quantity < 1) return quantity
  let normalised = Math.max(Math.min(quantity, limits.maximum), limits.minimum)
  if (limits.multipleOf > 1) normalised = Math.round(normalised / limits.multipleOf) * limits.multipleOf
  return normalised
}
