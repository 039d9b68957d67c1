import formbody from '@fastify/formbody'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AddToCartBody, AddToCartError, AjaxFailure, FragmentsResponse, RemoveFromCartBody } from '../../../schemas/wc-ajax.ts'
import { ErrorBody } from '../../../schemas/error.ts'
import { COOKIE_CART_SECURITY } from '../../openapi/index.ts'
import { CartActionError } from '../../../domain/cart-action-error.ts'
import type { CartState } from '../cart/cart-service.ts'
import { requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { permalink } from '../store-api/serialize-product.ts'
import { MINI_CART_SELECTOR, renderMiniCart } from './mini-cart.ts'
import { addWcAjaxConstraint, WC_AJAX_CONSTRAINT } from './wc-ajax-constraint.ts'

const BODY_LIMIT = 16 * 1024
const noStore = { 'Cache-Control': 'no-store, no-cache, must-revalidate, private' }

/**
 * The classic AJAX cart on the browser's cookie session: `?wc-ajax=add_to_cart`, `get_refreshed_fragments` and
 * `remove_from_cart`, answering `{fragments, cart_hash}` after the fragments filter, as WooCommerce does.
 */
export const wcAjaxRoutes: FastifyPluginAsync = async (fastify) => {
  addWcAjaxConstraint(fastify)
  await fastify.register(formbody, { bodyLimit: BODY_LIMIT })
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  async function fragments (state: CartState) {
    const own = { [MINI_CART_SELECTOR]: renderMiniCart(state.priced, shop.serializeContext) }
    return { fragments: await shop.filters.apply('woocommerce_add_to_cart_fragments', own, state), cart_hash: state.hash }
  }

  // The classic session is the cookie: a Cart-Token header does not choose the cart here.
  const cookieCart = (request: FastifyRequest, reply: FastifyReply) => resolveCartKey(request, reply, shop, { useToken: false })
  const tags = ['classic']
  const security = COOKIE_CART_SECURITY
  // Browsers post forms; scripts may send JSON.
  const consumes = ['application/x-www-form-urlencoded', 'application/json']

  app.post('/', {
    constraints: { [WC_AJAX_CONSTRAINT]: 'add_to_cart' },
    bodyLimit: BODY_LIMIT,
    schema: {
      tags,
      summary: 'Classic AJAX add to cart (?wc-ajax=add_to_cart)',
      description: 'Adds the product to the cookie session\'s cart and answers its fragments; a product that cannot be added answers `{error: true, product_url}` (status 200, as WooCommerce).',
      security,
      consumes,
      body: AddToCartBody,
      response: { 200: { anyOf: [FragmentsResponse, AddToCartError], description: 'The fragments, or the product\'s page when it could not be added.' }, 400: ErrorBody }
    }
  }, async (request, reply) => {
    reply.headers(noStore)
    const { product_id: productId, quantity, variation_id: variationId, ...rest } = request.body
    const variation = Object.fromEntries(Object.entries(rest)
      .filter(([name, value]) => name.startsWith('attribute_') && typeof value === 'string')) as Record<string, string>
    const key = await cookieCart(request, reply)
    try {
      const state = await shop.carts.addItem(key, { id: variationId || productId, quantity, variation }, await requestViewer(request, shop.auth))
      return await fragments(state)
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      const product = await shop.storage.getProduct(productId)
      const parent = product && product.type === 'variation' ? await shop.storage.getProduct(product.parentId) : product
      return { error: true as const, product_url: product && parent ? permalink(product, parent, shop.homeUrl) : `${shop.homeUrl}/` }
    }
  })

  const refreshSchema = {
    tags,
    summary: 'Classic fragment refresh (?wc-ajax=get_refreshed_fragments)',
    description: 'The fragments of the cookie session\'s cart, as they stand.',
    security,
    response: { 200: FragmentsResponse }
  }
  const refresh = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(noStore)
    const key = await cookieCart(request, reply)
    return fragments(await shop.carts.get(key, await requestViewer(request, shop.auth)))
  }
  app.post('/', { constraints: { [WC_AJAX_CONSTRAINT]: 'get_refreshed_fragments' }, bodyLimit: BODY_LIMIT, schema: refreshSchema }, refresh)
  app.get('/', { constraints: { [WC_AJAX_CONSTRAINT]: 'get_refreshed_fragments' }, schema: refreshSchema }, refresh)

  app.post('/', {
    constraints: { [WC_AJAX_CONSTRAINT]: 'remove_from_cart' },
    bodyLimit: BODY_LIMIT,
    schema: {
      tags,
      summary: 'Classic AJAX remove from cart (?wc-ajax=remove_from_cart)',
      description: 'Removes the item from the cookie session\'s cart and answers its fragments; an unknown key answers `{success: false}`.',
      security,
      consumes,
      body: RemoveFromCartBody,
      response: { 200: { anyOf: [FragmentsResponse, AjaxFailure], description: 'The fragments, or a failure when nothing was removed.' }, 400: ErrorBody }
    }
  }, async (request, reply) => {
    reply.headers(noStore)
    const key = await cookieCart(request, reply)
    try {
      const state = await shop.carts.removeItem(key, request.body.cart_item_key, await requestViewer(request, shop.auth))
      return await fragments(state)
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      return { success: false as const }
    }
  })
}
