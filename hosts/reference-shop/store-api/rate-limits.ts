import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { restError } from '../../../kernel/errors/index.ts'
import type { CartStore, RateCounter, RateHit } from '../../../storage/contract/index.ts'
import { type RateCount, perHour, perMinute, type ClientAddressOf, type RateLimit } from '../../../drawer/index.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { isCartKey } from '../session/cart-key.ts'
import type { CartTokenSigner } from '../session/cart-token.ts'
import { cookieCartKey } from '../session/store-api-session.ts'

/**
 * Rate limits of the Store API writes a script could abuse: coupon guessing, checkout, and starting carts. A route
 * names its limit once, in its options (`config: { shopRateLimit: 'coupon' }`); one `onRequest` hook on the Store API
 * scope counts it, before the body is read and before anything is changed, in the service's rate counter (Redis in
 * production, so every instance shares the counts), and answers as `svc/v1` does: `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining` on counted requests, 429 `svc_rate_limit_exhausted` with `Retry-After` past the limit, and
 * 503 `svc_rate_limit_unavailable` when the counter fails or is slow (fail closed; the production counter does neither
 * while Redis is down: it counts per instance, `withFallbackCounter`). Every attempt is counted,
 * whatever its outcome. Besides the named limits, every write that starts a new cart counts against `newCart`, per
 * client IP: a write naming no cart (no valid Cart-Token, no cart cookie, no logged-in user), or one whose token or
 * cookie names a cart that is not stored yet (a `GET cart` or a page's nonce hands out both for a cart it does not
 * store, so a script could otherwise start carts without limit). The drawer's `svc/v1` writes that start a cart count
 * against the same `newCart` limit (`countCartStart`, through the commerce port), so a fresh Cart-Token — one `GET`
 * away — buys no cart the Store API would refuse. Client addresses are the app's one rule (`clientAddressResolver` of
 * the security plugin: the filter `svc_rest_trusted_proxy_cidrs`, an IPv6 address counted for its /64).
 */

export interface ShopRateLimit {
  /** Windows counted per client IP (IPv6: per /64). */
  perIp: readonly RateLimit[]
  /** Windows counted per cart (the Cart-Token's or cookie's cart, or the logged-in user's); none for a new cart. */
  perCart: readonly RateLimit[]
}

export type ShopRateLimitName = 'coupon' | 'checkout' | 'newCart'
export type ShopRateLimits = Record<ShopRateLimitName, ShopRateLimit>

/**
 * The named limits. Shoppers behind one address (an office, a mobile carrier's NAT) share its per-IP count, so a
 * coupon's per-IP allowance is twice the per-cart one.
 */
export const SHOP_RATE_LIMITS: ShopRateLimits = {
  /** Applying a coupon (`cart/apply-coupon`, `POST cart/coupons`): guessing codes. */
  coupon: { perIp: [perMinute(20), perHour(60)], perCart: [perMinute(10), perHour(30)] },
  /** Placing an order (`POST checkout`): card testing, stock hoarding. */
  checkout: { perIp: [perMinute(10)], perCart: [perMinute(10)] },
  /** Writes that start a new cart: filling the database with carts. */
  newCart: { perIp: [perHour(60)], perCart: [] }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A Store API route's named rate limit (hosts/reference-shop/store-api/rate-limits.ts). */
    shopRateLimit?: Exclude<ShopRateLimitName, 'newCart'>
    /** A classic-cart route that stores the cookie's cart (`installClassic`): its writes may start one. */
    startsCart?: boolean
  }
}

export interface ShopRateLimiterOptions {
  counter: RateCounter
  storage: Pick<CartStore, 'getCart'>
  cartTokens: CartTokenSigner
  auth: AuthService
  /** The client address and its rate-limit bucket (the security plugin's `clientAddressResolver`). */
  clientOf: ClientAddressOf
  /** A counter store slower than this refuses limited requests with 503 (default 250 ms, as `svc/v1`). */
  timeoutMs?: number
  /** Multiplies every limit (benchmarks only). */
  multiplier?: number
  /** Replaces named limits of the table. */
  limits?: Partial<ShopRateLimits>
}

export interface ShopRateLimiter {
  /** Adds the hook that enforces the limits to a Store API scope (add it before the scope's routes). */
  installStoreApi (scope: FastifyInstance): void
  /**
   * Adds the `newCart` count to the classic cart's routes that declare `config.startsCart`: their cart is the cookie's
   * (a `Cart-Token` does not name it there), else the logged-in user's.
   */
  installClassic (scope: FastifyInstance): void
  /**
   * Counts a write that starts the cart `key` (not stored yet) against `newCart`, for the request's client; writes
   * racing to start the same cart share one count. Throws 503 `svc_rate_limit_unavailable` when the counter store
   * fails.
   */
  countCartStart (request: FastifyRequest, key: string | null): Promise<RateCount>
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function withTimeout<T> (promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`rate counter did not answer within ${timeoutMs} ms`)), timeoutMs)
    })
  ]).finally(() => clearTimeout(timer))
}

type Counted = { max: number, windowMs: number, key: string }
type Counting = Promise<Array<{ counted: Counted, hit: RateHit }>>

/** The tightest of the windows counted (the one with the fewest requests left) and, past a limit, the wait. */
function verdictOf (results: Awaited<Counting>): RateCount {
  let tightest = { limit: Infinity, remaining: Infinity }
  let retryAfterMs = -1
  for (const { counted: { max }, hit } of results) {
    const remaining = Math.max(0, max - hit.count)
    if (remaining < tightest.remaining || (remaining === tightest.remaining && max < tightest.limit)) tightest = { limit: max, remaining }
    if (hit.count > max) retryAfterMs = Math.max(retryAfterMs, hit.resetInMs)
  }
  return { ...tightest, retryAfterSeconds: retryAfterMs < 0 ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)) }
}

