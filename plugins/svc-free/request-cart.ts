import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { DrawerCartState } from '../../domain/drawer-state.ts'
import type { DomainError } from '../../domain/types.ts'
import { RestError, restError } from '../../errors/index.ts'
import { can, MANAGE_SHOP } from '../shop/auth/auth-service.ts'
import { CartActionError } from '../shop/cart/cart-action-error.ts'
import type { CartState, Viewer } from '../shop/cart/cart-service.ts'

/** The cart key the security plugin resolved from the Cart-Token (cart-session routes only). */
export function cartKeyOf (request: FastifyRequest): string {
  const key = request.svc?.cartKey
  if (!key) throw new Error('cart-session route without a resolved cart (is the route in the route table?)')
  return key
}

export function viewerOf (request: FastifyRequest): Viewer {
  const user = request.svc?.user ?? null
  return { canReadPrivate: user !== null && can(user, MANAGE_SHOP), userId: user?.id ?? null, capabilities: user?.capabilities ?? [] }
}

const priced = new WeakMap<FastifyRequest, Promise<CartState>>()

/** The request's cart, priced once per request from the read the security plugin made (no storage call of its own). */
export function cartStateOf (fastify: FastifyInstance, request: FastifyRequest): Promise<CartState> {
  let state = priced.get(request)
  if (state === undefined) {
    const read = request.svc?.cartRead ?? null
    // A request answered by the stored snapshot read nothing else: the cart is read now.
    state = read === null
      ? fastify.shop.carts.get(cartKeyOf(request), viewerOf(request))
      : Promise.resolve(fastify.shop.carts.priceRead(cartKeyOf(request), read, viewerOf(request)))
    priced.set(request, state)
  }
  return state
}

/** Coupon refusals in the service's own codes (design §3.7). */
function couponError (error: DomainError): RestError {
  const reason = error.data?.reason
  if (reason === 'already_applied') return restError('svc_coupon_already_applied', error.message, { reason })
  if (reason === 'not_applied') return restError('svc_coupon_not_applied', error.message, { reason })
  return restError('svc_coupon_invalid', error.message, { reason })
}

/**
 * Runs a cart change and answers the drawer's cart state; a refusal becomes the service's error, with the cart as
 * it stands for a conflict (409), so the drawer can redraw without another request.
 */
export async function changeCart (fastify: FastifyInstance, request: FastifyRequest, change: () => Promise<CartState>): Promise<DrawerCartState> {
  try {
    return await fastify.drawerCart.state(await change())
  } catch (error) {
    if (!(error instanceof CartActionError)) throw error
    const domain = error.domainError
    if (domain.code === 'woocommerce_rest_cart_coupon_error') throw couponError(domain)
    if (domain.status === 409) {
      const cart = await fastify.drawerCart.state(await fastify.shop.carts.get(cartKeyOf(request), viewerOf(request)))
      const code = domain.code === 'svc_cart_item_locked' ? 'svc_cart_item_locked' : 'svc_cart_invalid_key'
      throw restError(code, undefined, { keys: domain.data?.keys ?? [], cart })
    }
    throw new RestError(domain.code, domain.message, domain.status, domain.data)
  }
}
