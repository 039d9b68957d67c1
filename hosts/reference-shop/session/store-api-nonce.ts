import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthService } from '../auth/auth-service.ts'
import type { NonceService } from '../auth/nonce.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import { isCartKey } from './cart-key.ts'
import type { CartTokenSigner } from './cart-token.ts'
import { cookieCartKey, requestCartKey, resolveCartKey, type CartSessionDeps } from './store-api-session.ts'

/** The nonce action of the Store API (WooCommerce's `wc_store_api`), distinct from the REST API's `wp_rest`. */
export const STORE_API_NONCE_ACTION = 'wc_store_api'

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export interface StoreApiNonceDeps {
  nonces: NonceService
  auth: AuthService
  cartTokens: CartTokenSigner
}

/** What a Store API nonce is bound to: a logged-in user and their login session, or a guest's cart key (user 0). */
async function nonceSubject (request: FastifyRequest, auth: AuthService, guestCartKey: string | null): Promise<{ userId: number, session: string } | null> {
  const authenticated = await requestUser(request, auth)
  if (authenticated !== null) return { userId: authenticated.user.id, session: authenticated.session.idHash }
  return guestCartKey === null ? null : { userId: 0, session: guestCartKey }
}

/** Whether the request carries a `Cart-Token` that verifies (it then needs no nonce, as in WooCommerce). */
export function hasValidCartToken (request: FastifyRequest, cartTokens: CartTokenSigner): boolean {
  const header = request.headers['cart-token']
  if (typeof header !== 'string' || header === '') return false
  const key = cartTokens.verify(header)
  return key !== null && isCartKey(key)
}

/** Whether the method changes data (POST, PUT, PATCH, DELETE). */
export function isWriteMethod (method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase())
}

function headerValue (request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * AbstractCartRoute's nonce check: a write without a valid `Cart-Token` must carry a `Nonce` header (or the legacy
 * `X-WC-Store-API-Nonce`) made for the visitor: missing → 401 `woocommerce_rest_missing_nonce`, not valid → 403
 * `woocommerce_rest_invalid_nonce`. Throws the refusal; returns when the request may go on.
 */
export async function checkStoreApiNonce (request: FastifyRequest, deps: StoreApiNonceDeps): Promise<void> {
  if (!isWriteMethod(request.method) || hasValidCartToken(request, deps.cartTokens)) return
  const nonce = headerValue(request, 'nonce') || headerValue(request, 'x-wc-store-api-nonce')
  if (!nonce) {
    throw new RestError('woocommerce_rest_missing_nonce', 'Missing the Nonce header. This endpoint requires a valid nonce.', 401)
  }
  const subject = await nonceSubject(request, deps.auth, cookieCartKey(request))
  if (subject === null || deps.nonces.verify(nonce, STORE_API_NONCE_ACTION, subject.userId, subject.session) === 0) {
    throw new RestError('woocommerce_rest_invalid_nonce', 'Nonce is invalid.', 403)
  }
}

/**
 * A fresh Store API nonce for the response to `request`: bound to the logged-in user, else to the cart the request
 * worked on (or the cart cookie's). Null when the request names no cart at all.
 */
export async function responseNonce (request: FastifyRequest, deps: StoreApiNonceDeps): Promise<string | null> {
  const subject = await nonceSubject(request, deps.auth, requestCartKey(request) ?? cookieCartKey(request))
  return subject === null ? null : deps.nonces.create(STORE_API_NONCE_ACTION, subject.userId, subject.session)
}

/**
 * The nonce a page embeds for its Store API writes (WooCommerce's `wcBlocksMiddlewareConfig.storeApiNonce`). A guest
 * without a cart cookie is given one, so that the nonce and the cookie name the same cart.
 */
export async function storeApiNonceFor (request: FastifyRequest, reply: FastifyReply, deps: StoreApiNonceDeps & CartSessionDeps): Promise<string> {
  const authenticated = await requestUser(request, deps.auth)
  if (authenticated !== null) return deps.nonces.create(STORE_API_NONCE_ACTION, authenticated.user.id, authenticated.session.idHash)
  const key = await resolveCartKey(request, reply, deps, { useToken: false })
  return deps.nonces.create(STORE_API_NONCE_ACTION, 0, key)
}
