import type { FastifyRequest } from 'fastify'
import { cartIdentity, userIdentity } from '../../../drawer/index.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { isCartKey } from '../session/cart-key.ts'
import type { CartTokenSigner } from '../session/cart-token.ts'
import { cookieCartKey } from '../session/store-api-session.ts'

/**
 * Who a Store API write acts for, which scopes its `Idempotency-Key`: the cart its valid Cart-Token names, else the
 * cart cookie's, with the logged-in user (a guest is user 0); else the logged-in user alone. Null for a write that
 * names no cart and no user, or an invalid token: it starts a new cart, so its repeat could change no cart twice.
 * The cart a request names before its handler runs is the one the handler works on (`resolveCartKey`), or a new one
 * when that cart is another user's; the user in the identity keeps such a request's answer from that user.
 */
export function storeApiIdentity (deps: { cartTokens: CartTokenSigner, auth: AuthService }) {
  return async (request: FastifyRequest): Promise<string | null> => {
    const userId = (await requestUser(request, deps.auth))?.user.id ?? null
    const header = request.headers['cart-token']
    if (typeof header === 'string' && header !== '') {
      const key = deps.cartTokens.verify(header)
      return key !== null && isCartKey(key) ? cartIdentity(key, userId) : null
    }
    const fromCookie = cookieCartKey(request)
    if (fromCookie !== null) return cartIdentity(fromCookie, userId)
    return userId === null ? null : userIdentity(userId)
  }
}
