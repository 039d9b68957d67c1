import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { OneLineRequestLog } from './config/logger.ts'
import { sharedSchemaController } from './config/schema-compilers.ts'
import { defaultShopConfig } from './config/shop-config.ts'
import type { ShopConfig } from './kernel/domain/types.ts'
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './kernel/errors/index.ts'
import { cartDrawer, DEFAULT_REST_ROOT, openapiPlugin, BODY_LIMITS } from './drawer/index.ts'
import { healthPlugin, htmlSecurityPlugin, CART_COOKIE, SESSION_COOKIE, shopPlugin, type FilterRegistration, type LoginLimits, type ScryptParams, type SessionLimits, type ShopRateLimits, type SweepOptions } from './hosts/reference-shop/index.ts'
import type { RateCounter, Storage } from './storage/contract/index.ts'
import { boundJsonDepth } from './kernel/lib/index.ts'

export interface AppOptions {
  storage: Storage
  rateCounter: RateCounter
  /** Signing secrets (each at least 32 bytes), newest first. */
  secrets: readonly string[]
  restRoot?: string
  siteUrl?: string
  homeUrl?: string
  edition?: 'free' | 'pro'
  shop?: Partial<ShopConfig>
  /** Server-side filters to add at start (more can be added at run time through `app.shop.filters`). */
  filters?: readonly FilterRegistration[]
  /** Origins allowed to call `svc/v1` besides the home and site URLs' (default value of `svc_rest_allowed_origins`). */
  allowedOrigins?: readonly string[]
  /**
   * Trusted proxy ranges: the default value of `svc_rest_trusted_proxy_cidrs`, which finds the client of every rate
   * limit (`svc/v1`, the Store API, login), and Fastify's `trustProxy` (`X-Forwarded-Proto`, `request.ip` in the
   * logs) unless `fastify.trustProxy` is given.
   */
  trustedProxyCidrs?: readonly string[]
  /** Multiplies every `svc/v1` rate limit: for benchmarks only. */
  rateLimitMultiplier?: number
  /** Login throttling (hosts/reference-shop/auth/login-limit.ts, `DEFAULT_LOGIN_LIMITS`): each part given replaces the default's. */
  loginLimits?: Partial<LoginLimits>
  /**
   * A rate counter slower than this refuses limited routes with 503 (default 250 ms, design §3.5). A counter with a
   * per-instance fallback (`withFallbackCounter`, 200 ms) answers from the fallback before: keep this above its timeout.
   */
  rateCounterTimeoutMs?: number
  /** Replaces named Store API rate limits (coupon, checkout, newCart: hosts/reference-shop/store-api/rate-limits.ts). */
  storeApiRateLimits?: Partial<ShopRateLimits>
  /** The sweep of expired guest carts and sessions (every 15 minutes by default), or false for none. */
  sweep?: SweepOptions | false
  /** scrypt's parameters for password hashes (default OWASP's N=2^17, r=8, p=1); others are re-hashed at login. */
  passwordHashing?: ScryptParams
  /** Login sessions' idle timeout and absolute lifetime (default 30 minutes and 12 hours). */
  sessions?: Partial<SessionLimits>
  logger?: FastifyServerOptions['logger']
  /** The clock (tests move it). */
  now?: () => Date
  /** Passed to Fastify, for example `trustProxy`. */
  fastify?: Omit<FastifyServerOptions, 'logger'>
}

export const DEFAULT_SITE_URL = 'http://localhost:3000'

/** Builds the whole application: the reference shop and the cart drawer service on top of it. */
export async function buildApp (options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Report every invalid field at once, not only the first.
    ajv: { customOptions: { allErrors: true } },
    clientErrorHandler,
    frameworkErrors,
    // One log line per request, when it is answered, instead of Fastify's two.
    logController: new OneLineRequestLog(),
    // Each route's validators and serializers compiled once per process, not once per instance (the test suite builds hundreds).
    schemaController: sharedSchemaController,
    // A route takes at most 16 KiB unless it declares what it takes (the settings, imports, batches, checkouts):
    // Fastify's own default (1 MiB) fits no route of the shop.
    bodyLimit: BODY_LIMITS.write,
    // The proxies the limits trust (trustedProxyCidrs) are the ones whose X-Forwarded-* headers Fastify believes.
    ...(options.trustedProxyCidrs !== undefined && options.trustedProxyCidrs.length > 0 ? { trustProxy: [...options.trustedProxyCidrs] } : {}),
    ...options.fastify
  })
  // Bodies are JSON (and form-encoded where a classic endpoint says so): plain text is refused with 415.
  app.removeContentTypeParser('text/plain')
  // JSON nested deeper than 32 levels is refused (400) before any route, merge or copy walks it.
  boundJsonDepth(app)
  installErrorHandling(app)
  await app.register(htmlSecurityPlugin, { origins: [options.siteUrl ?? DEFAULT_SITE_URL, options.homeUrl ?? options.siteUrl ?? DEFAULT_SITE_URL] })
  await app.register(openapiPlugin, {
    servers: [{ url: (options.siteUrl ?? DEFAULT_SITE_URL).replace(/\/+$/, '') }],
    cookies: { cart: CART_COOKIE, session: SESSION_COOKIE }
  })
  await app.register(healthPlugin, { storage: options.storage, rateCounter: options.rateCounter })
  await app.register(shopPlugin, {
    storage: options.storage,
    secrets: options.secrets,
    restRoot: options.restRoot ?? DEFAULT_REST_ROOT,
    siteUrl: options.siteUrl ?? DEFAULT_SITE_URL,
    homeUrl: options.homeUrl ?? options.siteUrl ?? DEFAULT_SITE_URL,
    config: { ...defaultShopConfig, ...options.shop },
    filters: options.filters,
    now: options.now,
    rateCounter: options.rateCounter,
    loginLimits: options.loginLimits,
    trustedProxyCidrs: options.trustedProxyCidrs,
    rateLimitMultiplier: options.rateLimitMultiplier,
    rateCounterTimeoutMs: options.rateCounterTimeoutMs,
    storeApiRateLimits: options.storeApiRateLimits,
    allowedOrigins: options.allowedOrigins,
    sweep: options.sweep,
    passwordHashing: options.passwordHashing,
    sessions: options.sessions
  })
  // The cart drawer on top of the platform, in the same instance.
  await app.register(cartDrawer, {
    edition: options.edition ?? 'free',
    commerce: app.shop.commerce,
    stores: { settings: options.storage, analytics: options.storage, idempotency: options.storage },
    secrets: options.secrets,
    rateCounter: options.rateCounter,
    allowedOrigins: options.allowedOrigins,
    trustedProxyCidrs: options.trustedProxyCidrs,
    rateLimitMultiplier: options.rateLimitMultiplier,
    rateCounterTimeoutMs: options.rateCounterTimeoutMs
  })
  return app
}

export { shopPlugin, healthPlugin, htmlSecurityPlugin, type ShopPluginOptions, type Shop, type FilterRegistration, type FilterCallback, type FilterName } from './hosts/reference-shop/index.ts'

// The drawer's own surface (also its own entry, `cart-drawer-service/drawer`).
export * from './drawer/index.ts'
