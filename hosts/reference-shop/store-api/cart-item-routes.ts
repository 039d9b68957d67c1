import { NO_BODY } from './route-support.ts'
import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { RestError } from '../../../kernel/errors/index.ts'
import type { CartState } from '../cart/cart-service.ts'
import { AddItemBody } from '../schemas/store-api.ts'
import {
  CartItemCreatedResponses, CartItemDeletedResponses, CartItemListResponses, CartItemResponses, EmptiedResponses,
  ItemKeyParams, UpdateItemByKeyBody
} from '../schemas/store-api-cart-routes.ts'
import { cartResponder } from './cart-responder.ts'
import { serializeCartItem } from './serialize-cart.ts'

const INVALID_KEY = 'woocommerce_rest_cart_invalid_key'
const INVALID_KEY_MESSAGE = 'Cart item does not exist.'

/** WooCommerce's CartItems and CartItemsByKey: `cart/items` and `cart/items/{key}`. */
export const cartItemRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const cart = cartResponder(fastify)
  const item = (state: CartState, key: string) => {
    const line = state.priced.lines.find((priced) => priced.line.key === key)
    return line === undefined ? null : serializeCartItem(line, state, shop.serializeContext, shop.extendSchema)
  }
  const token = (reply: { header: (name: string, value: string) => unknown }, state: CartState) => {
    reply.header('Cart-Token', shop.cartTokens.sign(state.key))
    reply.header('Cart-Hash', state.hash)
  }

  app.get('/cart/items', {
    schema: { tags: ['store-api'], operationId: 'listCartItems', summary: 'The cart items', response: CartItemListResponses }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await shop.carts.get(key, viewer)
    token(reply, state)
    return Promise.all(state.priced.lines.map((line) => serializeCartItem(line, state, shop.serializeContext, shop.extendSchema)))
  })

  app.post('/cart/items', {
    // Fifty chosen attributes of 200 characters each fit.
    bodyLimit: 32 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'createCartItem',
      summary: 'Add a product or variation to the cart',
      description: 'Answers **201** with the cart item. A body naming a `key` answers 400 `woocommerce_rest_cart_item_exists`.',
      body: AddItemBody,
      response: CartItemCreatedResponses
    }
  }, async (request, reply) => {
    if ((request.body as Record<string, unknown>).key !== undefined) {
      throw new RestError('woocommerce_rest_cart_item_exists', 'Cannot create an existing cart item.', 400)
    }
    const { id, quantity, variation = [] } = request.body
    const chosen = Object.fromEntries(variation.map(({ attribute, value }) => [attribute, value]))
    const { key, viewer } = await cart.session(request, reply)
    let itemKey = ''
    const state = await cart.run(key, viewer, async (cartKey, who) => {
      const added = await shop.carts.addItemWithKey(cartKey, { id, quantity, variation: chosen }, who, { normaliseQuantity: true })
      itemKey = added.itemKey
      return added.state
    })
    const added = await item(state, itemKey)
    if (added === null) throw await cart.conflict(key, viewer, INVALID_KEY, INVALID_KEY_MESSAGE)
    token(reply, state)
    return reply.code(201).send(added)
  })

  app.delete('/cart/items', {
    bodyLimit: NO_BODY,
    config: { idempotent: true },
    schema: { tags: ['store-api'], operationId: 'deleteCartItems', summary: 'Empty the cart (its items and coupons)', response: EmptiedResponses }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    token(reply, await cart.run(key, viewer, (cartKey, who) => shop.carts.emptyCart(cartKey, who)))
    return reply.code(200).send([])
  })

  app.get('/cart/items/:key', {
    schema: {
      tags: ['store-api'],
      operationId: 'getCartItem',
      summary: 'A cart item',
      description: 'An unknown key answers 409 `woocommerce_rest_cart_invalid_key` with the cart in `data.cart`.',
      params: ItemKeyParams,
      response: CartItemResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await shop.carts.get(key, viewer)
    const found = await item(state, request.params.key)
    if (found === null) throw await cart.conflict(key, viewer, INVALID_KEY, INVALID_KEY_MESSAGE)
    token(reply, state)
    return found
  })

  app.put('/cart/items/:key', {
    bodyLimit: 16 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'updateCartItemByKey',
      summary: "Set a cart item's quantity",
      description: 'Answers the cart item; without a quantity nothing changes. An unknown key answers 409 with the cart.',
      params: ItemKeyParams,
      body: UpdateItemByKeyBody,
      response: CartItemResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await cart.run(key, viewer, (cartKey, who) => shop.carts.updateItem(cartKey, request.params.key, request.body.quantity, who))
    const found = await item(state, request.params.key)
    if (found === null) throw await cart.conflict(key, viewer, INVALID_KEY, INVALID_KEY_MESSAGE)
    token(reply, state)
    return found
  })

  app.delete('/cart/items/:key', {
    bodyLimit: NO_BODY,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'deleteCartItem',
      summary: 'Remove a cart item',
      description: 'Answers **204**. An unknown key answers 409 with the cart.',
      params: ItemKeyParams,
      response: CartItemDeletedResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await cart.run(key, viewer, (cartKey, who) => shop.carts.removeItem(cartKey, request.params.key, who))
    token(reply, state)
    return reply.code(204).send(null)
  })
}
