import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { EMPTY_ADDRESS, EMPTY_BILLING, findPaymentMethod } from '../../../kernel/domain/checkout.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import { CheckoutBody, CheckoutResponses, CheckoutUpdateBody, type StoreApiCheckoutBody } from '../schemas/store-api-checkout.ts'
import { cartCustomer } from '../checkout/checkout-service.ts'
import { serializePlacedOrder } from '../checkout/serialize-order.ts'
import { cartResponder } from './cart-responder.ts'
import { fromWireAddress, fromWireBilling, toWireAddress, toWireBilling } from './address-wire.ts'
import type { CartCustomer, CartData } from '../../../kernel/domain/types.ts'

const EMPTY_CART: CartData = { lines: [], coupons: [] }
const EMPTY_CUSTOMER: CartCustomer = { billing: EMPTY_BILLING, shipping: EMPTY_ADDRESS }

/** `{restRoot}wc/store/v1/checkout`: the cart's checkout (GET: as it stands, PUT: update it, POST: place the order). */
export const checkoutRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  const cart = cartResponder(fastify)

  /** The request's cart and viewer; the answer names the cart (its `Cart-Token`). */
  async function session (request: FastifyRequest, reply: FastifyReply) {
    const found = await cart.session(request, reply)
    reply.header('Cart-Token', shop.cartTokens.sign(found.key))
    return found
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
    const stored = await shop.storage.getCart(key)
    return draft(cartCustomer(stored?.data ?? EMPTY_CART), viewer.userId ?? null)
  })

  app.put('/checkout', {
    bodyLimit: 64 * 1024,
    config: { idempotent: true },
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
    const state = await shop.carts.updateCustomer(key, (current = EMPTY_CUSTOMER) => ({
      billing: billing ? fromWireBilling(billing, current.billing) : current.billing,
      shipping: shipping ? fromWireAddress(shipping, current.shipping) : current.shipping
    }), viewer)
    return draft(cartCustomer(state.stored?.data ?? EMPTY_CART), viewer.userId ?? null, note, method)
  })

  app.post('/checkout', {
    bodyLimit: 64 * 1024,
    config: { shopRateLimit: 'checkout', idempotent: true },
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
    // WooCommerce's action after the order is stored (a callback that throws is logged; the order stands).
    await shop.filters.apply('woocommerce_store_api_checkout_order_processed', null, { order, cartKey: key })
    return serializePlacedOrder(order, shop.homeUrl)
  })
}
