import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { answersWithCart, storeApiError } from '../../../errors/index.ts'
import {
  AddItemBody, AddItemResponses, CartResponses, CouponBody, ItemChangeResponses, RemoveItemBody, UpdateItemBody
} from '../../../schemas/store-api.ts'
import { CartActionError } from '../../../domain/cart-action-error.ts'
import type { CartState, Viewer } from '../cart/cart-service.ts'
import { requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { serializeCart } from './serialize-cart.ts'

type CartAction = (key: string, viewer: Viewer) => Promise<CartState>

/** `{restRoot}wc/store/v1/cart…`: the platform's Store API cart routes. */
export const cartRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  async function send (reply: FastifyReply, state: CartState, status = 200) {
    const body = await serializeCart(state, shop.serializeContext, shop.extendSchema)
    reply.header('Cart-Token', shop.cartTokens.sign(state.key))
    reply.header('Cart-Hash', state.hash)
    return reply.code(status).send(body)
  }

  /** Runs a cart change; a refusal becomes the platform's error, with the whole cart for an unknown item key. */
  async function change (request: FastifyRequest, reply: FastifyReply, action: CartAction, status = 200) {
    const key = await resolveCartKey(request, reply, shop)
    const viewer = await requestViewer(request, shop.auth)
    let state: CartState
    try {
      state = await action(key, viewer)
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      const refusal = error.domainError
      if (!answersWithCart(refusal.reason)) throw storeApiError(refusal)
      throw storeApiError(refusal, { cart: await serializeCart(await shop.carts.get(key, viewer), shop.serializeContext, shop.extendSchema) })
    }
    return send(reply, state, status)
  }

  app.get('/cart', {
    schema: { tags: ['store-api'], operationId: 'getCart', summary: 'The cart', response: CartResponses }
  }, async (request, reply) => {
    const key = await resolveCartKey(request, reply, shop)
    return send(reply, await shop.carts.get(key, await requestViewer(request, shop.auth)))
  })

  app.post('/cart/add-item', {
    // Fifty chosen attributes of 200 characters each fit.
    bodyLimit: 32 * 1024,
    schema: {
      tags: ['store-api'],
      operationId: 'addCartItem',
      summary: 'Add a product or variation to the cart',
      description: 'Answers **201** with the cart.',
      body: AddItemBody,
      response: AddItemResponses
    }
  }, async (request, reply) => {
    const { id, quantity, variation = [] } = request.body
    const chosen = Object.fromEntries(variation.map(({ attribute, value }) => [attribute, value]))
    return change(request, reply, (key, viewer) => shop.carts.addItem(key, { id, quantity, variation: chosen }, viewer), 201)
  })

  app.post('/cart/update-item', {
    bodyLimit: 16 * 1024,
    schema: {
      tags: ['store-api'],
      operationId: 'updateCartItem',
      summary: "Set a cart item's quantity",
      description: 'An unknown item key answers 409 with the cart in `data.cart`.',
      body: UpdateItemBody,
      response: ItemChangeResponses
    }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.updateItem(key, request.body.key, request.body.quantity, viewer)))

  app.post('/cart/remove-item', {
    bodyLimit: 16 * 1024,
    schema: {
      tags: ['store-api'],
      operationId: 'removeCartItem',
      summary: 'Remove a cart item',
      description: 'An unknown item key answers 409 with the cart in `data.cart`.',
      body: RemoveItemBody,
      response: ItemChangeResponses
    }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.removeItem(key, request.body.key, viewer)))

  app.post('/cart/apply-coupon', {
    bodyLimit: 16 * 1024,
    config: { shopRateLimit: 'coupon' },
    schema: { tags: ['store-api'], operationId: 'applyCartCoupon', summary: 'Apply a coupon', body: CouponBody, response: CartResponses }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.applyCoupon(key, request.body.code, viewer)))

  app.post('/cart/remove-coupon', {
    bodyLimit: 16 * 1024,
    schema: { tags: ['store-api'], operationId: 'removeCartCoupon', summary: 'Remove a coupon', body: CouponBody, response: CartResponses }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.removeCoupon(key, request.body.code, viewer)))
}
