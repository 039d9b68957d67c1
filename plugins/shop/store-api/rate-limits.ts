import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import proxyAddr from 'proxy-addr'
import { restError } from '../../../errors/index.ts'
import type { RateCounter, RateHit, Storage } from '../../../storage/types.ts'
import { compileTrustedProxies, perHour, perMinute, type RateLimit, type TrustFunction } from '../../security/index.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { requestUser } from '../auth/session-cookie.ts'
import type { FilterRegistry } from '../filters/registry.ts'
import { isCartKey } from '../session/cart-key.ts'
import type { CartTokenSigner } from '../session/cart-token.ts'
import { cookieCartKey } from '../session/store-api-session.ts'

/**
 * Rate limits of the Store API writes a script could abuse: coupon guessing, checkout, and starting carts. A route
 * names its limit once, in its options (`config: { shopRateLimit: 'coupon' }`); one `onRequest` hook on the Store API
 * scope counts it, before the body is read and before anything is changed, in the service's rate counter (Redis in
 * production, so every instance shares the counts), and answers as `svc/v1` does: `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining` on counted requests, 429 `svc_rate_limit_exhausted` with `Retry-After` past the limit, and
 * 503 `svc_rate_limit_unavailable` when the counter store fails or is slow (fail closed). Every attempt is counted,
 * whatever its outcome. Besides the named limits, every write that starts a new cart counts against `newCart`, per
 * client IP: a write naming no cart (no valid Cart-Token, no cart cookie, no logged-in user), or one whose token or
 * cookie names a cart that is not stored yet (a `GET cart` or a page's nonce hands out both for a cart it does not
 * store, so a script could otherwise start carts without limit). Client IPs are found as `svc/v1` finds them
 * (the filter `svc_rest_trusted_proxy_cidrs`); an IPv6 address counts for its /64, which one host usually holds whole.
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
    /** A Store API route's named rate limit (plugins/shop/store-api/rate-limits.ts). */
    shopRateLimit?: Exclude<ShopRateLimitName, 'newCart'>
  }
}

export interface StoreApiRateLimitOptions {
  counter: RateCounter
  storage: Pick<Storage, 'getCart'>
  filters: FilterRegistry
  cartTokens: CartTokenSigner
  auth: AuthService
  /** Default value of the filter `svc_rest_trusted_proxy_cidrs`. */
  trustedProxyCidrs?: readonly string[]
  /** A counter store slower than this refuses limited requests with 503 (default 250 ms, as `svc/v1`). */
  timeoutMs?: number
  /** Multiplies every limit (benchmarks only). */
  multiplier?: number
  /** Replaces named limits of the table. */
  limits?: Partial<ShopRateLimits>
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The counted part of an address: an IPv6 address's /64, any other address whole. */
export function rateKeyOfIp (ip: string): string {
  if (!ip.includes(':')) return ip
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]!
  const address = ip.replace(/%.*$/, '').toLowerCase()
  const [head = '', tail] = address.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups]
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

function withTimeout<T> (promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`rate counter did not answer within ${timeoutMs} ms`)), timeoutMs)
    })
  ]).finally(() => clearTimeout(timer))
}

