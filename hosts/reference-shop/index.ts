import fp from 'fastify-plugin'
import cookie from '@fastify/cookie'
import type { ShopConfig } from '../../kernel/domain/types.ts'
import type { RateCounter, Storage } from '../../storage/contract/index.ts'
import { AuthService, DEFAULT_SESSION_LIMITS, type SessionLimits } from './auth/auth-service.ts'
import { OWASP_SCRYPT, PasswordHasher, type ScryptParams } from './auth/password.ts'
import { installSessionRenewal } from './auth/session-cookie.ts'
import { createNonceService } from './auth/nonce.ts'
import { createLoginThrottle, DEFAULT_LOGIN_LIMITS, UNLIMITED_LOGINS, type LoginLimits } from './auth/login-limit.ts'
import { accountRoutes } from './auth/routes.ts'
import { CartService } from './cart/cart-service.ts'
import { CheckoutService } from './checkout/checkout-service.ts'
import { clientAddressResolver, installIdempotency } from '../../drawer/index.ts'
import { wcAjaxRoutes } from './classic/wc-ajax-routes.ts'
import { createCommerce } from './commerce.ts'
import type { Shop } from './shop.ts'
import './filters/hooks.ts'
import { FilterRegistry, type FilterCallback, type FilterRegistration } from './filters/registry.ts'
import { createCartTokenSigner } from './session/cart-token.ts'
import { cartRoutes } from './store-api/cart-routes.ts'
import { storeApiCartRoutes } from './store-api/cart-api.ts'
import { installCartScope } from './store-api/cart-scope.ts'
import { storeApiNonceFor } from './session/store-api-nonce.ts'
import { ExtendSchema } from './store-api/extend-schema.ts'
import { productRoutes } from './store-api/product-routes.ts'
import { checkoutRoutes } from './store-api/checkout-routes.ts'
import { orderRoutes } from './store-api/order-routes.ts'
import { storeApiErrorHandler } from './store-api/error-handler.ts'
import { storeApiIdentity } from './store-api/idempotency.ts'
import { storefrontRoutes } from './storefront/routes.ts'
import { createShopRateLimiter, type ShopRateLimiter, type ShopRateLimits } from './store-api/rate-limits.ts'
import { scheduleSweep, type SweepOptions } from './maintenance/sweep.ts'

export interface ShopPluginOptions {
  storage: Storage
  /** Signing secrets, newest first: the first signs, every one verifies. */
  secrets: readonly string[]
  /** The REST root, starting and ending with a slash (default `/wp-json/`). */
  restRoot: string
  homeUrl: string
  siteUrl: string
  config: ShopConfig
  /** Filters to add at start; more can be added at run time through `fastify.shop.filters`. */
  filters?: readonly FilterRegistration[]
  now?: () => Date
  /** Counts login attempts and the Store API's limited requests (without one, nothing is limited). */
  rateCounter?: RateCounter
  /** Login throttling (hosts/reference-shop/auth/login-limit.ts): each part given replaces the default's. */
  loginLimits?: Partial<LoginLimits>
  /**
   * Trusted proxy ranges, for the client address of every limit of the shop (login, Store API): the default value of
   * `svc_rest_trusted_proxy_cidrs`, as for `svc/v1`.
   */
  trustedProxyCidrs?: readonly string[]
  /** Replaces named Store API rate limits (hosts/reference-shop/store-api/rate-limits.ts); they count in `rateCounter`. */
  storeApiRateLimits?: Partial<ShopRateLimits>
  /** Multiplies every Store API rate limit: for benchmarks only. */
  rateLimitMultiplier?: number
  /** A rate counter slower than this refuses rate-limited Store API requests with 503 (default 250 ms). */
  rateCounterTimeoutMs?: number
  /** Origins whose pages may post to the classic `?wc-ajax=` cart besides the shop's own. */
  allowedOrigins?: readonly string[]
  /** The sweep of expired guest carts and sessions (hosts/reference-shop/maintenance/sweep.ts), or false for none. */
  sweep?: SweepOptions | false
  /** WooCommerce's `woocommerce_store_api_disable_nonce_check`: false lets cookie-session Store API writes go without a `Nonce` (default true). */
  storeApiNonceCheck?: boolean
  /**
   * scrypt's parameters for password hashes (default OWASP's N=2^17, r=8, p=1: 128 MiB per hash). A stored hash made
   * with others is made again at the user's next login. The tests pass cheaper ones (docs/security.md).
   */
  passwordHashing?: ScryptParams
  /** Login sessions: idle timeout and absolute lifetime (default 30 minutes and 12 hours). */
  sessions?: Partial<SessionLimits>
}

export type { Shop }

declare module 'fastify' {
  interface FastifyInstance {
    shop: Shop
  }
}

/**
 * The reference platform: catalog, carts, coupons, login and nonces, filters, the Store API, the classic AJAX
 * cart and the storefront page.
 */
