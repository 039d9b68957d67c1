import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { DrawerCartState } from '../../domain/drawer-state.ts'
import { answersWithCart, svcError } from '../../../kernel/errors/index.ts'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import type { CartState, Viewer } from '../../port/index.ts'
import { sendJson } from './send-json.ts'

/** The cart key the security plugin resolved from the Cart-Token (cart-session routes only). */
export function cartKeyOf (request: FastifyRequest): string {
  const key = request.svc?.cartKey
  if (!key) throw new Error('cart-session route without a resolved cart (is the route in the route table?)')
  return key
}

export function viewerOf (request: FastifyRequest): Viewer {
  const user = request.svc?.user ?? null
  return { canReadPrivate: user !== null && request.server.commerce.canManageShop(user), userId: user?.id ?? null, capabilities: user?.capabilities ?? [] }
}

const priced = new WeakMap<FastifyRequest, Promise<CartState>>()

/** The request's cart, priced once per request from the read the security plugin made (no storage call of its own). */
export function cartStateOf (fastify: FastifyInstance, request: FastifyRequest): Promise<CartState> {
  let state = priced.get(request)
  if (state === undefined) {
    const read = request.svc?.cartRead ?? null
    // A request answered by the stored snapshot read nothing else: the cart is read now.
    state = read === null
      ? fastify.commerce.carts.get(cartKeyOf(request), viewerOf(request))
      : Promise.resolve(fastify.commerce.carts.priceRead(cartKeyOf(request), read, viewerOf(request)))
    priced.set(request, state)
  }
  return state
}

/**
 * Runs a cart change and answers the drawer's cart state; a refusal becomes the service's error (`svcError`: coupon
 * refusals and conflicts in the service's own codes, design §3.7), with the cart as it stands for a conflict, so the
 * drawer can redraw without another request.
 */
export async function changeCart (
  fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply, change: () => Promise<CartState>
): Promise<DrawerCartState | FastifyReply> {
  try {
    const state = await change()
    // The drawer's state as the write already rendered it (its snapshot): sent as it is, not rendered again.
    if (state.snapshot !== undefined) return sendJson(reply, state.snapshot)
    return await fastify.drawerCart.state(state)
  } catch (error) {
    if (!(error instanceof CartActionError)) throw error
    const refusal = error.domainError
    if (!answersWithCart(refusal.reason)) throw svcError(refusal)
    throw svcError(refusal, { cart: await fastify.drawerCart.state(await fastify.commerce.carts.get(cartKeyOf(request), viewerOf(request))) })
  }
}
