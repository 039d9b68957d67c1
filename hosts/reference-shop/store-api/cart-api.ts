import type { FastifyPluginAsync } from 'fastify'
import { batchRoute } from './batch-route.ts'
import { cartCouponRoutes } from './cart-coupon-routes.ts'
import { cartItemRoutes } from './cart-item-routes.ts'
import { customerRoutes } from './customer-routes.ts'

/** The Store API cart routes beyond `cart` and its RPC-style routes (cart-routes.ts): WooCommerce's REST-style ones and batch. */
export const storeApiCartRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(cartItemRoutes)
  await fastify.register(cartCouponRoutes)
  await fastify.register(customerRoutes)
  await fastify.register(batchRoute)
}