export const shopPlugin = fp<ShopPluginOptions>(async (fastify, options) => {
  const homeUrl = options.homeUrl.replace(/\/+$/, '')
  const clock = options.now
  const millis = clock && (() => clock().getTime())
  await fastify.register(cookie, { secret: [...options.secrets] })

  const filters = new FilterRegistry((name, error) => {
    fastify.log.error({ err: error, filter: name }, 'a filter callback threw; its input value was kept')
  })
  for (const { name, callback, priority } of options.filters ?? []) filters.add(name, callback as FilterCallback<typeof name>, priority)

  const nonces = createNonceService({ secrets: options.secrets, now: millis })
  const clientOf = clientAddressResolver({ cidrs: options.trustedProxyCidrs, filter: (cidrs) => filters.apply('svc_rest_trusted_proxy_cidrs', cidrs) })
  const loginLimits: LoginLimits = { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits }
  const carts = new CartService(options.storage, options.config, clock)
  const platform: Omit<Shop, 'commerce'> = {
    storage: options.storage,
    carts,
    // The order is priced as the cart is, reward tiers included.
    checkout: new CheckoutService(options.storage, options.config, clock, carts),
    cartTokens: createCartTokenSigner({ secrets: options.secrets, now: millis }),
    auth: new AuthService(options.storage, nonces, {
      now: clock,
      passwords: new PasswordHasher(options.passwordHashing ?? OWASP_SCRYPT),
      sessions: { ...DEFAULT_SESSION_LIMITS, ...options.sessions }
    }),
    filters,
    extendSchema: new ExtendSchema(),
    serializeContext: { currency: options.config.currency, homeUrl },
    restRoot: options.restRoot,
    homeUrl,
    siteUrl: options.siteUrl.replace(/\/+$/, ''),
    now: clock ?? (() => new Date()),
    logins: options.rateCounter === undefined
      ? UNLIMITED_LOGINS
      : createLoginThrottle(options.rateCounter, loginLimits, (error, what) => fastify.log.error({ err: error }, what)),
    knownDeviceMs: loginLimits.knownDeviceMs,
    clientOf,
    storeApiNonce: (request, reply) => storeApiNonceFor(request, reply, { ...platform, nonces })
  }
  const limiter: ShopRateLimiter | null = options.rateCounter === undefined
    ? null
    : createShopRateLimiter(fastify, {
      counter: options.rateCounter,
      storage: options.storage,
      cartTokens: platform.cartTokens,
      auth: platform.auth,
      clientOf,
      timeoutMs: options.rateCounterTimeoutMs,
      multiplier: options.rateLimitMultiplier,
      limits: options.storeApiRateLimits
    })
  const shop: Shop = { ...platform, commerce: createCommerce(platform, limiter) }
  fastify.decorate('shop', shop)
  // A session whose id was renewed during a request (a privilege change) sends the new id with the answer.
  installSessionRenewal(fastify)

  if (options.sweep !== false) scheduleSweep(fastify, options.storage, shop.now, options.sweep)

  await fastify.register(async (storeApi) => {
    storeApi.setErrorHandler(storeApiErrorHandler)
    limiter?.installStoreApi(storeApi)
    storeApi.addHook('onSend', async (_request, reply) => {
      reply.header('Access-Control-Expose-Headers', 'Cart-Token, Cart-Hash, Nonce, Nonce-Timestamp, User-ID, Idempotent-Replayed')
    })
    installCartScope(storeApi, { nonces, auth: shop.auth, cartTokens: shop.cartTokens, nonceCheck: options.storeApiNonceCheck !== false, signCartToken: (key) => shop.cartTokens.sign(key) })
    // The cart-changing routes (`config.idempotent`) take an Idempotency-Key, kept in the storage for every instance.
    installIdempotency(storeApi, { store: options.storage, now: shop.now, identify: storeApiIdentity(shop) })
    await storeApi.register(cartRoutes)
    await storeApi.register(storeApiCartRoutes)
    await storeApi.register(productRoutes)
    await storeApi.register(checkoutRoutes)
    await storeApi.register(orderRoutes)
  }, { prefix: `${options.restRoot}wc/store/v1` })
  await fastify.register(accountRoutes)
  await fastify.register(wcAjaxRoutes, { allowedOrigins: options.allowedOrigins, limiter })
  await fastify.register(storefrontRoutes)
}, { name: 'shop', fastify: '5.x' })

export type { FilterRegistration, FilterCallback, FilterName } from './filters/registry.ts'
export { SESSION_COOKIE } from './auth/session-cookie.ts'
export { CART_COOKIE } from './session/store-api-session.ts'
export { MANAGE_SHOP } from './auth/auth-service.ts'
export { hashPassword, OWASP_SCRYPT, type ScryptParams } from './auth/password.ts'
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from './auth/auth-service.ts'
export { createCartTokenSigner, type CartTokenSigner } from './session/cart-token.ts'
export { DEFAULT_LOGIN_LIMITS, loginDelayMs, type LoginLimits } from './auth/login-limit.ts'
export { DEVICE_COOKIE } from './auth/known-device.ts'
export { SHOP_RATE_LIMITS, type ShopRateLimits, type ShopRateLimit } from './store-api/rate-limits.ts'
export { DEFAULT_SWEEP, sweepExpired, type SweepOptions, type SweepResult } from './maintenance/sweep.ts'
export { newCartKey } from './session/cart-key.ts'
export { serializeCart, type StoreApiCart } from './store-api/serialize-cart.ts'
export { serializeProduct } from './store-api/serialize-product.ts'
export { healthPlugin } from './health/index.ts'
export { htmlSecurityPlugin } from './html-security/index.ts'
export { CART_KEYS } from './schemas/store-api-cart.ts'