/** Adds the hook that enforces the limits to a Store API scope (add it before the scope's routes). */
export function installStoreApiRateLimits (scope: FastifyInstance, options: StoreApiRateLimitOptions): void {
  const limits: ShopRateLimits = { ...SHOP_RATE_LIMITS, ...options.limits }
  const timeoutMs = options.timeoutMs ?? 250
  const multiplier = options.multiplier ?? 1
  let proxiesKey: string | undefined
  let proxies: TrustFunction | undefined
  let counterHealthy = true

  async function clientIp (request: FastifyRequest): Promise<string> {
    try {
      const value = await options.filters.apply('svc_rest_trusted_proxy_cidrs', [...(options.trustedProxyCidrs ?? [])])
      const cidrs: unknown[] = Array.isArray(value) ? value : [value]
      const key = JSON.stringify(cidrs)
      if (key !== proxiesKey || proxies === undefined) {
        proxies = compileTrustedProxies(cidrs)
        proxiesKey = key
      }
      return proxyAddr(request.raw, proxies)
    } catch (error) {
      request.log.error({ err: error }, 'svc_rest_trusted_proxy_cidrs is not a valid list of proxy ranges')
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '60' })
    }
  }

  /**
   * The cart the request names, if any (a valid Cart-Token, else the cart cookie, else the logged-in user), as a
   * counter key, with its cart key when a token or cookie named it.
   */
  async function namedCart (request: FastifyRequest): Promise<{ counted: string, key: string | null } | null> {
    const header = request.headers['cart-token']
    if (typeof header === 'string' && header !== '') {
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

  type Counted = { max: number, windowMs: number, key: string }
  type Counting = Promise<Array<{ counted: Counted, hit: RateHit }>>

  async function count (request: FastifyRequest, counted: Counted[]): Counting {
    if (counted.length === 0) return []
    let hits: RateHit[]
    try {
      hits = await withTimeout(Promise.all(counted.map(({ key, windowMs }) => options.counter.hit(key, windowMs))), timeoutMs)
    } catch (error) {
      if (counterHealthy) request.log.error({ err: error }, 'rate counter unavailable: rate-limited Store API requests answer 503')
      counterHealthy = false
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' })
    }
    if (!counterHealthy) request.log.info('rate counter available again')
    counterHealthy = true
    return hits.map((hit, index) => ({ counted: counted[index]!, hit }))
  }

  // Writes racing to start the same cart on this instance are one new cart: they share the first one's count (and
  // its verdict) until it is answered. A cart whose first write was refused is counted again on its next write.
  const starting = new Map<string, Counting>()
  const started = new WeakMap<FastifyRequest, string>()
  scope.addHook('onResponse', async (request) => {
    const key = started.get(request)
    if (key !== undefined) starting.delete(key)
  })

  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.url === undefined) return
    const named = request.routeOptions.config?.shopRateLimit
    const write = WRITE_METHODS.has(request.method)
    if (named === undefined && !write) return
    const cartNamed = await namedCart(request)
    const cart = cartNamed?.counted ?? null
    const startsNew = write && await startsCart(cartNamed)
    if (named === undefined && !startsNew) return

    const ip = rateKeyOfIp(await clientIp(request))
    const scale = (window: RateLimit) => ({ max: Math.max(1, Math.floor(window.max * multiplier)), windowMs: window.windowMs })
    const countedOf = (name: ShopRateLimitName, limit: ShopRateLimit): Counted[] => [
      ...limit.perIp.map((window) => ({ ...scale(window), key: `shop:${name}:${window.windowMs}:ip:${ip}` })),
      ...(cart === null ? [] : limit.perCart.map((window) => ({ ...scale(window), key: `shop:${name}:${window.windowMs}:${cart}` })))
    ]
    const countings: Counting[] = []
    if (named !== undefined) countings.push(count(request, countedOf(named, limits[named])))
    if (startsNew) {
      const key = cartNamed?.key ?? null
      const shared = key === null ? undefined : starting.get(key)
      if (shared !== undefined) {
        countings.push(shared)
      } else {
        const counting = count(request, countedOf('newCart', limits.newCart))
        if (key !== null) {
          starting.set(key, counting)
          started.set(request, key)
          counting.catch(() => {})
        }
        countings.push(counting)
      }
    }
    const results = (await Promise.all(countings)).flat()

    // The headers tell the tightest of the windows counted: the one with the fewest requests left.
    let tightest = { limit: Infinity, remaining: Infinity }
    let retryAfterMs = -1
    for (const { counted: { max }, hit } of results) {
      const remaining = Math.max(0, max - hit.count)
      if (remaining < tightest.remaining || (remaining === tightest.remaining && max < tightest.limit)) tightest = { limit: max, remaining }
      if (hit.count > max) retryAfterMs = Math.max(retryAfterMs, hit.resetInMs)
    }
    if (results.length === 0) return
    reply.header('X-RateLimit-Limit', String(tightest.limit))
    reply.header('X-RateLimit-Remaining', String(tightest.remaining))
    if (retryAfterMs >= 0) {
      throw restError('svc_rate_limit_exhausted', undefined, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) })
    }
  })
}
