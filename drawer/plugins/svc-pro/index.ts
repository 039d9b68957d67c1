import fp from 'fastify-plugin'
import { boundJsonDepth } from '../../../kernel/lib/index.ts'
import { proAdminRoutes } from './admin-routes.ts'
import { proAnalyticsRoutes } from './analytics-routes.ts'
import { proBundleRoutes } from './bundle-routes.ts'
import { proDrawerRoutes } from './drawer-routes.ts'
import { BundleBuilder } from './bundles.ts'
import { addonLineKeys, SmartAddons } from './smart-addons.ts'
import { restErrorHandler } from '../../../kernel/errors/index.ts'

/**
 * The Pro edition's `svc/v1` routes (specification §4.2), registered only in Pro: shipping meter, smart add-ons
 * (locked lines, removed when their conditions stop holding), spotlight, bundles, analytics, the admin pickers.
 */
export const svcProPlugin = fp(async (fastify) => {
  const addons = new SmartAddons(fastify)
  const bundles = new BundleBuilder(fastify)
  const { carts } = fastify.commerce
  const removeHooks = [
    carts.addHook('lockedLines', addonLineKeys),
    carts.addHook('reconcile', (state, viewer) => addons.reconcile(state, viewer))
  ]
  fastify.addHook('onClose', async () => { for (const remove of removeHooks) remove() })
  await fastify.register(async (svc) => {
    svc.setErrorHandler(restErrorHandler)
    boundJsonDepth(svc)
    await svc.register(proDrawerRoutes(addons))
    await svc.register(proAdminRoutes)
    await svc.register(proAnalyticsRoutes)
    await svc.register(proBundleRoutes(bundles))
  }, { prefix: `${fastify.commerce.restRoot}svc/v1` })
}, { name: 'svc-pro', fastify: '5.x', dependencies: ['svc-free'] })
