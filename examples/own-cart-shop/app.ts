import cookie from '@fastify/cookie'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { cartDrawer, createMemoryDrawerStores, DrawerFilters, type CommercePort } from 'cart-drawer-service/drawer'
import { installErrorHandling } from 'cart-drawer-service/errors'
import { createMemoryIdempotencyStore, createMemoryRateCounter } from 'cart-drawer-service/storage'
import { ShopCarts } from './carts.ts'
import { Catalog } from './catalog.ts'
import { createInkShopCommerce, type InkShop } from './commerce.ts'
import { DEMO_SETTINGS } from './drawer-settings.ts'
import { CartExtensions } from './hooks.ts'
import { drawerCarts, inkShopRoutes } from './routes.ts'
import { Accounts, Signer } from './session.ts'

export interface InkShopOptions {
  /** Signs Cart-Tokens, sessions and nonces; keys the drawer's visitor hashes: 32 bytes or more. */
  secret: string
  admin: { email: string, password: string }
  edition?: 'free' | 'pro'
  /** Default `http://localhost:3200`. */
  homeUrl?: string
  /** Save the demo's drawer settings for the edition when the shop is ready (default true). */
  demoSettings?: boolean
  now?: () => Date
  logger?: FastifyServerOptions['logger']
}

export interface InkShopApp {
  /** Not ready yet: the caller may add routes, then `ready()` or `listen()`. */
  app: FastifyInstance
  commerce: CommercePort
  shop: InkShop
}

/**
 * Paper & Ink, a stationery shop with a cart of its own (its own lines, totals and coupons, a lock per cart), and the
 * cart drawer registered over it through the commerce port. The drawer's settings and analytics are kept in the
 * package's in-memory storage; the drawer serves the cart routes its script calls (`storeApi: 'drawer'`).
 */
export async function buildInkShop (options: InkShopOptions): Promise<InkShopApp> {
  const now = options.now ?? (() => new Date())
  const edition = options.edition ?? 'pro'
  // The Idempotency-Keys of the drawer's cart writes, in memory too (one instance).
  const drawerStores = { ...createMemoryDrawerStores(), idempotency: createMemoryIdempotencyStore() }
  const signer = new Signer(options.secret)
  const catalog = new Catalog()
  const shop: InkShop = {
    restRoot: '/api/',
    homeUrl: (options.homeUrl ?? 'http://localhost:3200').replace(/\/+$/, ''),
    now,
    catalog,
    carts: new ShopCarts({ catalog, now, settingsVersion: async () => (await drawerStores.settings.getSettings())?.version ?? 0 }),
    signer,
    accounts: new Accounts(signer, options.admin),
    // The package's own named filters (what the drawer uses when a host has none).
    filters: new DrawerFilters(),
    extensions: new CartExtensions()
  }
  const commerce = createInkShopCommerce(shop)

  const app = Fastify({ logger: options.logger ?? false })
  installErrorHandling(app)
  await app.register(cookie)
  await app.register(inkShopRoutes(shop))
  const rateCounter = createMemoryRateCounter()
  app.addHook('onClose', () => rateCounter.close())
  await app.register(cartDrawer, {
    edition, commerce, stores: drawerStores, secrets: [options.secret], rateCounter, storeApi: 'drawer', carts: drawerCarts(shop)
  })
  if (options.demoSettings ?? true) {
    app.addHook('onReady', async () => {
      const saved = await app.settings.save(DEMO_SETTINGS[edition])
      if (!saved.ok) throw new Error(`the demo's drawer settings were refused: ${JSON.stringify(saved)}`)
    })
  }
  return { app, commerce, shop }
}
