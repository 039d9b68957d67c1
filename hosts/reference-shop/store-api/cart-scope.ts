import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requestUser } from '../auth/session-cookie.ts'
import { isCartKey } from '../session/cart-key.ts'
import { checkStoreApiNonce, responseNonce, type StoreApiNonceDeps } from '../session/store-api-nonce.ts'
import { cookieCartKey, requestCartKey } from '../session/store-api-session.ts'

/**
 * What every cart-session answer of the Store API sends (WooCommerce sends `no-cache, must-revalidate, max-age=0,
 * no-store, private`): nothing may be kept by a browser cache, a proxy or a CDN, and `Vary` names every request
 * header that picks the cart, so that a cache that ignores `no-store` still never gives one visitor's cart to another.
 */
export const STORE_API_NO_STORE = {
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
  Pragma: 'no-cache',
  Expires: '0',
  Vary: 'Cart-Token, Nonce, Cookie, Authorization, Origin'
} as const

/** The Store API routes that work on the visitor's cart session: cart…, batch, checkout, orders. */
const CART_SESSION_PATH = /\/wc\/store\/v1\/(cart|batch|checkout|order)(\/|\?|$)/

export function isCartSessionRequest (request: FastifyRequest): boolean {
  return CART_SESSION_PATH.test(request.url)
}

export interface CartScopeOptions extends StoreApiNonceDeps {
  /** WooCommerce's `woocommerce_store_api_disable_nonce_check` filter: false turns the nonce check off. */
  nonceCheck: boolean
  signCartToken: (key: string) => string
}

/**
 * Hooks on the Store API scope for the cart-session routes: the nonce check on writes without a Cart-Token (after
 * the request is validated, before the handler, as WordPress checks arguments before the route runs), and on every answer, errors included, the no-store
 * headers, a fresh `Nonce` with its `Nonce-Timestamp` and `User-ID`, and the `Cart-Token` of the cart the request
 * named.
 */
export function installCartScope (scope: FastifyInstance, options: CartScopeOptions): void {
  scope.addHook('preHandler', async (request) => {
    if (options.nonceCheck && isCartSessionRequest(request)) await checkStoreApiNonce(request, options)
  })
  scope.addHook('onSend', async (request, reply, payload) => {
    if (!isCartSessionRequest(request)) return payload
    reply.headers(STORE_API_NO_STORE)
    const nonce = await responseNonce(request, options)
    if (nonce !== null) {
      reply.header('Nonce', nonce)
      reply.header('Nonce-Timestamp', String(Math.floor(Date.now() / 1000)))
    }
    reply.header('User-ID', String((await requestUser(request, options.auth))?.user.id ?? 0))
    if (!reply.hasHeader('Cart-Token')) {
      const key = requestCartKey(request) ?? tokenCartKey(request, options) ?? cookieCartKey(request)
      if (key !== null) reply.header('Cart-Token', options.signCartToken(key))
    }
    return payload
  })

  function tokenCartKey (request: FastifyRequest, deps: StoreApiNonceDeps): string | null {
    const header = request.headers['cart-token']
    if (typeof header !== 'string' || header === '') return null
    const key = deps.cartTokens.verify(header)
    return key !== null && isCartKey(key) ? key : null
  }
}
