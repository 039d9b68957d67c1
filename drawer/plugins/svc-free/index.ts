import fp from 'fastify-plugin'
import { boundJsonDepth } from '../../../kernel/lib/index.ts'
import { cartRoutes } from './cart-routes.ts'
import { DrawerDataSections } from './drawer-data.ts'
import { drawerRoutes } from './drawer-routes.ts'
import { settingsRoutes } from './settings-routes.ts'
import { restErrorHandler } from '../../../kernel/errors/index.ts'

/** The Free edition's `svc/v1` routes (specification §4.2), each behind the security plugin's rules. */
export const svcFreePlugin = fp(async (fastify) => {
  fastify.decorate('drawerDataSections', new DrawerDataSections())
  const prefix = `${fastify.commerce.restRoot}svc/v1`
  await fastify.register(async (svc) => {
    // The drawer's routes answer in the WordPress REST shape whatever the host's own error handler does.
    svc.setErrorHandler(restErrorHandler)
    // Whatever the host's JSON parser, the drawer's routes refuse bodies nested deeper than 32 levels.
    boundJsonDepth(svc)
    await svc.register(cartRoutes)
    await svc.register(drawerRoutes)
    await svc.register(settingsRoutes)
  }, { prefix })
}, { name: 'svc-free', fastify: '5.x', dependencies: ['security', 'settings', 'store-api-extension'] })

export { DrawerDataSections, type SectionLoader } from './drawer-data.ts'
export { cartKeyOf, cartStateOf, changeCart, viewerOf } from './request-cart.ts'
export { productCard, recommendationsFor } from './recommendations.ts'
