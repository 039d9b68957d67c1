import formbody from '@fastify/formbody'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AddToCartBody, AddToCartError, AjaxFailure, FragmentsResponse, RemoveFromCartBody } from '../schemas/wc-ajax.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { restError } from '../../../kernel/errors/index.ts'
import { COOKIE_CART_SECURITY } from '../../../drawer/index.ts'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import type { CartState } from '../cart/cart-service.ts'
import type { Product } from '../../../kernel/domain/types.ts'
import { isNewCartKey, requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { permalink } from '../store-api/serialize-product.ts'
import type { ShopRateLimiter } from '../store-api/rate-limits.ts'
import { MINI_CART_SELECTOR, renderMiniCart } from './mini-cart.ts'
import { addWcAjaxConstraint, WC_AJAX_CONSTRAINT } from './wc-ajax-constraint.ts'

const BODY_LIMIT = 16 * 1024
const noStore = { 'Cache-Control': 'no-store, no-cache, must-revalidate, private' }

export interface WcAjaxOptions {
  /** Origins whose pages may post to the classic cart besides the shop's own (its home and site URLs'). */
  allowedOrigins?: readonly string[]
  /** The shop's rate limiter: an add to cart that starts a cart counts against `newCart`, as on the Store API. */
  limiter?: ShopRateLimiter | null
}

function originOf (url: string): string | null {
  try {
    const { origin } = new URL(url)
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

/**
 * Whether a classic POST comes from another site's page (a cross-site request forgery: the browser sends the
 * shop's cookies with it). Refused: `Sec-Fetch-Site: cross-site`, and an `Origin` that is not the shop's or an
 * allowed one (`Origin: null` included). Allowed: the shop's own pages, and clients that send neither header (a
 * browser always sends `Origin` on a POST; scripts and servers do not, and carry no shopper's cookies).
 */
export function isCrossSitePost (headers: { origin?: string | string[], 'sec-fetch-site'?: string | string[] }, allowed: ReadonlySet<string>): boolean {
  const fetchSite = headers['sec-fetch-site']
  if (fetchSite !== undefined && (typeof fetchSite !== 'string' || fetchSite.trim().toLowerCase() === 'cross-site')) return true
  const origin = headers.origin
  if (origin === undefined) return false
  if (typeof origin !== 'string') return true
  const claimed = originOf(origin.trim())
  return claimed === null || !allowed.has(claimed)
}

/**
 * Whether a refused add may send the viewer to the product's page: the product (and a variation's parent) is
 * published, or the viewer manages the shop (who sees every product, drafts included). A draft or private product
 * is otherwise answered as one that does not exist, so that its address (its slug) does not leak.
 */
function pageVisibleTo (product: Product, parent: Product, viewer: { canReadPrivate: boolean }): boolean {
  return viewer.canReadPrivate || (product.status === 'publish' && parent.status === 'publish')
}

/**
 * The classic AJAX cart on the browser's cookie session: `?wc-ajax=add_to_cart`, `get_refreshed_fragments` and
 * `remove_from_cart`, answering `{fragments, cart_hash}` after the fragments filter, as WooCommerce does.
 */
export const wcAjaxRoutes: FastifyPluginAsync<WcAjaxOptions> = async (fastify, options) => {
  addWcAjaxConstraint(fastify)
  const { shop } = fastify
  const allowed = new Set([shop.homeUrl, shop.siteUrl, ...(options.allowedOrigins ?? [])]
    .map((url) => originOf(url.trim())).filter((origin): origin is string => origin !== null))
  // Before the body is read: a forged request changes nothing.
  fastify.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && isCrossSitePost(request.headers, allowed)) {
      throw restError('svc_forbidden_origin', 'Cross-site requests to the classic cart are not allowed.')
    }
  })
  options.limiter?.installClassic(fastify)
  await fastify.register(formbody, { bodyLimit: BODY_LIMIT })
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

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
    config: { startsCart: true },
    bodyLimit: BODY_LIMIT,
    schema: {
      tags,
      summary: 'Classic AJAX add to cart (?wc-ajax=add_to_cart)',
      description: 'Adds the product to the cookie session\'s cart and answers its fragments; a product that cannot be added answers `{error: true, product_url}` (status 200, as WooCommerce): the product\'s page, or the shop\'s home when the product does not exist or the visitor may not see it (a draft, or a private product, for anyone but a shop manager). An add that starts a cart (the cookie names no stored cart) counts against the shop\'s limit on new carts per client: past it, 429 `svc_rate_limit_exhausted` with `Retry-After`.',
      security,
      consumes,
      body: AddToCartBody,
      response: { 200: { anyOf: [FragmentsResponse, AddToCartError], description: 'The fragments, or where to go when the product could not be added (its page, or the shop\'s home).' }, 400: ErrorBody, 429: ErrorBody }
    }
  }, async (request, reply) => {
    reply.headers(noStore)
    const { product_id: productId, quantity, variation_id: variationId, ...rest } = request.body
    const variation = Object.fromEntries(Object.entries(rest)
      .filter(([name, value]) => name.startsWith('attribute_') && typeof value === 'string')) as Record<string, string>
    const key = await cookieCart(request, reply)
    const viewer = await requestViewer(request, shop.auth)
    try {
      // A cart that starts with this add (no cookie named one) needs no read: `newKey`.
      const { state } = await shop.carts.addItemWithKey(key, { id: variationId || productId, quantity, variation }, viewer, { newKey: isNewCartKey(request) })
      return await fragments(state)
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      // WooCommerce sends the shopper to the product's page to see why; the shop's home for one they may not see.
      const product = await shop.storage.getProduct(productId)
      const parent = product && product.type === 'variation' ? await shop.storage.getProduct(product.parentId) : product
      const shown = product !== null && parent !== null && pageVisibleTo(product, parent, viewer)
      return { error: true as const, product_url: shown ? permalink(product, parent, shop.homeUrl) : `${shop.homeUrl}/` }
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
