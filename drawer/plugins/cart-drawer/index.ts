import fp from 'fastify-plugin'
import type { RateCounter } from '../../../storage/contract/index.ts'
import { adminScreensPlugin } from '../admin-screens/index.ts'
import { drawerAssetsPlugin, type DrawerUrls } from '../drawer-assets/index.ts'
import { fragmentsPlugin } from '../fragments/index.ts'
import { securityPlugin, type Edition } from '../security/index.ts'
import { settingsPlugin } from '../settings/index.ts'
import { rewardsPlugin } from '../rewards/index.ts'
import { storeApiExtensionPlugin } from '../store-api-extension/index.ts'
import { svcFreePlugin } from '../svc-free/index.ts'
import { svcProPlugin } from '../svc-pro/index.ts'
import { commercePlugin, type DrawerStores } from './commerce-plugin.ts'
import type { CommercePort } from '../../port/index.ts'
import { missingRoutes } from './specified-routes.ts'
import { checkStoreApiOptions, type DrawerCartCapability, type StoreApiMode } from './cart-capability.ts'
import { storeRoutesPlugin } from './store-routes.ts'

export interface CartDrawerOptions {
  /** `free` (default) or `pro`: which `svc/v1` routes, drawer sections and admin screens exist. */
  edition?: Edition
  /** Fixed-window counters for the rate limits (memory for one process, Redis for several). */
  rateCounter: RateCounter
  /** The shop the drawer runs in (the reference platform's: `fastify.shop.commerce`). */
  commerce: CommercePort
  /** Where the drawer keeps its settings and analytics. */
  stores: DrawerStores
  /** Signing secrets (each at least 32 bytes), newest first: the drawer keys its visitor hashes with the first. */
  secrets: readonly string[]
  /** Origins allowed to call `svc/v1` besides the home and site URLs' (default value of `svc_rest_allowed_origins`). */
  allowedOrigins?: readonly string[]
  /** Trusted proxy ranges (default value of `svc_rest_trusted_proxy_cidrs`). */
  trustedProxyCidrs?: readonly string[]
  /** A rate counter slower than this refuses limited routes with 503 (default 250 ms). */
  rateCounterTimeoutMs?: number
  /** Multiplies every `svc/v1` rate limit: for benchmarks only. */
  rateLimitMultiplier?: number
  /**
   * The addresses the drawer uses instead of the shop's: the cart page (default `{homeUrl}/cart/`), checkout (default
   * the port's `urls.checkout`) and the admin screens' login (default the port's `urls.login`). An http(s) URL or a
   * path of the site starting with `/`; the settings' `behaviour.cart_url` and `checkout_url` still win over them.
   */
  urls?: DrawerUrls
  /**
   * Who serves the cart routes the drawer's script reads and changes the cart through: `host` (default), the host's
   * Store API (`{restRoot}wc/store/v1/cart`, `cart/update-item`, `cart/add-item`); `drawer`, the drawer itself under
   * `{restRoot}svc/v1/store/` over the port, for a host without a Store API (it then needs `carts`).
   */
  storeApi?: StoreApiMode
  /** With `storeApi: 'drawer'`: the host's quantity change and cart session, which the port does not carry. */
  carts?: DrawerCartCapability
}

/**
 * The whole cart drawer in one plugin, registered into the host's own instance: the settings, `extensions.svc` on
 * the Store API cart, the `.svc-cart-json` fragment, the request rules of `svc/v1`, the Free (and in Pro the Pro)
 * routes, the drawer script added to storefront pages and the admin screens. Each part is also a plugin of its own
 * that a shop may register alone. When the server starts, every route the edition promises must exist.
 */
export const cartDrawer = fp<CartDrawerOptions>(async (fastify, options) => {
  const edition = options.edition ?? 'free'
  const storeApi = checkStoreApiOptions(options.storeApi, options.carts, options.commerce.cartKeyOfToken === undefined)
  await fastify.register(commercePlugin, { commerce: options.commerce, stores: options.stores, secrets: options.secrets })
  await fastify.register(settingsPlugin)
  await fastify.register(rewardsPlugin, { edition })
  await fastify.register(storeApiExtensionPlugin)
  await fastify.register(fragmentsPlugin)
  await fastify.register(securityPlugin, {
    rateCounter: options.rateCounter,
    allowedOrigins: options.allowedOrigins,
    trustedProxyCidrs: options.trustedProxyCidrs,
    rateLimitMultiplier: options.rateLimitMultiplier,
    counterTimeoutMs: options.rateCounterTimeoutMs
  })
  await fastify.register(svcFreePlugin)
  if (edition === 'pro') await fastify.register(svcProPlugin)
  if (storeApi === 'drawer') await fastify.register(storeRoutesPlugin, { carts: options.carts! })
  await fastify.register(drawerAssetsPlugin, { edition, urls: options.urls, storeApi })
  await fastify.register(adminScreensPlugin, { edition, urls: options.urls })

  fastify.addHook('onReady', async () => {
    const missing = missingRoutes(edition, fastify.svcRoutes)
    if (missing.length > 0) {
      throw new Error(`The ${edition} edition lacks svc/v1 route(s) of the specification: ${missing.join(', ')}`)
    }
  })
}, { name: 'cart-drawer', fastify: '5.x' })

export { addedRoutes, specifiedRoutes, missingRoutes } from './specified-routes.ts'
export { STORE_ROUTES, storeRoutesPlugin, type StoreRoutesOptions } from './store-routes.ts'
export type { DrawerCartCapability, StoreApiMode } from './cart-capability.ts'
export { commercePlugin, type CommercePluginOptions, type DrawerStores } from './commerce-plugin.ts'
export type { DrawerUrls } from '../drawer-assets/index.ts'
export type {
  CommercePort, AdjustableLine, LineAdjuster, LineAdjustment, CartAdjustment, CartAdjustments, CartView, CartViewLine, ShippingAdjustment, CartsPort, CartChange, CartChangeOptions, CartState, CartReading, RateCount, DrawerUser, ShopUrls, Viewer, AddItemInput, Login, CartReconciler, CartReconcileAnswer, CartFollowUp, LockedLines, CartSnapshotter, CartRewards,
  CartExtension, FilterPort, FilterErrorReporter, DrawerFilterHooks, DrawerFilterName, StorefrontScript, StorefrontLink, StorefrontContext
} from '../../port/index.ts'
export { CartHooks, applyFollowUp, type CartHookName } from '../../port/index.ts'
