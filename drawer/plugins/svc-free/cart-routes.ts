import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DrawerCartStateSchema } from '../../schemas/drawer-cart.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { CartConflictBody, cartErrors, CouponCodeBody, RemoveItemsBody } from '../../schemas/svc-free.ts'
import { BODY_LIMITS, perMinute } from '../security/index.ts'
import { restError } from '../../../kernel/errors/index.ts'
import { isStorageUnavailable } from '../../../storage/contract/index.ts'
import { sendJson } from './send-json.ts'
import { cartKeyOf, cartStateOf, changeCart, viewerOf } from './request-cart.ts'

const tags = ['svc']

/** `GET cart`, `POST cart/remove-items`, `POST coupon`, `DELETE coupon`: the drawer's cart. */
export const cartRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { commerce: shop, drawerCart } = fastify

  app.get('/cart', {
    config: { svc: { edition: 'free', access: 'cart', drawerSnapshot: true } },
    schema: { tags, operationId: 'svcGetCart', summary: 'The drawer\'s cart state', response: { 200: DrawerCartStateSchema, ...cartErrors } }
  }, async (request, reply) => {
    // A guest's cart sends the snapshot its last write stored, as it is: one storage round trip, nothing computed.
    const stored = request.svc?.snapshot ?? null
    if (stored !== null) return sendJson(reply, stored)
    // None current (the catalog or settings changed since): computed, and stored for the next read where it may be.
    const state = await cartStateOf(fastify, request)
    const read = request.svc?.cartRead ?? null
    const made = read === null || shop.carts.storeSnapshot === undefined ? null : await shop.carts.storeSnapshot(state, read, viewerOf(request))
    return made === null ? drawerCart.state(state) : sendJson(reply, made)
  })

  // A shop that removes lines without a read first (`removeItemsUnread`) gets a guest's request without one.
  const removeUnread = shop.carts.removeItemsUnread?.bind(shop.carts)
  app.post('/cart/remove-items', {
    config: { svc: { edition: 'free', access: 'cart', rateLimit: perMinute(30), guestWithoutRead: removeUnread !== undefined }, idempotent: true },
    schema: {
      tags,
      operationId: 'svcRemoveCartItems',
      summary: 'Remove several lines in one transaction',
      description: 'All keys are removed, or none: an unknown or locked key answers 409 with the cart as it stands.',
      body: RemoveItemsBody,
      response: { 200: DrawerCartStateSchema, 409: CartConflictBody, ...cartErrors }
    }
  }, async (request, reply) => {
    if (request.svc?.cartUnread === true && removeUnread !== undefined) {
      // The write is this request's first storage call: an outage means its cart session could not be started, as
      // access answers it when it reads the cart.
      return changeCart(fastify, request, reply, () => removeUnread(cartKeyOf(request), request.body.keys, viewerOf(request)).catch((error: unknown) => {
        throw isStorageUnavailable(error) ? restError('svc_cart_session_unavailable') : error
      }))
    }
    // The cart the security plugin read: the change starts from it (and is stored only if the cart is still as read).
    return changeCart(fastify, request, reply, () => shop.carts.removeItems(cartKeyOf(request), request.body.keys, viewerOf(request), request.svc?.cartRead ?? undefined))
  })

  app.post('/coupon', {
    config: { svc: { edition: 'free', access: 'cart', rateLimit: perMinute(10) }, idempotent: true },
    bodyLimit: BODY_LIMITS.coupon,
    schema: {
      tags,
      operationId: 'svcApplyCoupon',
      summary: 'Apply a coupon',
      description: 'Refusals: 400 `svc_coupon_invalid` (unknown, expired, usage limit, minimum spend; `data.reason`), 409 `svc_coupon_already_applied`.',
      body: CouponCodeBody,
      response: { 200: DrawerCartStateSchema, 409: ErrorBody, ...cartErrors }
    }
  }, async (request, reply) => changeCart(fastify, request, reply, () => shop.carts.applyCoupon(cartKeyOf(request), request.body.code, viewerOf(request))))

  app.delete('/coupon', {
    config: { svc: { edition: 'free', access: 'cart', rateLimit: perMinute(20) }, idempotent: true },
    bodyLimit: BODY_LIMITS.coupon,
    schema: {
      tags,
      operationId: 'svcRemoveCoupon',
      summary: 'Remove a coupon',
      description: 'A coupon that is not applied answers 404 `svc_coupon_not_applied`.',
      body: CouponCodeBody,
      response: { 200: DrawerCartStateSchema, 404: ErrorBody, ...cartErrors }
    }
  }, async (request, reply) => changeCart(fastify, request, reply, () => shop.carts.removeCoupon(cartKeyOf(request), request.body.code, viewerOf(request))))
}
