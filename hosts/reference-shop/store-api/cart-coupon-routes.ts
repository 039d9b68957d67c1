import { NO_BODY } from './route-support.ts'
import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { normaliseCouponCode } from '../../../kernel/domain/cart.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import type { CartState } from '../cart/cart-service.ts'
import { CouponBody } from '../schemas/store-api.ts'
import {
  CartCouponCreatedResponses, CartCouponDeletedResponses, CartCouponListResponses, CartCouponResponses, CouponCodeParams,
  EmptiedResponses
} from '../schemas/store-api-cart-routes.ts'
import { cartResponder } from './cart-responder.ts'
import { serializeCoupon } from './serialize-cart.ts'

function notInCart (): RestError {
  return new RestError('woocommerce_rest_cart_coupon_invalid_code', 'Coupon does not exist in the cart.', 404)
}

/** WooCommerce's CartCoupons and CartCouponsByCode: `cart/coupons` and `cart/coupons/{code}`. */
export const cartCouponRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const cart = cartResponder(fastify)
  const coupon = (state: CartState, code: string) => {
    const priced = state.priced.coupons.find((candidate) => candidate.coupon.code === normaliseCouponCode(code))
    return priced === undefined ? null : serializeCoupon(priced, shop.serializeContext.currency)
  }
  const token = (reply: { header: (name: string, value: string) => unknown }, state: CartState) => {
    reply.header('Cart-Token', shop.cartTokens.sign(state.key))
    reply.header('Cart-Hash', state.hash)
  }

  app.get('/cart/coupons', {
    schema: { tags: ['store-api'], operationId: 'listCartCoupons', summary: 'The applied coupons', response: CartCouponListResponses }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await shop.carts.get(key, viewer)
    token(reply, state)
    return state.priced.coupons.map((priced) => serializeCoupon(priced, shop.serializeContext.currency))
  })

  app.post('/cart/coupons', {
    bodyLimit: 16 * 1024,
    config: { shopRateLimit: 'coupon', idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'createCartCoupon',
      summary: 'Apply a coupon',
      description: 'Answers **201** with the applied coupon; a refusal is a 400 `woocommerce_rest_cart_coupon_error`.',
      body: CouponBody,
      response: CartCouponCreatedResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await cart.run(key, viewer, (cartKey, who) => shop.carts.applyCoupon(cartKey, request.body.code, who))
    const applied = coupon(state, request.body.code)
    if (applied === null) throw notInCart()
    token(reply, state)
    return reply.code(201).send(applied)
  })

  app.delete('/cart/coupons', {
    bodyLimit: NO_BODY,
    config: { idempotent: true },
    schema: { tags: ['store-api'], operationId: 'deleteCartCoupons', summary: 'Remove every coupon', response: EmptiedResponses }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    token(reply, await cart.run(key, viewer, (cartKey, who) => shop.carts.removeAllCoupons(cartKey, who)))
    return reply.code(200).send([])
  })

  app.get('/cart/coupons/:code', {
    schema: {
      tags: ['store-api'],
      operationId: 'getCartCoupon',
      summary: 'An applied coupon',
      description: 'A coupon that is not applied answers 404 `woocommerce_rest_cart_coupon_invalid_code`.',
      params: CouponCodeParams,
      response: CartCouponResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const state = await shop.carts.get(key, viewer)
    const found = coupon(state, request.params.code)
    if (found === null) throw notInCart()
    token(reply, state)
    return found
  })

  app.delete('/cart/coupons/:code', {
    bodyLimit: NO_BODY,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'deleteCartCoupon',
      summary: 'Remove an applied coupon',
      description: 'Answers **204**; a coupon that is not applied answers 404 `woocommerce_rest_cart_coupon_invalid_code`.',
      params: CouponCodeParams,
      response: CartCouponDeletedResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await cart.session(request, reply)
    const current = await shop.carts.get(key, viewer)
    const code = normaliseCouponCode(request.params.code)
    if (!(current.stored?.data.coupons ?? []).includes(code)) throw notInCart()
    let state: CartState
    try {
      state = await cart.run(key, viewer, (cartKey, who) => shop.carts.removeCoupon(cartKey, code, who, { refuseUnknown: true }))
    } catch (error) {
      // Applied a moment ago but gone now (another request removed it, or the coupon itself): not in the cart.
      if (error instanceof RestError && (error.status === 409 || error.status === 400)) throw notInCart()
      throw error
    }
    token(reply, state)
    return reply.code(204).send(null)
  })
}
