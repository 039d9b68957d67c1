import fp from 'fastify-plugin'
import { DrawerCart } from './drawer-cart.ts'
import { FilterErrorCapture } from './filter-issues.ts'

/** The Store API namespace the service registers (specification §2.1). */
export const SVC_NAMESPACE = 'svc'

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's view of a cart: extension data, presentation rows, locked keys, the drawer's cart state. */
    drawerCart: DrawerCart
  }
}

/**
 * `extensions.svc` on every Store API cart response (the cart and each item, the cart inside a 409 included),
 * through the platform's ExtendSchema. The settings come from the instance's cache, checked against the version each
 * cart read brings along, so a change saved on any instance shows on the next response.
 */
export const storeApiExtensionPlugin = fp(async (fastify) => {
  const shop = fastify.commerce
  // Throwing filter callbacks met while building the service's data are logged once per response (see
  // FilterIssues); elsewhere they are logged as the shop plugin does.
  const capture = new FilterErrorCapture((name, error) => {
    fastify.log.error({ err: error, filter: name }, 'a filter callback threw; its input value was kept')
  })
  shop.filters.setErrorReporter(capture.report)

  const drawerCart = new DrawerCart({
    shop,
    settings: fastify.settings,
    capture,
    log: fastify.log
  })
  fastify.decorate('drawerCart', drawerCart)
  // Every cart write stores the drawer's state as it will be sent, so `GET svc/v1/cart` sends stored bytes.
  const removeSnapshots = shop.carts.addHook('snapshot', {
    key: () => drawerCart.snapshotKey(),
    make: (state) => drawerCart.snapshot(state),
    cacheable: (state) => drawerCart.cacheable(state)
  })
  fastify.addHook('onClose', async () => { removeSnapshots() })
  shop.extendCart({
    namespace: SVC_NAMESPACE,
    cart: (state) => drawerCart.cartExtension(state),
    item: (line, state) => drawerCart.itemExtension(line, state)
  })
}, { name: 'store-api-extension', fastify: '5.x', dependencies: ['commerce', 'settings'] })

export { DrawerCart } from './drawer-cart.ts'
export { FilterIssues } from './filter-issues.ts'
