import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { restError } from '../../../kernel/errors/index.ts'
import { DrawerCartStateSchema } from '../../schemas/drawer-cart.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { recommendationQuantity } from '../../domain/recommendations.ts'
import {
  AddRecommendationBody, cartErrors, DRAWER_DATA_SECTIONS, DrawerDataQuery, DrawerDataSchema, RecommendationsSchema
} from '../../schemas/svc-free.ts'
import { perMinute } from '../security/index.ts'
import { recommendationsFor } from './recommendations.ts'
import { sendJson } from './send-json.ts'
import { cartKeyOf, cartStateOf, changeCart, viewerOf } from './request-cart.ts'

const tags = ['svc']
const KNOWN_SECTIONS = new Set<string>(DRAWER_DATA_SECTIONS)

/** `GET drawer-data`, `GET recommendations`, `POST recommendations/add`. */
export const drawerRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const sections = fastify.drawerDataSections
  sections.register('cart', async (request) => fastify.drawerCart.state(await cartStateOf(fastify, request)))
  sections.register('recommendations', async (request) => recommendationsFor(fastify, await cartStateOf(fastify, request), viewerOf(request)))

  const countsBestSellers = async (version: number | undefined): Promise<boolean> => {
    const { settings } = await fastify.settings.at(version)
    return JSON.stringify(settings.recommendations).includes('"best_sellers"')
  }
  // The drawer's usual request (every section) is kept per cart, under a name that tells the sections it holds.
  const drawerDataView = (request: FastifyRequest): string | null =>
    (request.query as { fields?: unknown }).fields === undefined ? `drawer-data.${sections.names().join('.')}` : null

  app.get('/drawer-data', {
    config: { svc: { edition: 'free', access: 'cart', cachedView: drawerDataView } },
    schema: {
      tags,
      operationId: 'svcGetDrawerData',
      summary: 'Several drawer sections in one request',
      description: 'An unknown section name is a 400; a Pro section in the Free edition is left out.',
      querystring: DrawerDataQuery,
      response: { 200: DrawerDataSchema, ...cartErrors }
    }
  }, async (request, reply) => {
    const requested = request.query.fields === undefined
      ? sections.names()
      : [...new Set(request.query.fields.split(',').map((name) => name.trim()).filter(Boolean))]
    const unknown = requested.filter((name) => !KNOWN_SECTIONS.has(name))
    if (unknown.length > 0) {
      throw restError('svc_invalid_params', `Unknown section(s): ${unknown.join(', ')}.`, {
        params: { fields: `unknown section(s) ${unknown.join(', ')}; known: ${DRAWER_DATA_SECTIONS.join(', ')}` }
      })
    }
    const kept = request.svc?.snapshot ?? null
    if (kept !== null) return sendJson(reply, kept)
    const data = await sections.load(request, requested)
    const view = drawerDataView(request)
    const read = request.svc?.cartRead ?? null
    const { carts } = fastify.commerce
    if (view === null || read === null || carts.storeView === undefined) return data
    const state = await cartStateOf(fastify, request)
    // Best sellers are counted from orders, which no version tells: drawer data that may list them is not kept.
    if (await countsBestSellers(state.settingsVersion)) return data
    const json = reply.serialize(data) as string
    await carts.storeView(view, state, read, viewerOf(request), json)
    return sendJson(reply, json)
  })

  app.get('/recommendations', {
    config: { svc: { edition: 'free', access: 'cart' } },
    schema: { tags, operationId: 'svcGetRecommendations', summary: 'Products recommended for the cart', response: { 200: RecommendationsSchema, ...cartErrors } }
  }, async (request) => recommendationsFor(fastify, await cartStateOf(fastify, request), viewerOf(request)))

  app.post('/recommendations/add', {
    config: { svc: { edition: 'free', access: 'cart', rateLimit: perMinute(20) }, idempotent: true },
    schema: {
      tags,
      operationId: 'svcAddRecommendation',
      summary: 'Add a recommended product (the least quantity its rules allow)',
      description: 'Only a simple product that is published, visible, purchasable and in stock, not sold individually while already in the cart, ' +
        'whose least allowed quantity fits its quantity rules and stock: else 400 `svc_product_not_addable`; an unknown product is a 404. ' +
        'It is added in the least quantity its rules allow (a product sold in steps of 2 from 2: 2); every product `GET recommendations` lists is accepted.',
      body: AddRecommendationBody,
      response: { 200: DrawerCartStateSchema, 404: ErrorBody, ...cartErrors }
    }
  }, async (request, reply) => {
    const product = await fastify.commerce.getProduct(request.body.product_id)
    if (product === null) throw restError('svc_product_not_found')
    const state = await cartStateOf(fastify, request)
    const quantity = recommendationQuantity(product, state.stored?.data ?? { lines: [], coupons: [] })
    if (quantity === null) throw restError('svc_product_not_addable')
    return changeCart(fastify, request, reply, () =>
      fastify.commerce.carts.addItem(cartKeyOf(request), { id: product.id, quantity, variation: {}, mark: 'recommendation' }, viewerOf(request)))
  })
}
