import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DrawerCartStateSchema } from '../../schemas/drawer-cart.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { cartErrors } from '../../schemas/svc-free.ts'
import { AddBundleBody, BundleCompanionsSchema, BundleConfigsSchema, CompanionsQuery, publicErrors } from '../../schemas/svc-pro-bundles.ts'
import { perMinute } from '../security/index.ts'
import { cartKeyOf, changeCart, viewerOf } from '../svc-free/index.ts'
import type { BundleBuilder } from './bundles.ts'

const tags = ['svc']

/** `bundle-builder/configs` (public, cacheable), `bundle-builder/companions` and `bundle-builder/add`. */
export const proBundleRoutes = (bundles: BundleBuilder): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/bundle-builder/configs', {
    config: { svc: { edition: 'pro', access: 'public' } },
    schema: {
      tags,
      operationId: 'svcListBundles',
      summary: 'The bundles on offer',
      description: 'Public (no Cart-Token) and cacheable: `Cache-Control: public, max-age=300`, an `ETag` (304 on `If-None-Match`) and `Vary: Origin`.',
      response: { 200: BundleConfigsSchema, ...publicErrors }
    }
  }, async () => bundles.configs())

  app.get('/bundle-builder/companions', {
    config: { svc: { edition: 'pro', access: 'cart' } },
    schema: {
      tags,
      operationId: 'svcGetBundleCompanions',
      summary: 'The bundles a product can be part of, with its companions',
      description: 'An unknown product, or one the visitor may not see, is a 404 `svc_product_not_found`; a product in no bundle has none.',
      querystring: CompanionsQuery,
      response: { 200: BundleCompanionsSchema, 404: ErrorBody, ...cartErrors }
    }
  }, async (request) => bundles.companions(request.query.product_id, viewerOf(request)))

  app.post('/bundle-builder/add', {
    config: { svc: { edition: 'pro', access: 'cart', rateLimit: perMinute(20) }, idempotent: true },
    schema: {
      tags,
      operationId: 'svcAddBundle',
      summary: 'Add a bundle',
      description: 'One product per slot, in slot order. Every line is added with the bundle\'s discount in one transaction, or none: ' +
        'an unknown bundle is a 404 `svc_bundle_not_found`; a wrong selection a 400 `svc_bundle_invalid` (`data.reason`: ' +
        '`slot_count`, `duplicate`, `not_in_slot`); an unavailable product a 400 `svc_product_not_addable`, and a product the cart ' +
        'refuses (stock, quantity limits) the platform\'s error with `data.product_id`. Adding the same bundle again raises its lines\' quantities. ' +
        'A slot filled with a variable product takes the shopper\'s attributes in `variations` (`{slot, attributes: [{attribute, value}]}`), ' +
        'checked as the Store API checks an add (a missing or contradicting attribute: 400 with the Store API\'s reason). ' +
        'The discount applies only while the bundle is complete: after every cart change, only the units that still fill every slot keep it.',
      body: AddBundleBody,
      response: { 200: DrawerCartStateSchema, 404: ErrorBody, ...cartErrors }
    }
  }, async (request, reply) => changeCart(fastify, request, reply, () =>
    bundles.add(cartKeyOf(request), request.body.bundle_id, request.body.product_ids, viewerOf(request), request.body.variations)))
}
