import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { RestError, restError, restErrorHandler } from '../../../kernel/errors/index.ts'
import type { RateCounter } from '../../../storage/contract/index.ts'
import { resolveAccess } from './access.ts'
import { applyCacheHeaders } from './cache-headers.ts'
import { clientAddressResolver } from './client-ip.ts'
import type { SvcRequestContext } from './context.ts'
import { setCorsHeaders, setPreflightHeaders } from './cors.ts'
import { checkOrigin, normaliseOrigins, originOf } from './origin.ts'
import { countRequest, type RateDecision } from './rate-limit.ts'
import { cartIdentity, installIdempotency, userIdentity } from '../idempotency/index.ts'
import { refusedRequest } from './request-rules.ts'
import { BODY_LIMITS, type HttpMethod, type SvcRouteSpec } from './route-rules.ts'

export interface SecurityPluginOptions {
  rateCounter: RateCounter
  /** Default value of the filter `svc_rest_allowed_origins`: origins allowed besides the home and site URLs'. */
  allowedOrigins?: readonly string[]
  /** Default value of the filter `svc_rest_trusted_proxy_cidrs`. */
  trustedProxyCidrs?: readonly string[]
  /**
   * A counter slower than this refuses limited routes with 503 (design §3.5); one with a per-instance fallback answers
   * from it before (its timeout is shorter).
   */
  counterTimeoutMs?: number
  /** Multiplies every rate limit (benchmarks only; 1 in production). */
  rateLimitMultiplier?: number
}

/** Who an `svc/v1` request acts for, as access resolved it: its cart and user, or the admin; null before access ran. */
function svcIdentity (request: FastifyRequest): string | null {
  const context = request.svc
  if (context === null) return null
  if (context.cartKey !== null) return cartIdentity(context.cartKey, context.user?.id ?? null)
  return context.user === null ? null : userIdentity(context.user.id)
}

/** Splits a request URL without allocating for the common case of no query string. */
function splitUrl (url: string): { path: string, query: URLSearchParams | null } {
  const mark = url.indexOf('?')
  return mark === -1 ? { path: url, query: null } : { path: url.slice(0, mark), query: new URLSearchParams(url.slice(mark + 1)) }
}

/**
 * Every rule of specification §4.4, §5, §7 and §8 for the routes under `{restRoot}svc/v1`: origin check and CORS,
 * JSONP and method-override refusal, 405 with `Allow`, caching headers, access groups, rate limits per IP and per
 * visitor, body limits, and errors in the one shape. A route declares its rules in its own options (`config.svc`,
 * `bodyLimit`: see ./route-rules.ts); routes must be added after this plugin, which collects them as they are. A
 * cart-changing route that declares `idempotent` takes an `Idempotency-Key` (../idempotency/), kept in the drawer's
 * `idempotency` store when it has one.
 */
