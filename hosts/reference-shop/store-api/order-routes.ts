import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { RestError } from '../../../kernel/errors/index.ts'
import { OrderParams, OrderQuery, OrderResponses } from '../schemas/store-api-checkout.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { serializeOrder } from '../checkout/serialize-order.ts'
import { OPTIONAL_SESSION_SECURITY } from '../../../drawer/index.ts'
import { timingSafeEqual } from 'node:crypto'

function sameSecret (given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * `{restRoot}wc/store/v1/order/{id}`: a placed order. A customer's order is read by that customer alone; a guest's
 * order by whoever gives its key and billing e-mail (a logged-in shopper too), as WooCommerce's Store API decides.
 */
export const orderRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  app.get('/order/:id', {
    schema: {
      tags: ['store-api'],
      operationId: 'getOrder',
      summary: 'A placed order',
      description: 'A guest\'s order needs `key` and `billing_email` (401 otherwise); a customer\'s order is answered to that customer only (403).',
      params: OrderParams,
      querystring: OrderQuery,
      security: OPTIONAL_SESSION_SECURITY,
      response: OrderResponses
    }
  }, async (request) => {
    const order = await shop.storage.getOrder(request.params.id)
    if (order === null) throw new RestError('woocommerce_rest_invalid_order', 'Invalid order ID.', 404)
    const user = (await requestUser(request, shop.auth))?.user ?? null
    if (order.customerId !== null) {
      if (user?.id !== order.customerId) throw new RestError('woocommerce_rest_invalid_user', 'This order belongs to a different customer.', 403)
    } else {
      const { key = '', billing_email: email = '' } = request.query
      if (!sameSecret(key, order.key)) throw new RestError('woocommerce_rest_invalid_order', 'Invalid order ID or key provided.', 401)
      if (email.trim().toLowerCase() !== order.billing.email.toLowerCase()) {
        throw new RestError('woocommerce_rest_invalid_billing_email', 'Invalid billing email provided.', 401)
      }
    }
    const parents = await shop.storage.getProducts(order.lines.map((line) => line.productId))
    return serializeOrder(order, shop.serializeContext.currency, parents)
  })
}
