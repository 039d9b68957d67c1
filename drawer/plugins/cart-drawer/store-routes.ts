import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import { currencyBlock } from '../../../kernel/domain/money.ts'
import type { CartData } from '../../../kernel/domain/types.ts'
import { answersWithCart, restErrorHandler, storeApiCode, svcError } from '../../../kernel/errors/index.ts'
import { boundJsonDepth } from '../../../kernel/lib/index.ts'
import {
  StoreAddItemBody, StoreCartSchema, storeCartErrors, StoreCouponBody, StoreRemoveItemBody, StoreUpdateItemBody,
  type StoreAddItemInput, type StoreCartBody
} from '../../schemas/svc-store.ts'
import type { CartState, Viewer } from '../../port/index.ts'
import { BODY_LIMITS, perMinute } from '../security/index.ts'
import { cartKeyOf, cartStateOf, viewerOf } from '../svc-free/index.ts'
import type { DrawerCartCapability } from './cart-capability.ts'

export interface StoreRoutesOptions {
  carts: DrawerCartCapability
}

/** The paths below `{restRoot}svc/v1` the drawer serves with `storeApi: 'drawer'`, as `METHOD /path`. */
export const STORE_ROUTES = [
  'GET /store/cart', 'POST /store/cart/add-item', 'POST /store/cart/update-item', 'POST /store/cart/remove-item',
  'POST /store/cart/apply-coupon', 'POST /store/cart/remove-coupon'
] as const

const tags = ['svc-store']
const EMPTY: CartData = { lines: [], coupons: [] }

/** The Store API's `variation` (`[{attribute, value}]`) or `{attribute: value}`, as the port's `{attribute: value}`. */
function variationOf (input: StoreAddItemInput['variation']): Record<string, string> {
  if (input === undefined) return {}
  return Array.isArray(input) ? Object.fromEntries(input.map(({ attribute, value }) => [attribute, value])) : { ...input }
}

/**
 * The cart routes the drawer's script needs, served by the drawer over the port for a host without a Store API
 * (`storeApi: 'drawer'`): `GET store/cart` (a request without a Cart-Token gets the host's session cart, or a new
 * one), `add-item`, `update-item`, `remove-item`, `apply-coupon`, `remove-coupon`. Each is an `svc/v1` cart-session
 * route (origin check, access group `cart`, rate and body limits, the one error shape), answers the Store API cart's
 * fields the script reads and a fresh `Cart-Token`, and refuses a change the shop refuses in the drawer's own codes.
 */
