import type { FastifyReply, FastifyRequest } from 'fastify'
import { can, MANAGE_SHOP, type AuthService } from '../auth/auth-service.ts'
import { requestUser, SESSION_COOKIE } from '../auth/session-cookie.ts'
import type { Viewer } from '../cart/cart-service.ts'
import type { CartStore } from '../../../storage/contract/index.ts'
import type { CartTokenSigner } from './cart-token.ts'
import { isCartKey, newCartKey } from './cart-key.ts'
import { clearCookie, readSignedCookie, setSignedCookie } from './cookies.ts'

export const CART_COOKIE = 'svc_cart'
const resolvedKeys = new WeakMap<FastifyRequest, string>()

/** Requests whose cart key `resolveCartKey` made for them: nothing is stored under it, and no one else knows it. */
const newKeys = new WeakSet<FastifyRequest>()

/** The cart key `resolveCartKey` gave the request, if it was called. */
export function requestCartKey (request: FastifyRequest): string | null {
  return resolvedKeys.get(request) ?? null
}

/** Whether the request's cart key (`resolveCartKey`) was made for it: a cart that starts with this request. */
export function isNewCartKey (request: FastifyRequest): boolean {
  return newKeys.has(request)
}

function madeKey (request: FastifyRequest): string {
  newKeys.add(request)
  return newCartKey()
}
const COOKIE_MAX_AGE_SECONDS = 48 * 3600

export interface CartSessionDeps {
  cartTokens: CartTokenSigner
  auth: AuthService
  storage: Pick<CartStore, 'getCart' | 'findUserCart'>
}

/** The cart key of the signed classic-session cookie, if any. */
export function cookieCartKey (request: FastifyRequest): string | null {
  const key = readSignedCookie(request, CART_COOKIE)
  return key !== null && isCartKey(key) ? key : null
}

/**
 * Whether the request may work on the cart `key` names: a guest's cart (or one not stored yet) for whoever holds its
 * key, a cart bound to a user only together with that user's login session. A Cart-Token or cart cookie of a user's
 * cart is worth nothing after logout, and nothing in another user's hands.
 */
export async function mayUseCart (request: FastifyRequest, deps: CartSessionDeps, key: string): Promise<boolean> {
  const cart = await deps.storage.getCart(key)
  if (cart === null || cart.userId === null) return true
  return (await requestUser(request, deps.auth))?.user.id === cart.userId
}

/**
 * Which cart a platform request works on. A `Cart-Token` header wins (an invalid one starts a new cart, as in
 * WooCommerce); without one, the signed cart cookie of the browser's classic session names the cart; then a
 * logged-in user's own cart; with none of these a new cart starts and the cookie is set, so the page's classic
 * session and the drawer's token name one and the same cart. A token or cookie naming a user's cart is accepted only
 * with that user's session (`mayUseCart`): otherwise the token counts as invalid and the cookie as absent.
 */
export async function resolveCartKey (request: FastifyRequest, reply: FastifyReply, deps: CartSessionDeps, options: { useToken?: boolean } = {}): Promise<string> {
  const key = await findCartKey(request, reply, deps, options)
  resolvedKeys.set(request, key)
  return key
}

async function findCartKey (request: FastifyRequest, reply: FastifyReply, deps: CartSessionDeps, { useToken = true } = {}): Promise<string> {
  const header = request.headers['cart-token']
  if (useToken && typeof header === 'string' && header !== '') {
    const key = deps.cartTokens.verify(header)
    return key !== null && isCartKey(key) && await mayUseCart(request, deps, key) ? key : madeKey(request)
  }
  const fromCookie = cookieCartKey(request)
  if (fromCookie !== null && await mayUseCart(request, deps, fromCookie)) return fromCookie
  const authenticated = await requestUser(request, deps.auth)
  const own = authenticated ? await deps.storage.findUserCart(authenticated.user.id) : null
  const key = own?.key ?? madeKey(request)
  setCartCookie(request, reply, key)
  return key
}

/**
 * The cart key of the request's `Cart-Token` when it carries no login session: a guest's request that may be answered
 * from a cached view of that cart (a cart bound to a user has none, so the owner check holds without a read). Null
 * otherwise. The key becomes the request's (`requestCartKey`) only through `useGuestCartKey`, once a view answered.
 */
export function guestTokenKey (request: FastifyRequest, cartTokens: CartTokenSigner): string | null {
  const header = request.headers['cart-token']
  if (typeof header !== 'string' || header === '' || readSignedCookie(request, SESSION_COOKIE) !== null) return null
  const key = cartTokens.verify(header)
  return key !== null && isCartKey(key) ? key : null
}

/** Records the key `guestTokenKey` gave as the request's cart (the response's nonce and token name it). */
export function useGuestCartKey (request: FastifyRequest, key: string): void {
  resolvedKeys.set(request, key)
}

export async function requestViewer (request: FastifyRequest, auth: AuthService): Promise<Viewer> {
  const authenticated = await requestUser(request, auth)
  if (authenticated === null) return { canReadPrivate: false, userId: null, capabilities: [] }
  const { user } = authenticated
  return { canReadPrivate: can(user, MANAGE_SHOP), userId: user.id, capabilities: user.capabilities }
}

export function setCartCookie (request: FastifyRequest, reply: FastifyReply, key: string): void {
  setSignedCookie(request, reply, CART_COOKIE, key, COOKIE_MAX_AGE_SECONDS)
}

export function clearCartCookie (reply: FastifyReply): void {
  clearCookie(reply, CART_COOKIE)
}
