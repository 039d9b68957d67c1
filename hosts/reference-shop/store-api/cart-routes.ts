import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  AddItemBody, AddItemResponses, CartResponses, CouponBody, CouponRemovalResponses, ItemChangeResponses, RemoveItemBody, UpdateItemBody
} from '../schemas/store-api.ts'
import { cartResponder } from './cart-responder.ts'

/** `{restRoot}wc/store/v1/cart…`: the platform's Store API cart routes. */
export const cartRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const { change, read, sendCached } = cartResponder(fastify)

  app.get('/cart', {
    schema: { tags: ['store-api'], operationId: 'getCart', summary: 'The cart', response: CartResponses }
  }, async (request, reply) => await sendCached(request, reply) ? reply : read(request, reply))

  app.post('/cart/add-item', {
    // Fifty chosen attributes of 200 characters each fit.
    bodyLimit: 32 * 1024,
    config: { idempotent: true },
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
    return change(request, reply, async (key, viewer) =>
      (await shop.carts.addItemWithKey(key, { id, quantity, variation: chosen }, viewer, { normaliseQuantity: true })).state, 201)
  })

  app.post('/cart/update-item', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'updateCartItem',
      summary: "Set a cart item's quantity",
      description: 'An unknown item key answers 409 with the cart in `data.cart`; without a quantity nothing changes.',
      body: UpdateItemBody,
      response: ItemChangeResponses
    }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.updateItem(key, request.body.key, request.body.quantity, viewer)))

  app.post('/cart/remove-item', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
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
    config: { shopRateLimit: 'coupon', idempotent: true },
    schema: { tags: ['store-api'], operationId: 'applyCartCoupon', summary: 'Apply a coupon', body: CouponBody, response: CartResponses }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.applyCoupon(key, request.body.code, viewer)))

  app.post('/cart/remove-coupon', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'removeCartCoupon',
      summary: 'Remove a coupon',
      description: 'A code no coupon has answers 400; a coupon that is not applied answers 409 with the cart in `data.cart`.',
      body: CouponBody,
      response: CouponRemovalResponses
    }
  }, async (request, reply) =>
    change(request, reply, (key, viewer) => shop.carts.removeCoupon(key, request.body.code, viewer, { refuseUnknown: true })))
}