export const storeRoutesPlugin = fp<StoreRoutesOptions>(async (fastify, options) => {
  const { carts } = options
  const { commerce: shop, drawerCart } = fastify
  const currency = currencyBlock(shop.currency)

  async function storeCart (state: CartState): Promise<StoreCartBody> {
    const { priced } = state
    const { totals } = priced
    return {
      items: priced.lines.map((line) => ({
        key: line.line.key,
        id: line.product.id,
        quantity: line.line.quantity,
        name: line.product.name,
        variation: Object.entries(line.line.variation).map(([attribute, value]) => ({ attribute, value })),
        prices: { price: String(line.unitPrice), line_subtotal: String(line.lineSubtotal), line_total: String(line.lineTotal) },
        extensions: { svc: drawerCart.itemExtension(line, state) }
      })),
      items_count: priced.itemsCount,
      coupons: priced.coupons.map(({ coupon, discount }) => ({ code: coupon.code, discount: String(discount) })),
      totals: {
        total_items: String(totals.totalItems),
        total_discount: String(totals.totalDiscount),
        total_shipping: String(totals.totalShipping),
        total_tax: String(totals.totalTax),
        total_price: String(totals.totalPrice),
        ...currency
      },
      errors: priced.errors.map(({ reason, message }) => ({ code: storeApiCode(reason), message })),
      extensions: { svc: await drawerCart.cartExtension(state) as StoreCartBody['extensions']['svc'] }
    }
  }

  /** A fresh Cart-Token for the request's cart, in the answer whatever it is (refusals too, as the Store API does). */
  function sendToken (request: FastifyRequest, reply: FastifyReply): string {
    const key = cartKeyOf(request)
    reply.header('Cart-Token', carts.issueToken === undefined ? shop.issueToken!(key) : carts.issueToken(key, reply))
    return key
  }

  /** Runs a change; a refusal is answered in the drawer's codes, a conflict with the cart as it stands. */
  async function change (request: FastifyRequest, reply: FastifyReply, run: (key: string, viewer: Viewer) => Promise<CartState>): Promise<StoreCartBody> {
    const key = sendToken(request, reply)
    const viewer = viewerOf(request)
    try {
      return await storeCart(await run(key, viewer))
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      const refusal = error.domainError
      if (!answersWithCart(refusal.reason)) throw svcError(refusal)
      throw svcError(refusal, { cart: await storeCart(await shop.carts.get(key, viewer)) })
    }
  }

  /** The line `itemKey` of the cart as this request read it: refused before the change when unknown or locked. */
  async function checkLine (request: FastifyRequest, itemKey: string): Promise<void> {
    const data = (await cartStateOf(fastify, request)).stored?.data ?? EMPTY
    if (!data.lines.some((line) => line.key === itemKey)) {
      throw new CartActionError({ reason: 'item_not_found', message: 'This cart item no longer exists.', data: { keys: [itemKey] } })
    }
    if (shop.carts.lockedLines(data).has(itemKey)) {
      throw new CartActionError({ reason: 'item_locked', message: 'This cart item is locked.', data: { keys: [itemKey] } })
    }
  }

  await fastify.register(async (svc) => {
    svc.setErrorHandler(restErrorHandler)
    boundJsonDepth(svc)
    const app = svc.withTypeProvider<TypeBoxTypeProvider>()
    const write = (max: number) => ({ svc: { edition: 'free' as const, access: 'cart' as const, rateLimit: perMinute(max) }, idempotent: true })
    const cartAnswer = { 200: StoreCartSchema, ...storeCartErrors }

    app.get('/store/cart', {
      config: { svc: { edition: 'free', access: 'cart', sessionCart: (request) => carts.sessionCartKey(request) } },
      schema: {
        tags,
        operationId: 'svcStoreGetCart',
        summary: 'The cart, and a Cart-Token for it',
        description: 'Without a `Cart-Token` the cart is the host\'s session cart (or a new one); the answer\'s `Cart-Token` names it.',
        response: cartAnswer
      }
    }, async (request, reply) => {
      sendToken(request, reply)
      return storeCart(await cartStateOf(fastify, request))
    })

    app.post('/store/cart/add-item', {
      config: write(30),
      schema: { tags, operationId: 'svcStoreAddItem', summary: 'Add a product (the Store API\'s add-item)', body: StoreAddItemBody, response: { 201: StoreCartSchema, ...storeCartErrors } }
    }, async (request, reply) => {
      const { id, quantity = 1, variation } = request.body
      const cart = await change(request, reply, (key, viewer) => shop.carts.addItem(key, { id, quantity, variation: variationOf(variation) }, viewer))
      return reply.code(201).send(cart)
    })

    app.post('/store/cart/update-item', {
      config: write(60),
      schema: {
        tags,
        operationId: 'svcStoreUpdateItem',
        summary: 'Set a line\'s quantity (0 removes it)',
        description: 'An unknown line answers 409 `svc_cart_invalid_key`, a locked one 409 `svc_cart_item_locked`, each with the cart as it stands.',
        body: StoreUpdateItemBody,
        response: cartAnswer
      }
    }, async (request, reply) => change(request, reply, async (key, viewer) => {
      await checkLine(request, request.body.key)
      return carts.setQuantity === undefined
        ? shop.carts.change(key, [{ type: 'setQuantity', key: request.body.key, quantity: request.body.quantity }], viewer)
        : carts.setQuantity(key, request.body.key, request.body.quantity, viewer)
    }))

    app.post('/store/cart/remove-item', {
      config: write(30),
      schema: { tags, operationId: 'svcStoreRemoveItem', summary: 'Remove a line', body: StoreRemoveItemBody, response: cartAnswer }
    }, async (request, reply) => change(request, reply, (key, viewer) =>
      shop.carts.removeItems(key, [request.body.key], viewer, request.svc?.cartRead ?? undefined)))

    app.post('/store/cart/apply-coupon', {
      config: write(10),
      bodyLimit: BODY_LIMITS.coupon,
      schema: { tags, operationId: 'svcStoreApplyCoupon', summary: 'Apply a coupon', body: StoreCouponBody, response: cartAnswer }
    }, async (request, reply) => change(request, reply, (key, viewer) => shop.carts.applyCoupon(key, request.body.code, viewer)))

    app.post('/store/cart/remove-coupon', {
      config: write(20),
      bodyLimit: BODY_LIMITS.coupon,
      schema: { tags, operationId: 'svcStoreRemoveCoupon', summary: 'Remove a coupon', body: StoreCouponBody, response: cartAnswer }
    }, async (request, reply) => change(request, reply, (key, viewer) => shop.carts.removeCoupon(key, request.body.code, viewer)))
  }, { prefix: `${shop.restRoot}svc/v1` })
}, { name: 'svc-store-routes', fastify: '5.x', dependencies: ['security', 'store-api-extension', 'svc-free'] })