export const securityPlugin = fp<SecurityPluginOptions>(async (fastify, options) => {
  const shop = fastify.commerce
  const prefix = `${shop.restRoot}svc/v1`
  const isSvc = (url: string) => url.startsWith(prefix) && (url.length === prefix.length || url[prefix.length] === '/' || url[prefix.length] === '?')
  // The raw URL or the matched route's pattern: the router decodes `/wp-json/%73vc/v1/cart` to an svc route.
  const isSvcRequest = (request: FastifyRequest) => isSvc(request.url) || isSvc(request.routeOptions.url ?? '')
  const siteOrigins = new Set([shop.homeUrl, shop.siteUrl].map(originOf).filter((origin): origin is string => origin !== null))
  const counterTimeoutMs = options.counterTimeoutMs ?? 250
  const multiplier = options.rateLimitMultiplier ?? 1
  const clientOf = clientAddressResolver({ cidrs: options.trustedProxyCidrs, filter: (cidrs) => shop.filters.apply('svc_rest_trusted_proxy_cidrs', cidrs) })
  let extraOriginsKey: string | undefined
  let extraOrigins = new Set<string>()
  let counterHealthy = true

  /** Path → methods of every svc route, for 405 answers and preflights. */
  const routes = new Map<string, Set<string>>()
  const registered: SvcRouteSpec[] = []
  fastify.decorate('svcRoutes', registered)
  fastify.addHook('onRoute', (route) => {
    if (!isSvc(route.url)) return
    const methods = routes.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    routes.set(route.url, methods)

    const rules = route.config?.svc
    if (rules === undefined) throw new Error(`The svc/v1 route ${String(route.method)} ${route.url} declares no rules (config.svc: edition and access group)`)
    const method = [route.method].flat()[0] as HttpMethod | 'HEAD'
    // A write route without a limit of its own takes the default (design §3.6).
    if (method !== 'GET' && method !== 'HEAD') route.bodyLimit ??= BODY_LIMITS.write
    const spec: SvcRouteSpec = {
      method: method === 'HEAD' ? 'GET' : method,
      path: route.url.slice(prefix.length),
      edition: rules.edition,
      access: rules.access,
      rateLimit: rules.rateLimit ?? null,
      bodyLimit: method === 'GET' || method === 'HEAD' ? null : route.bodyLimit ?? null
    }
    route.config = { ...route.config, svcRoute: spec }
    // The HEAD twin of a GET route shares its rules and is not listed.
    if (method !== 'HEAD') registered.push(spec)
  })
  // The cart-changing routes take an Idempotency-Key (`config.idempotent`), scoped to the cart and user access found.
  const idempotencyStore = fastify.drawerStores.idempotency
  if (idempotencyStore !== undefined) {
    installIdempotency(fastify, { store: idempotencyStore, now: () => shop.now(), identify: svcIdentity, routes: isSvc })
  }
  const allowOf = (path: string) => {
    const methods = routes.get(path)
    return methods ? [...methods, 'OPTIONS'].join(', ') : null
  }

  fastify.decorateRequest('svc', null)

  const configured = normaliseOrigins([...(options.allowedOrigins ?? [])])
  if (configured.invalid.length > 0) fastify.log.warn({ invalid: configured.invalid }, 'allowedOrigins: entries that are not origins were ignored')
  const configuredOrigins = configured.origins

  async function allowedExtraOrigins (): Promise<Set<string>> {
    // Without a filter the list is the configured one: nothing to run or compare on each request.
    if (!shop.filters.has('svc_rest_allowed_origins')) return configuredOrigins
    const values = await shop.filters.apply('svc_rest_allowed_origins', [...(options.allowedOrigins ?? [])])
    const list = Array.isArray(values) ? values : []
    const key = JSON.stringify(list)
    if (key !== extraOriginsKey) {
      const { origins, invalid } = normaliseOrigins(list)
      if (invalid.length > 0) fastify.log.warn({ invalid }, 'svc_rest_allowed_origins: entries that are not origins were ignored')
      extraOrigins = origins
      extraOriginsKey = key
    }
    return extraOrigins
  }

  fastify.addHook('onRequest', async (request, reply) => {
    if (!isSvcRequest(request)) return
    const verdict = checkOrigin(request.headers, siteOrigins, await allowedExtraOrigins())
    if (verdict.kind === 'refused') throw restError('svc_forbidden_origin')
    if (verdict.kind === 'allowed' && verdict.crossOrigin) setCorsHeaders(reply, verdict.origin)

    const { query } = splitUrl(request.url)
    const refused = query === null
      ? (request.headers['x-http-method-override'] !== undefined || request.headers['x-method-override'] !== undefined ? 'svc_method_override_disabled' : null)
      : refusedRequest(request.headers, query)
    if (refused !== null) throw restError(refused)

    const { svcRoute: spec, svc: rules } = request.routeOptions.config
    if (spec === undefined) return
    const route = `${spec.method} ${spec.path}`
    // A cart route's visitor is its Cart-Token's cart, known before the cart is read: the counter is asked while the
    // cart is read instead of after it. Access is still answered first: a request it refuses gets that refusal.
    const tokenCart = spec.rateLimit !== null && spec.access === 'cart' ? cartKeyOfHeader(request) : null
    const early = tokenCart === null ? null : count(request, route, spec.rateLimit!, `cart:${tokenCart}`)
    early?.catch(() => {})
    request.svc = await resolveAccess(request, shop, spec.access, rules?.drawerSnapshot === true, rules?.cachedView?.(request) ?? null,
      rules?.guestWithoutRead === true, rules?.sessionCart)
    if (spec.rateLimit !== null) answerLimit(reply, await (early ?? count(request, route, spec.rateLimit, visitorOf(request.svc))))
    if (spec.access === 'cart' && spec.method !== 'GET' && rules?.changesCart !== false && request.svc.cartUnread !== true) await countCartStart(request, reply)
  })

  /**
   * A cart write on a cart not stored yet starts one: the shop counts it against its limit on new carts, so fresh
   * Cart-Tokens (one `GET` each) start no more carts here than through the Store API.
   */
  async function countCartStart (request: FastifyRequest, reply: FastifyReply) {
    const context = request.svc!
    if (shop.countCartStart === undefined || context.cartKey === null || context.snapshot !== null) return
    let count
    try {
      count = await shop.countCartStart(request, context.cartKey, context.cartRead)
    } catch (error) {
      if (error instanceof RestError) throw error
      request.log.error({ err: error }, 'the shop could not count a new cart: the write answers 503')
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' })
    }
    if (count === null) return
    // The headers tell the tighter of the route's limit and this one.
    const remaining = Number(reply.getHeader('X-RateLimit-Remaining') ?? Infinity)
    if (count.retryAfterSeconds > 0 || count.remaining < remaining) {
      reply.header('X-RateLimit-Limit', String(count.limit))
      reply.header('X-RateLimit-Remaining', String(count.remaining))
    }
    if (count.retryAfterSeconds > 0) {
      throw restError('svc_rate_limit_exhausted', undefined, undefined, { 'Retry-After': String(count.retryAfterSeconds) })
    }
  }

  /** The valid Cart-Token's cart key, or null (no token, or one that does not verify: access refuses it). */
  function cartKeyOfHeader (request: FastifyRequest): string | null {
    const header = request.headers['cart-token']
    const token = Array.isArray(header) ? header[0] : header
    return token === undefined ? null : shop.cartKeyOfToken(token)
  }

  /** Who a limited request counts against besides its client: the admin, or the cart the request names. */
  function visitorOf (context: SvcRequestContext): string | null {
    if (context.user !== null && context.group === 'admin') return `user:${context.user.id}`
    return context.cartKey === null ? null : `cart:${context.cartKey}`
  }

  /** Counts the request against the route's windows; a counter that fails or is late becomes the 503. */
  async function count (request: FastifyRequest, route: string, rateLimit: { max: number, windowMs: number }, visitor: string | null): Promise<RateDecision> {
    // IPv4 whole, IPv6 per /64 (./client-ip.ts), as every other limit of the app counts.
    const ip = (await clientOf(request)).bucket
    const scaled = { max: Math.max(1, Math.floor(rateLimit.max * multiplier)), windowMs: rateLimit.windowMs }
    let decision
    try {
      decision = await countRequest(options.rateCounter, route, scaled, { ip, visitor }, counterTimeoutMs)
    } catch (error) {
      if (counterHealthy) request.log.error({ err: error }, 'rate counter unavailable: limited routes answer 503')
      counterHealthy = false
      throw restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' })
    }
    if (!counterHealthy) request.log.info('rate counter available again')
    counterHealthy = true
    return decision
  }

  function answerLimit (reply: FastifyReply, decision: RateDecision): void {
    reply.header('X-RateLimit-Limit', String(decision.limit))
    reply.header('X-RateLimit-Remaining', String(decision.remaining))
    if (!decision.allowed) {
      throw restError('svc_rate_limit_exhausted', undefined, undefined, { 'Retry-After': String(decision.retryAfterSeconds) })
    }
  }

  // Without a promise: it runs on every answer of the host.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!isSvcRequest(request)) {
      done(null, payload)
      return
    }
    // Whatever the host sends elsewhere, no answer of the drawer's is ever sniffed into another type.
    reply.header('X-Content-Type-Options', 'nosniff')
    done(null, applyCacheHeaders(request, reply, payload, request.routeOptions.config.svc?.access === 'public'))
  })

  // Below the prefix, an unknown path is a 404 and a known path with another method a 405 (or a preflight).
  await fastify.register(async (scope) => {
    scope.setErrorHandler(restErrorHandler)
    scope.setNotFoundHandler(async (request, reply) => {
      const allow = allowOf(splitUrl(request.url).path)
      if (allow === null) throw restError('svc_not_found')
      reply.header('Allow', allow)
      if (request.method === 'OPTIONS') {
        setPreflightHeaders(reply, allow)
        return reply.code(204).send()
      }
      throw restError('svc_method_not_allowed', `Method ${request.method} is not allowed here; allowed: ${allow}.`)
    })
  }, { prefix })
}, { name: 'security', fastify: '5.x', dependencies: ['commerce'] })

export type { SvcRequestContext } from './context.ts'
export { BODY_LIMITS, perHour, perMinute, type SvcRouteRules, type SvcRouteSpec, type AccessGroup, type Edition, type RateLimit, type HttpMethod } from './route-rules.ts'
export { addressBucket, clientAddressResolver, compileTrustedProxies, type ClientAddress, type ClientAddressOf, type TrustedProxySource, type TrustFunction } from './client-ip.ts'
