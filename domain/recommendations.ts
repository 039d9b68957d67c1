import { isInStock, isListedInCatalog, isPurchasable } from './catalog.ts'
import type { CartData, Product } from './types.ts'

export type RecommendationSource = 'cross_sells' | 'upsells' | 'manual'

export interface RecommendationSettings {
  enabled: boolean
  source: RecommendationSource
  manual_ids: number[]
  limit: number
}

/**
 * Whether the drawer may add a product with one click (specification §4.3): a simple product that is published,
 * visible in the catalog, purchasable and in stock.
 */
export function isRecommendationAddable (product: Product): boolean {
  return product.type === 'simple' && isListedInCatalog(product) && isPurchasable(product) && isInStock(product)
}

/** The product ids a cart's recommendations are drawn from, in order, before lookup and filtering. */
export function recommendationCandidates (cart: CartData, parents: ReadonlyMap<number, Product>, settings: RecommendationSettings): number[] {
  if (!settings.enabled) return []
  const ids = settings.source === 'manual'
    ? settings.manual_ids
    : cart.lines.flatMap((line) => {
      const parent = parents.get(line.productId)
      if (parent === undefined) return []
      return settings.source === 'cross_sells' ? parent.crossSellIds : parent.upsellIds
    })
  return [...new Set(ids)]
}

/**
 * The recommended products: candidates that exist, can be added, and are not in the cart already (as a product
 * or as the parent of a line), at most `settings.limit`, in candidate order.
 */
export function pickRecommendations (cart: CartData, candidates: readonly number[], products: ReadonlyMap<number, Product>, settings: RecommendationSettings): Product[] {
  const inCart = new Set(cart.lines.flatMap((line) => [line.productId, line.variationId]))
  const picked: Product[] = []
  for (const id of candidates) {
    if (picked.length >= settings.limit) break
    const product = products.get(id)
    if (product !== undefined && !inCart.has(id) && isRecommendationAddable(product)) picked.push(product)
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
