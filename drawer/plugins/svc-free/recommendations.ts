import type { FastifyInstance } from 'fastify'
import { effectivePrice, isOnSale } from '../../../kernel/domain/catalog.ts'
import { conditionContext } from '../../domain/conditions/index.ts'
import { cartView } from '../../../kernel/domain/totals.ts'
import { cartCategoryIds, pickRecommendations, recommendationPlan, stepCandidates, type RecommendationStep } from '../../domain/recommendations.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import type { RecommendationsSettings } from '../../schemas/settings.ts'
import type { CartState, ResolvedCommercePort, Viewer } from '../../port/index.ts'
import { RecommendationCache } from './recommendation-cache.ts'
import { currencyBlock } from '../../../kernel/domain/money.ts'

const GUEST: Viewer = { canReadPrivate: false, userId: null }

/** A product as the drawer shows it in a list (recommendations, add-ons, spotlight). */
export function productCard (product: Product, fastify: FastifyInstance) {
  const { currency } = fastify.commerce
  const price = effectivePrice(product) ?? 0
  const image = product.images[0]
  return {
    id: product.id,
    name: product.name,
    short_description: product.shortDescription,
    permalink: fastify.commerce.productUrl(product, product),
    image: image ? { src: image.src, thumbnail: image.thumbnail, alt: image.alt } : null,
    prices: {
      price: String(price),
      regular_price: String(product.regularPrice ?? price),
      sale_price: String(isOnSale(product) ? product.salePrice : price),
      on_sale: isOnSale(product)
    },
    currency: currencyBlock(currency)
  }
}

/** How many candidates a `same_category` or `best_sellers` step reads: enough that some survive the filters. */
const lookupSize = (limit: number) => Math.min(100, limit * 3 + 5)

/** One cache of picks per commerce port (per app). */
const caches = new WeakMap<object, RecommendationCache<Product[]>>()

function cacheOf (shop: object): RecommendationCache<Product[]> {
  let cache = caches.get(shop)
  if (cache === undefined) {
    cache = new RecommendationCache()
    caches.set(shop, cache)
  }
  return cache
}

/**
 * What a pick reads besides the shop's catalog at one version and the settings at one version: the plan, the ids of
 * the cart's lines in order, and the priced lines' parents (which lines were priced depends on the viewer). Not the
 * quantities: a product in the cart is never picked, so `recommendationQuantity` never finds a line of the picked
 * product's own stock. Undefined when the shop's read brought no versions.
 */
function pickKey (state: CartState, steps: readonly RecommendationStep[], data: CartData): string | undefined {
  if (state.catalogVersion === undefined || state.settingsVersion === undefined) return undefined
  return JSON.stringify([
    state.catalogVersion,
    state.settingsVersion,
    steps,
    data.lines.map((line) => [line.productId, line.variationId]),
    state.priced.lines.map(({ parent }) => parent.id)
  ])
}

/**
 * The cart's recommendations as the settings choose them: the first rule whose conditions hold for the cart and the
 * visitor (else the settings' source), then the fallbacks while fewer than the limit were found. Only products that
 * `recommendations/add` accepts for this cart are listed (`recommendationQuantity`). One settings read, and per step
 * at most one product listing (same category, best sellers) and one product read; none when the same pick was made
 * at the same catalog and settings versions before (`RecommendationCache`).
 */
export async function recommendationsFor (fastify: FastifyInstance, state: CartState, viewer: Viewer = GUEST) {
  const { settings: all } = await fastify.settings.at(state.settingsVersion)
  const settings = all.recommendations
  const shop = fastify.commerce
  const data = state.stored?.data ?? { lines: [], coupons: [] }
  const context = conditionContext(cartView(state.priced), { loggedIn: Boolean(viewer.userId), capabilities: viewer.capabilities ?? [] }, shop.now())
  const steps = recommendationPlan(settings, context)
  const key = steps.length === 0 ? undefined : pickKey(state, steps, data)
  const pick = (unversioned: () => void) => pickProducts(shop, state, data, steps, settings, unversioned)
  const picked = key === undefined ? await pick(() => {}) : await cacheOf(shop).get(key, pick)
  return {
    source: steps[0]?.source ?? settings.source,
    products: picked.map((product) => productCard(product, fastify))
  }
}

async function pickProducts (
  shop: ResolvedCommercePort, state: CartState, data: CartData, steps: readonly RecommendationStep[], settings: RecommendationsSettings, unversioned: () => void
): Promise<Product[]> {
  const parents = new Map(state.priced.lines.map(({ parent }) => [parent.id, parent]))
  const inCart = [...new Set(data.lines.flatMap((line) => line.variationId ? [line.productId, line.variationId] : [line.productId]))]
  let picked: Product[] = []
  for (const step of steps) {
    if (picked.length >= settings.limit) break
    let candidates = stepCandidates(step, data, parents)
    if (step.source === 'same_category') {
      const categories = cartCategoryIds(data, parents)
      candidates = categories.length === 0
        ? []
        : (await shop.listProducts({
            categories: categories.map((id) => ({ id })),
            statuses: ['publish'],
            visibilities: ['visible', 'catalog'],
            types: ['simple'],
            excludeIds: [...inCart, ...picked.map((product) => product.id)],
            perPage: lookupSize(settings.limit)
          })).products.map((product) => product.id)
    } else if (step.source === 'best_sellers') {
      // Counted from orders, which no version covers: this pick is not kept.
      unversioned()
      candidates = shop.bestSellers === undefined ? [] : await shop.bestSellers(lookupSize(settings.limit) + inCart.length)
    }
    candidates = candidates.filter((id) => !picked.some((product) => product.id === id))
    if (candidates.length === 0) continue
    const products = await shop.getProducts(candidates)
    picked = [...picked, ...pickRecommendations(data, candidates, products, { ...settings, limit: settings.limit - picked.length })]
  }
  return picked
}
