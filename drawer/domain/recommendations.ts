import { isManagedMark } from '../../kernel/domain/marks.ts'
import { lineStockId } from '../../kernel/domain/cart.ts'
import { isInStock, isListedInCatalog, isPurchasable } from '../../kernel/domain/catalog.ts'
import { evaluate, type ConditionContext, type ConditionGroup } from './conditions/index.ts'
import { quantityLimits, validateQuantity } from '../../kernel/domain/quantity.ts'
import type { CartData, Product } from '../../kernel/domain/types.ts'

/**
 * Where recommended products come from: the cart's products' cross-sells or upsells, a manual list, other products
 * of the cart's products' categories, or the shop's best sellers (units in placed orders).
 */
export type RecommendationSource = 'cross_sells' | 'upsells' | 'manual' | 'same_category' | 'best_sellers'

/** A rule: while its conditions hold, its source (and, for `manual`, its products) is the first one asked. */
export interface RecommendationRule {
  conditions: ConditionGroup
  source: RecommendationSource
  product_ids: number[]
}

export interface RecommendationSettings {
  enabled: boolean
  /** The first source when no rule holds (with `manual_ids` for `manual`). */
  source: RecommendationSource
  manual_ids: number[]
  /** The most products listed. */
  limit: number
  /** Asked in order after the first source while fewer than `limit` products were found. */
  fallbacks?: RecommendationSource[]
  /** The first rule whose conditions hold chooses the first source instead of `source`. */
  rules?: RecommendationRule[]
}

/** One source to ask, with its own product ids for `manual`. */
export interface RecommendationStep {
  source: RecommendationSource
  productIds: number[]
}

/**
 * Whether the drawer may add a product with one click (specification §4.3): a simple product that is published,
 * visible in the catalog, purchasable and in stock.
 */
export function isRecommendationAddable (product: Product): boolean {
  return product.type === 'simple' && isListedInCatalog(product) && isPurchasable(product) && isInStock(product)
}

/**
 * The sources to ask, in order: the first rule whose conditions hold for `context` (none without a context), else
 * `source`; then the fallbacks, each source once (a `manual` fallback uses `manual_ids`). Nothing while disabled.
 */
export function recommendationPlan (settings: RecommendationSettings, context: ConditionContext | null): RecommendationStep[] {
  if (!settings.enabled) return []
  const rule = context === null ? undefined : (settings.rules ?? []).find((candidate) => evaluate(candidate.conditions, context))
  const first: RecommendationStep = rule === undefined
    ? { source: settings.source, productIds: settings.manual_ids }
    : { source: rule.source, productIds: rule.product_ids }
  const steps = [first]
  for (const source of settings.fallbacks ?? []) {
    if (steps.some((step) => step.source === source && source !== 'manual')) continue
    steps.push({ source, productIds: source === 'manual' ? settings.manual_ids : [] })
  }
  return steps
}

/** The ids a step needs no I/O for (cross-sells, upsells, manual), in order, once each; [] for the other sources. */
export function stepCandidates (step: RecommendationStep, cart: CartData, parents: ReadonlyMap<number, Product>): number[] {
  if (step.source === 'manual') return [...new Set(step.productIds)]
  if (step.source !== 'cross_sells' && step.source !== 'upsells') return []
  return [...new Set(cart.lines.flatMap((line) => {
    const parent = parents.get(line.productId)
    if (parent === undefined) return []
    return step.source === 'cross_sells' ? parent.crossSellIds : parent.upsellIds
  }))]
}

/** The category ids of the cart's products, in cart order, once each (the `same_category` source). */
export function cartCategoryIds (cart: CartData, parents: ReadonlyMap<number, Product>): number[] {
  return [...new Set(cart.lines.flatMap((line) => parents.get(line.productId)?.categories.map((category) => category.id) ?? []))]
}

/**
 * The quantity `recommendations/add` adds, or null when it refuses the product: it must be addable
 * (`isRecommendationAddable`), not sold individually while already in the cart, and the smallest quantity its
 * rules allow must fit them and its stock. That quantity is the rules' minimum (a product sold in 2–10 in steps of
 * 2 adds 2); for a product whose own line is in the cart already, one step (`multipleOf`) more, as the line's new
 * quantity must stay a multiple. The platform checks the line's new quantity again when adding.
 */
export function recommendationQuantity (product: Product, cart: CartData): number | null {
  if (!isRecommendationAddable(product)) return null
  const sameStock = cart.lines.filter((line) => lineStockId(line) === product.id)
  if (product.soldIndividually && sameStock.length > 0) return null
  const ownLine = sameStock.find((line) => !isManagedMark(line.mark) && line.variationId === 0)
  const alreadyInCart = sameStock.reduce((units, line) => line === ownLine ? units : units + line.quantity, 0)
  const limits = quantityLimits(product, { alreadyInCart })
  const quantity = ownLine === undefined ? limits.minimum : limits.multipleOf
  const lineQuantity = (ownLine?.quantity ?? 0) + quantity
  return validateQuantity(product, lineQuantity, limits, { alreadyInCart }) === null ? quantity : null
}

/** The product ids the settings' own source gives (no rule, no fallback), in order, before lookup and filtering. */
export function recommendationCandidates (cart: CartData, parents: ReadonlyMap<number, Product>, settings: RecommendationSettings): number[] {
  if (!settings.enabled) return []
  return stepCandidates({ source: settings.source, productIds: settings.manual_ids }, cart, parents)
}

/**
 * The recommended products: candidates that exist, that `recommendations/add` accepts (`recommendationQuantity`),
 * and are not in the cart already (as a product
 * or as the parent of a line), at most `settings.limit`, in candidate order.
 */
export function pickRecommendations (cart: CartData, candidates: readonly number[], products: ReadonlyMap<number, Product>, settings: RecommendationSettings): Product[] {
  const inCart = new Set(cart.lines.flatMap((line) => [line.productId, line.variationId]))
  const picked: Product[] = []
  for (const id of candidates) {
    if (picked.length >= settings.limit) break
    const product = products.get(id)
    if (product !== undefined && !inCart.has(id) && !picked.includes(product) && recommendationQuantity(product, cart) !== null) picked.push(product)
  }
  return picked
}

/**
 * Whether a product can serve as a smart add-on: like a recommendation, but its catalog visibility does not matter
 * (add-ons such as gift wrap are usually hidden from the catalog and only offered in the cart).
 */
export function isAddonAddable (product: Product): boolean {
  return product.type === 'simple' && product.status === 'publish' && isPurchasable(product) && isInStock(product)
}
