import type { FastifyInstance } from 'fastify'
import type { ConditionGroup } from '../../domain/conditions/index.ts'
import { isRecommendationAddable } from '../../domain/recommendations.ts'
import type { Product } from '../../../kernel/domain/types.ts'
import { isManagedMark } from '../../../kernel/domain/marks.ts'
import type { CartState, Viewer } from '../../port/index.ts'
import { productCard } from '../svc-free/index.ts'
import { conditionsHold } from './visitor.ts'

/** The featured offer when it applies to this cart and visitor: enabled, conditions hold, product addable. */
export async function activeSpotlight (fastify: FastifyInstance, state: CartState, viewer: Viewer): Promise<{ product: Product, title: string, text: string } | null> {
  const { settings } = await fastify.settings.get()
  const spotlight = settings.spotlight
  if (!spotlight.enabled || spotlight.product_id === 0) return null
  if (!conditionsHold(spotlight.conditions as ConditionGroup, state.priced, viewer, fastify.commerce.now())) return null
  const product = await fastify.commerce.getProduct(spotlight.product_id)
  if (product === null || !isRecommendationAddable(product)) return null
  return { product, title: spotlight.title, text: spotlight.text }
}

/** The drawer's view of the offer. */
export async function spotlightView (fastify: FastifyInstance, state: CartState, viewer: Viewer) {
  const offer = await activeSpotlight(fastify, state, viewer)
  if (offer === null) return null
  return {
    title: offer.title,
    text: offer.text,
    product: productCard(offer.product, fastify),
    in_cart: state.priced.lines.some(({ line }) => line.productId === offer.product.id && !isManagedMark(line.mark))
  }
}
