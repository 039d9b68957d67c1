import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { shippingMeter } from '../../domain/shipping-meter.ts'
import { restError } from '../../../kernel/errors/index.ts'
import { DrawerCartStateSchema } from '../../schemas/drawer-cart.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { cartErrors } from '../../schemas/svc-free.ts'
import { ShippingMeterSchema, SmartAddonListSchema, SpotlightAddBody, ToggleAddonBody } from '../../schemas/svc-pro.ts'
import { perMinute } from '../security/index.ts'
import type { CartState } from '../../port/index.ts'
import { currencyBlock } from '../../../kernel/domain/money.ts'
import { cartKeyOf, cartStateOf, changeCart, viewerOf } from '../svc-free/index.ts'
import type { SmartAddons } from './smart-addons.ts'
import { activeSpotlight, spotlightView } from './spotlight.ts'

const tags = ['svc']

/** `shipping-meter`, `smart-addons`, `smart-addons/toggle`, `spotlight/add`, and their drawer-data sections. */
export const proDrawerRoutes = (addons: SmartAddons): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const shop = fastify.commerce

  function meter (state: CartState) {
    const figures = shippingMeter(state.priced)
    // Money in svc/v1 bodies is strings of minor units with a currency block (design §3.7).
    return {
      enabled: figures.enabled,
      measure: figures.measure,
      threshold: String(figures.threshold),
      basis: String(figures.basis),
      remaining: String(figures.remaining),
      progress: figures.progress,
      reached: figures.reached,
      currency: currencyBlock(shop.currency)
    }
  }

  const sections = fastify.drawerDataSections
  sections.register('shipping_meter', async (request) => meter(await cartStateOf(fastify, request)))
  sections.register('smart_addons', async (request) => addons.list(await cartStateOf(fastify, request), viewerOf(request)))
  sections.register('spotlight', async (request) => spotlightView(fastify, await cartStateOf(fastify, request), viewerOf(request)))

  app.get('/shipping-meter', {
    config: { svc: { edition: 'pro', access: 'cart' } },
    schema: { tags, operationId: 'svcGetShippingMeter', summary: 'Progress towards free shipping', response: { 200: ShippingMeterSchema, ...cartErrors } }
  }, async (request) => meter(await cartStateOf(fastify, request)))

  app.get('/smart-addons', {
    config: { svc: { edition: 'pro', access: 'cart' } },
    schema: { tags, operationId: 'svcGetSmartAddons', summary: 'Add-ons offered for this cart', response: { 200: SmartAddonListSchema, ...cartErrors } }
  }, async (request) => addons.list(await cartStateOf(fastify, request), viewerOf(request)))

  app.post('/smart-addons/toggle', {
    config: { svc: { edition: 'pro', access: 'cart', rateLimit: perMinute(30) }, idempotent: true },
    schema: {
      tags,
      operationId: 'svcToggleSmartAddon',
      summary: 'Add or remove an add-on',
      description: 'The add-on line is locked: only this route changes it. Adding needs the add-on\'s conditions to hold (400 `svc_addon_unavailable`); an unknown add-on is a 404.',
      body: ToggleAddonBody,
      response: { 200: DrawerCartStateSchema, 404: ErrorBody, ...cartErrors }
    }
  }, async (request, reply) => changeCart(fastify, request, reply, async () =>
    addons.toggle(await cartStateOf(fastify, request), request.body.addon_id, request.body.active, viewerOf(request))))

  app.post('/spotlight/add', {
    config: { svc: { edition: 'pro', access: 'cart', rateLimit: perMinute(20) }, idempotent: true },
    schema: {
      tags,
      operationId: 'svcAddSpotlightOffer',
      summary: 'Add the featured offer',
      description: 'Only the configured product, while the offer is enabled and its conditions hold: else 400 `svc_spotlight_unavailable`.',
      body: SpotlightAddBody,
      response: { 200: DrawerCartStateSchema, ...cartErrors }
    }
  }, async (request, reply) => {
    const viewer = viewerOf(request)
    const offer = await activeSpotlight(fastify, await cartStateOf(fastify, request), viewer)
    if (offer === null || offer.product.id !== request.body.product_id) throw restError('svc_spotlight_unavailable')
    return changeCart(fastify, request, reply, () => shop.carts.addItem(cartKeyOf(request), { id: offer.product.id, quantity: 1, variation: {}, mark: 'spotlight' }, viewer))
  })
}
