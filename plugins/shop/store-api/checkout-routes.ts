import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { findPaymentMethod } from '../../../domain/checkout.ts'
import { RestError } from '../../../errors/index.ts'
import { CheckoutBody, CheckoutResponses, CheckoutUpdateBody, type StoreApiCheckoutBody } from '../../../schemas/store-api-checkout.ts'
import { cartCustomer } from '../checkout/checkout-service.ts'
import { serializePlacedOrder } from '../checkout/serialize-order.ts'
import { requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { fromWireAddress, fromWireBilling, toWireAddress, toWireBilling } from './address-wire.ts'
import type { CartCustomer } from '../../../domain/types.ts'

/** `{restRoot}wc/store/v1/checkout`: the cart's checkout (GET: as it stands, PUT: update it, POST: place the order). */
export const checkoutRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  async function session (request: FastifyRequest, reply: FastifyReply) {
    const key = await resolveCartKey(request, reply, shop)
    const viewer = await requestViewer(request, shop.auth)
    reply.header('Cart-Token', shop.cartTokens.sign(key))
    return { key, viewer }
  }

  /** The checkout before an order is placed: the cart's addresses, no order yet. */
  function draft (customer: CartCustomer, customerId: number | null, note = '', paymentMethod = ''): StoreApiCheckoutBody {
    return {
      order_id: 0,
      status: 'checkout-draft',
      order_key: '',
      order_number: '',
      customer_note: note,
      customer_id: customerId ?? 0,
      billing_address: toWireBilling(customer.billing),
      shipping_address: toWireAddress(customer.shipping),
      payment_method: paymentMethod,
      payment_result: null,
      additional_fields: {},
      extensions: {}
    }
  }

  app.get('/checkout', {
    schema: {
      tags: ['store-api'],
      operationId: 'getCheckout',
      summary: 'The checkout as it stands',
      description: 'The cart\'s billing and shipping addresses; no order exists until `POST checkout` (`order_id` 0, status `checkout-draft`).',
      response: CheckoutResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await session(request, reply)
    const cart = await shop.storage.getCart(key)
    return draft(cartCustomer(cart?.data ?? { lines: [], coupons: [] }), viewer.userId ?? null)
  })

  app.put('/checkout', {
    bodyLimit: 64 * 1024,
    schema: {
      tags: ['store-api'],
      operationId: 'updateCheckout',
      summary: 'Update the checkout',
      description: 'Stores the given address fields on the cart (the others keep their value). A payment method is checked, not stored.',
      body: CheckoutUpdateBody,
      response: CheckoutResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await session(request, reply)
    const { billing_address: billing, shipping_address: shipping, order_notes: notes = '', payment_method: method = '' } = request.body
    const note = request.body.customer_note ?? notes
    if (method !== '' && findPaymentMethod(method) === undefined) {
      throw new RestError('woocommerce_rest_checkout_payment_method_disabled', `The payment method "${method}" is not available.`, 400)
    }
    const customer = await shop.checkout.updateCustomer(key, (current) => ({
      billing: billing ? fromWireBilling(billing, current.billing) : current.billing,
      shipping: shipping ? fromWireAddress(shipping, current.shipping) : current.shipping
    }))
    return draft(customer, viewer.userId ?? null, note, method)
  })

  app.post('/checkout', {
    bodyLimit: 64 * 1024,
    config: { shopRateLimit: 'checkout' },
    schema: {
      tags: ['store-api'],
      operationId: 'placeOrder',
      summary: 'Place the order',
      description: 'Turns the cart into an order in one transaction: the addresses are checked, the stock taken, the coupons counted ' +
        'and the cart emptied, or nothing changes. Answers the order with `payment_result.redirect_url`, the order-received page.',
      body: CheckoutBody,
      response: CheckoutResponses
    }
  }, async (request, reply) => {
    const { key, viewer } = await session(request, reply)
    const { billing_address: billing, shipping_address: shipping, customer_note: note = '', payment_method: method } = request.body
    const order = await shop.checkout.placeOrder(key, viewer, {
      billing: (current) => fromWireBilling(billing, current),
      ...(shipping ? { shipping: (current) => fromWireAddress(shipping, current) } : {}),
      customerNote: note,
      paymentMethod: method
    })
    return serializePlacedOrder(order, shop.homeUrl)
  })
}
