import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import { answersWithCart, RestError, storeApiError } from '../../../kernel/errors/index.ts'
import type { CartState, Viewer } from '../cart/cart-service.ts'
import { guestTokenKey, requestViewer, resolveCartKey, useGuestCartKey } from '../session/store-api-session.ts'
import { serializeCart } from './serialize-cart.ts'

/** The name of the Store API cart's view in the storage's view cache (`CartService.readView`). */
const STORE_API_VIEW = 'store-api'

export type CartAction = (key: string, viewer: Viewer) => Promise<CartState>

/** How the Store API cart routes read, change and answer the visitor's cart. */
export interface CartResponder {
  /** The request's cart key and viewer (the key names the cart of the `Cart-Token`, the cookie, or a new one). */
  session (request: FastifyRequest, reply: FastifyReply): Promise<{ key: string, viewer: Viewer }>
  /**
   * Answers a guest's `GET cart` from the cart's cached view, when the storage keeps views and has a current one:
   * no database round trip. False when the request must be served the long way (`read`). (A boolean, not the reply:
   * a reply is thenable, and awaiting it gives nothing.)
   */
  sendCached (request: FastifyRequest, reply: FastifyReply): Promise<boolean>
  /** Reads, prices and sends the request's cart, keeping its view for the next guest read where it may. */
  read (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>
  /** Sends the cart with its `Cart-Token` and `Cart-Hash`. */
  send (reply: FastifyReply, state: CartState, status?: number): Promise<FastifyReply>
  /** The Store API cart body of a state. */
  body (state: CartState): Promise<unknown>
  /**
   * Runs a cart change and answers the new state (or `answer`'s result); a refusal becomes the Store API's error,
   * and every 409 carries the cart as it stands (`data.cart`), as WooCommerce's AbstractCartRoute adds it.
   */
  change (request: FastifyRequest, reply: FastifyReply, action: CartAction, status?: number): Promise<FastifyReply>
  /** Runs a cart change and returns its state, throwing the Store API's error for a refusal. */
  run (key: string, viewer: Viewer, action: CartAction): Promise<CartState>
  /** A 409 error with the cart as it stands. */
  conflict (key: string, viewer: Viewer, code: string, message: string): Promise<RestError>
}

export function cartResponder (fastify: FastifyInstance): CartResponder {
  const { shop } = fastify
  const body = (state: CartState) => serializeCart(state, shop.serializeContext, shop.extendSchema, shop.carts.config)

  async function conflict (key: string, viewer: Viewer, code: string, message: string): Promise<RestError> {
    return new RestError(code, message, 409, { cart: await body(await shop.carts.get(key, viewer)) })
  }

  async function run (key: string, viewer: Viewer, action: CartAction): Promise<CartState> {
    try {
      return await action(key, viewer)
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      const refusal = storeApiError(error.domainError)
      if (!answersWithCart(error.domainError.reason) && refusal.status !== 409) throw refusal
      throw storeApiError(error.domainError, { cart: await body(await shop.carts.get(key, viewer)) })
    }
  }

  async function send (reply: FastifyReply, state: CartState, status = 200) {
    reply.header('Cart-Token', shop.cartTokens.sign(state.key))
    reply.header('Cart-Hash', state.hash)
    return reply.code(status).send(await body(state))
  }

  async function session (request: FastifyRequest, reply: FastifyReply) {
    const key = await resolveCartKey(request, reply, shop)
    return { key, viewer: await requestViewer(request, shop.auth) }
  }

  async function sendCached (request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const key = guestTokenKey(request, shop.cartTokens)
    if (key === null) return false
    const view = await shop.carts.readView(key, STORE_API_VIEW)
    if (view === null) return false
    useGuestCartKey(request, key)
    const cut = view.indexOf('\n')
    reply.header('Cart-Token', shop.cartTokens.sign(key))
    reply.header('Cart-Hash', view.slice(0, cut))
    reply.type('application/json; charset=utf-8').send(view.slice(cut + 1))
    return true
  }

  async function read (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { key, viewer } = await session(request, reply)
    const cartRead = await shop.carts.read(key)
    const state = shop.carts.priceRead(key, cartRead, viewer)
    const payload = await body(state)
    // Another namespace's extension is code no version tells: only the drawer's own may be kept.
    if (shop.extendSchema.size <= 1) {
      const json = reply.serialize(payload)
      await shop.carts.storeView(STORE_API_VIEW, state, cartRead, viewer, `${state.hash}\n${json}`)
      reply.header('Cart-Token', shop.cartTokens.sign(state.key))
      reply.header('Cart-Hash', state.hash)
      return reply.type('application/json; charset=utf-8').send(json)
    }
    return send(reply, state)
  }

  return {
    session,
    sendCached,
    read,
    send,
    body,
    run,
    conflict,
    async change (request, reply, action, status = 200) {
      const { key, viewer } = await session(request, reply)
      return send(reply, await run(key, viewer, action), status)
    }
  }
}
