import type { FastifyInstance } from 'fastify'
import { effectivePrice, isOnSale } from '../../domain/catalog.ts'
import { pickRecommendations, recommendationCandidates } from '../../domain/recommendations.ts'
import type { Product } from '../../domain/types.ts'
import type { CartState } from '../cart-drawer/index.ts'
import { currencyBlock } from '../../domain/money.ts'

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

/** The cart's recommendations as the settings choose them: one settings read and one product read at most. */
export async function recommendationsFor (fastify: FastifyInstance, state: CartState) {
  const { settings } = await fastify.settings.at(state.settingsVersion)
  const data = state.stored?.data ?? { lines: [], coupons: [] }
  const parents = new Map(state.priced.lines.map(({ parent }) => [parent.id, parent]))
  const candidates = recommendationCandidates(data, parents, settings.recommendations)
  const products = candidates.length === 0 ? new Map<number, Product>() : await fastify.commerce.getProducts(candidates)
  return {
    source: settings.recommendations.source,
    products: pickRecommendations(data, candidates, products, settings.recommendations).map((product) => productCard(product, fastify))
  }
}
