import type { FastifyRequest } from 'fastify'
import { restError } from '../../../kernel/errors/index.ts'
import { isStorageUnavailable } from '../../../storage/contract/index.ts'
import type { Login, ResolvedCommercePort } from '../../port/index.ts'
import type { SvcRequestContext } from './context.ts'
import type { AccessGroup } from './route-rules.ts'

const PUBLIC: SvcRequestContext = { group: 'public', cartKey: null, cartRead: null, snapshot: null, user: null }

function header (request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** The login of the request; a storage failure becomes the given 503. */
async function login (request: FastifyRequest, shop: ResolvedCommercePort, unavailable: 'svc_cart_session_unavailable' | 'svc_storage_unavailable'): Promise<Login | null> {
  try {
    return await shop.login(request)
  } catch (error) {
    if (isStorageUnavailable(error)) throw restError(unavailable)
    throw error
  }
}

/**
 * The access groups of specification §5 and design §3.3. Cart session: a valid Cart-Token; a logged-in visitor must
 * also send a valid `X-WP-Nonce`, a guest must not send one; the token of a cart bound to a user is refused
 * (`svc_invalid_cart_token`) unless that user is logged in. Admin: logged in (401), a valid nonce and `manage_shop`
 * (403). Public: nothing. `drawerSnapshot`: the route sends a guest's stored drawer state when it is current;
 * `cachedView`: likewise the shop's kept view of that name; `guestWithoutRead`: a guest's cart is not read (the route's
 * change checks its owner); `sessionCart`: a request without a Cart-Token is given the cart it answers.
 */
export async function resolveAccess (
  request: FastifyRequest, shop: ResolvedCommercePort, access: AccessGroup, drawerSnapshot = false, cachedView: string | null = null, guestWithoutRead = false,
  sessionCart?: (request: FastifyRequest) => string | Promise<string>
): Promise<SvcRequestContext> {
  if (access === 'public') return PUBLIC
  const nonce = header(request, 'x-wp-nonce')

  if (access === 'admin') {
    const authenticated = await login(request, shop, 'svc_storage_unavailable')
    if (authenticated === null) throw restError('svc_not_logged_in')
    if (nonce === undefined || !shop.verifyNonce(nonce, authenticated)) throw restError('svc_invalid_nonce')
    if (!shop.canManageShop(authenticated.user)) throw restError('svc_forbidden')
    return { group: 'admin', cartKey: null, cartRead: null, snapshot: null, user: authenticated.user }
  }

  const token = header(request, 'cart-token')
  const cartKey = token === undefined ? (sessionCart === undefined ? null : await sessionCart(request)) : shop.cartKeyOfToken(token)
  if (cartKey === null) throw restError('svc_invalid_cart_token')

  const authenticated = await login(request, shop, 'svc_cart_session_unavailable')
  if (authenticated === null && nonce !== undefined) {
    throw restError('svc_invalid_nonce', 'A guest request must not send X-WP-Nonce.')
  }
  if (authenticated !== null && (nonce === undefined || !shop.verifyNonce(nonce, authenticated))) {
    throw restError('svc_invalid_nonce')
  }

  // The route's change refuses a cart bound to a user itself: a guest's request needs no read here.
  if (authenticated === null && guestWithoutRead) return { group: 'guest', cartKey, cartRead: null, snapshot: null, user: null, cartUnread: true }

  try {
    // A route that sends the drawer's state as stored reads the snapshot first (guests only: it is a guest's view);
    // while it is current, that one lean statement is the request's only storage call.
    if (authenticated === null && drawerSnapshot && shop.carts.readSnapshot !== undefined) {
      const snapshot = await shop.carts.readSnapshot(cartKey)
      if (snapshot !== null) return { group: 'guest', cartKey, cartRead: null, snapshot, user: null }
    }
    // Likewise a view the shop keeps (a guest's view: a cart bound to a user has none, so its owner needs no read).
    if (authenticated === null && cachedView !== null && shop.carts.readView !== undefined) {
      const view = await shop.carts.readView(cartKey, cachedView)
      if (view !== null) return { group: 'guest', cartKey, cartRead: null, snapshot: view, user: null }
    }
    // The cart with its products, coupons and the settings' version: the drawer's reads need no other round trip.
    const cartRead = await shop.carts.read(cartKey)
    // A token of a user's saved cart is accepted only with that user's login: not after logout, not by another user.
    const owner = shop.carts.ownerOf(cartRead)
    if (owner !== null && owner !== authenticated?.user.id) throw restError('svc_invalid_cart_token')
    return {
      group: authenticated === null ? 'guest' : 'shopper',
      cartKey,
      cartRead,
      snapshot: null,
      user: authenticated?.user ?? null
    }
  } catch (error) {
    if (isStorageUnavailable(error)) throw restError('svc_cart_session_unavailable')
    throw error
  }
}
