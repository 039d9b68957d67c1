import cookie from '@fastify/cookie'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
// The package by its name, as a user imports it. Inside this repository tsconfig.json's `paths` maps the name to the
// sources (tsc and tsx both honour it); an installed package resolves it to dist/.
import { cartDrawer, DrawerFilters, MemoryAnalyticsStore, MemorySettingsStore, type CommercePort, type DrawerStores } from 'cart-drawer-service/drawer'
import { installErrorHandling } from 'cart-drawer-service/errors'
import { createMemoryIdempotencyStore, createMemoryRateCounter, type RateCounter } from 'cart-drawer-service/storage'
import { ShopCarts } from './carts.ts'
import { Catalog, TEA_SHOP_CONFIG } from './catalog.ts'
import { createTeaShopCommerce, type TeaShop } from './commerce.ts'
import { CartExtensions } from './hooks.ts'
import { drawerCarts, teaShopRoutes } from './routes.ts'
import { Accounts, CartTokens } from './session.ts'

export interface TeaShopOptions {
  /** Signs Cart-Tokens and nonces, and keys the drawer's analytics visitor hashes: 32 bytes or more. */
  secret: string
  /** The shop manager's login (`manage_shop`). */
  admin: { email: string, password: string }
  /** The drawer's edition (default `pro`). */
  edition?: 'free' | 'pro'
  /** The storefront's URL, without a trailing slash (default `http://localhost:3100`). */
  homeUrl?: string
  /** Where the REST routes live, starting and ending with a slash (default `/api/`). */
  restRoot?: string
  /** Default: in-process counters. */
  rateCounter?: RateCounter
  /** The clock (tests move it). */
  now?: () => Date
  logger?: FastifyServerOptions['logger']
}

export interface TeaShopApp {
  /** Not ready yet: the caller may add routes, then `ready()` or `listen()`. */
  app: FastifyInstance
  commerce: CommercePort
  shop: TeaShop
  stores: DrawerStores & { settings: MemorySettingsStore, analytics: MemoryAnalyticsStore }
}

/**
 * The tea shop: its own catalog, carts, Cart-Tokens, login and pages, all in memory, and the cart drawer registered
 * over it through the commerce port, as any host would do it.
 */
export async function buildTeaShop (options: TeaShopOptions): Promise<TeaShopApp> {
  if (Buffer.byteLength(options.secret) < 32) throw new Error('secret: at least 32 bytes')
  const now = options.now ?? (() => new Date())
  // The drawer's settings, analytics and the Idempotency-Keys of its cart writes, in memory (one instance).
  const stores = { settings: new MemorySettingsStore(), analytics: new MemoryAnalyticsStore(), idempotency: createMemoryIdempotencyStore() }
  const catalog = new Catalog()
  const shop: TeaShop = {
    restRoot: options.restRoot ?? '/api/',
    homeUrl: (options.homeUrl ?? 'http://localhost:3100').replace(/\/+$/, ''),
    config: TEA_SHOP_CONFIG,
    now,
    catalog,
    carts: new ShopCarts({ catalog, config: TEA_SHOP_CONFIG, now, settingsVersion: async () => stores.settings.version }),
    tokens: new CartTokens(options.secret, now),
    accounts: new Accounts({ secret: options.secret, now, admin: options.admin }),
    // The package's own named filters (what the drawer uses when a host has none).
    filters: new DrawerFilters(),
    extensions: new CartExtensions(),
    sessionCookie: 'tea_session'
  }
  const commerce = createTeaShopCommerce(shop)

  const app = Fastify({ logger: options.logger ?? false })
  // Errors of svc/v1 (and of this shop's cart API) in the {code, message, data: {status}} shape.
  installErrorHandling(app)
  // The shop's own cookies: the login session and the cart's token.
  await app.register(cookie)
  await app.register(teaShopRoutes(shop))

  const rateCounter = options.rateCounter ?? createMemoryRateCounter()
  if (options.rateCounter === undefined) app.addHook('onClose', () => rateCounter.close())
  // The drawer keys its analytics visitor hashes with its own secrets: the shop's, here. The shop has no Store API:
  // the drawer serves the cart routes its script calls (`/api/svc/v1/store/cart`…) over the port and `drawerCarts`.
  await app.register(cartDrawer, {
    edition: options.edition ?? 'pro', commerce, stores, secrets: [options.secret], rateCounter, storeApi: 'drawer', carts: drawerCarts(shop)
  })
  return { app, commerce, shop, stores }
}