/**
 * The shop's rate limiter: `installStoreApi` adds the Store API's hook, `countCartStart` counts new carts for the
 * drawer's writes. `root` is the app (its `onResponse` hook ends the sharing of a racing cart start).
 */
export function createShopRateLimiter (root: FastifyInstance, options: ShopRateLimiterOptions): ShopRateLimiter {
  const limits: ShopRateLimits = { ...SHOP_RATE_LIMITS, ...options.limits }
  const timeoutMs = options.timeoutMs ?? 250
  const multiplier = options.multiplier ?? 1
  let counterHealthy = true

  /**
   * The cart the request names, if any (a valid Cart-Token, else the cart cookie, else the logged-in user), as a
   * counter key, with its cart key when a token or cookie named it.
   */
  async function namedCart (request: FastifyRequest, useToken = true): Promise<{ counted: string, key: string | null } | null> {
    const header = request.headers['cart-token']
    if (useToken && typeof header === 'string' && header !== '') {
      const key = options.cartTokens.verify(header)
      if (key !== null && isCartKey(key)) return { counted: `cart:${key}`, key }
    }
    const fromCookie = cookieCartKey(request)
    if (fromCookie !== null) return { counted: `cart:${fromCookie}`, key: fromCookie }
    const authenticated = await requestUser(request, options.auth)
    return authenticated === null ? null : { counted: `user:${authenticated.user.id}`, key: null }
  }

  /** Whether a write starts a cart: it names none, or names one by token or cookie that is not stored. */
  async function startsCart (named: { key: string | null } | null): Promise<boolean> {
    if (named === null) return true
    return named.key !== null && await options.storage.getCart(named.key) === null
  }

  async function count (request: FastifyRequest, counted: Counted[]): Counting {
    if (counted.length === 0) return []
    let hits: RateHit[]
    try {
      hits = await withTimeout(Promise.all(counted.map(({ key, windowMs }) => options.counter.hit(key, windowMs))), timeoutMs)
    } catch (error) {
      if (counterHealthy) request.log.error({ err: error }, 'rate counter unavailable: rate-limited shop requests answer 503')
      counterHealthy = false
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' })
    }
    if (!counterHealthy) request.log.info('rate counter available again')
    counterHealthy = true
    return hits.map((hit, index) => ({ counted: counted[index]!, hit }))
  }

  const scale = (window: RateLimit) => ({ max: Math.max(1, Math.floor(window.max * multiplier)), windowMs: window.windowMs })
  /** The windows of a limit for a client bucket and, when one is named, a cart. */
  const countedOf = (name: ShopRateLimitName, limit: ShopRateLimit, bucket: string, cart: string | null): Counted[] => [
    ...limit.perIp.map((window) => ({ ...scale(window), key: `shop:${name}:${window.windowMs}:ip:${bucket}` })),
    ...(cart === null ? [] : limit.perCart.map((window) => ({ ...scale(window), key: `shop:${name}:${window.windowMs}:${cart}` })))
  ]

  // Writes racing to start the same cart on this instance are one new cart: they share the first one's count (and
  // its verdict) until it is answered. A cart whose first write was refused is counted again on its next write.
  const starting = new Map<string, Counting>()
  const started = new WeakMap<FastifyRequest, string>()
  root.addHook('onResponse', (request, _reply, done) => {
    const key = started.get(request)
    if (key !== undefined) starting.delete(key)
    done()
  })

  function countStart (request: FastifyRequest, key: string | null, bucket: string): Counting {
    const shared = key === null ? undefined : starting.get(key)
    if (shared !== undefined) return shared
    const counting = count(request, countedOf('newCart', limits.newCart, bucket, null))
    if (key !== null) {
      starting.set(key, counting)
      started.set(request, key)
      counting.catch(() => {})
    }
    return counting
  }

  function installStoreApi (scope: FastifyInstance): void {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.url === undefined) return
      const named = request.routeOptions.config?.shopRateLimit
      const write = WRITE_METHODS.has(request.method)
      if (named === undefined && !write) return
      const cartNamed = await namedCart(request)
      const cart = cartNamed?.counted ?? null
      const startsNew = write && await startsCart(cartNamed)
      if (named === undefined && !startsNew) return

      const { bucket } = await options.clientOf(request)
      const countings: Counting[] = []
      if (named !== undefined) countings.push(count(request, countedOf(named, limits[named], bucket, cart)))
      if (startsNew) countings.push(countStart(request, cartNamed?.key ?? null, bucket))
      answer(reply, (await Promise.all(countings)).flat())
    })
  }

  function answer (reply: FastifyReply, results: Awaited<Counting>): void {
    if (results.length === 0) return
    const verdict = verdictOf(results)
    reply.header('X-RateLimit-Limit', String(verdict.limit))
    reply.header('X-RateLimit-Remaining', String(verdict.remaining))
    if (verdict.retryAfterSeconds > 0) {
      throw restError('svc_rate_limit_exhausted', undefined, undefined, { 'Retry-After': String(verdict.retryAfterSeconds) })
    }
  }

  function installClassic (scope: FastifyInstance): void {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.config?.startsCart !== true || !WRITE_METHODS.has(request.method)) return
      const named = await namedCart(request, false)
      if (!await startsCart(named)) return
      const { bucket } = await options.clientOf(request)
      answer(reply, await countStart(request, named?.key ?? null, bucket))
    })
  }

  return {
    installStoreApi,
    installClassic,
    async countCartStart (request, key) {
      const { bucket } = await options.clientOf(request)
      return verdictOf(await countStart(request, key, bucket))
    }
  }
}
