import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { AppOptions } from '../../app.ts'
import { errorTable, restError } from '../../kernel/errors/index.ts'
import type { SvcRouteSpec } from '../../drawer/index.ts'
import { MANAGE_SHOP, hashPassword } from '../../hosts/reference-shop/index.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { StorageUnavailableError } from '../../storage/contract/index.ts'
import type { RateCounter, Storage } from '../../storage/contract/index.ts'
import { build, createStorage, SITE_URL, STORE_API, TEST_LONG_SESSIONS, TEST_PASSWORD_HASHING } from '../helper.ts'

/**
 * Helpers for the security suite (test/drawer/plugins/security/): an app with a few test-only svc routes, visitors of every access
 * group, and the assertions every response of `svc/v1` must satisfy. Expected values are written out from the
 * specification and the design here, not imported from the plugin, so that the tests are an independent check.
 */

export const SVC = '/wp-json/svc/v1'
/** The site URL's origin and a different home URL, both allowed by default (specification §4.4.1). */
export const SITE_ORIGIN = SITE_URL
export const HOME_URL = 'https://www.shop.test'
/** An extra origin given by the `allowedOrigins` option (the default value of `svc_rest_allowed_origins`). */
export const EXTRA_ORIGIN = 'https://partner.example'
/** An origin only the test adds through the filter `svc_rest_allowed_origins` at run time. */
export const FILTER_ORIGIN = 'https://late-partner.example:8443'

export const MINUTE = 60_000
export const HOUR = 3_600_000

export const USERS = {
  admin: { email: 'admin@shop.test', password: 'admin-password-1' },
  shopper: { email: 'shopper@shop.test', password: 'shopper-password-1' }
}

/** Specification §4.4.5. */
export const NO_STORE = {
  'cache-control': 'no-store, no-cache, must-revalidate, private',
  pragma: 'no-cache',
  expires: '0',
  vary: 'Cookie, Authorization, Origin'
}
/** Design §3.4: what a cross-origin caller may read. */
export const CORS_EXPOSED = ['Cart-Token', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Idempotent-Replayed']
export const CORS_ALLOWED_REQUEST_HEADERS = ['Cart-Token', 'X-WP-Nonce', 'Content-Type', 'Idempotency-Key']

/** Codes the security rules answer with: a response carrying none of them got through the rules. */
const RULE_CODES = new Set([
  'svc_forbidden_origin', 'svc_jsonp_disabled', 'svc_method_override_disabled', 'svc_method_not_allowed', 'svc_not_found',
  'svc_invalid_cart_token', 'svc_invalid_nonce', 'svc_not_logged_in', 'svc_forbidden', 'svc_rate_limit_exhausted',
  'svc_rate_limit_unavailable', 'svc_cart_session_unavailable', 'svc_storage_unavailable', 'svc_body_too_large',
  'svc_invalid_json', 'svc_unsupported_media_type', 'svc_internal_error'
])

function route (method: SvcRouteSpec['method'], path: string, access: SvcRouteSpec['access']): SvcRouteSpec {
  return { method, path, edition: 'free', access, rateLimit: null, bodyLimit: null }
}

/**
 * Test-only routes under the svc prefix, declaring their rules like the real ones: they show what a successful
 * public response and the request decoration look like.
 */
export const TEST_ROUTES = {
  /** Public and successful: `?fail=1` makes it answer an error instead. */
  publicData: route('GET', '/test/public-data', 'public'),
  /** Echoes the request decoration of a cart-session route. */
  whoami: route('GET', '/test/whoami', 'cart'),
  /** Echoes the request decoration of an admin route. */
  adminWhoami: route('GET', '/test/admin/whoami', 'admin')
} as const

/** A test route's options: its rules, declared on the route as the real routes do. */
function svcRuleOptions (spec: SvcRouteSpec) {
  return { config: { svc: { edition: spec.edition, access: spec.access, rateLimit: spec.rateLimit } } }
}

export interface AppClock {
  /** Moves the app's clock (Cart-Tokens, nonces, login sessions) forward. */
  advance (ms: number): void
  reset (): void
}

export interface SecurityApp {
  app: FastifyInstance
  storage: Storage
  clock: AppClock
  /** What the public test route answers; change it to change its ETag. */
  publicData: { value: unknown }
}

/**
 * A rate counter that never refuses: its clock jumps a day on every hit, so every hit opens a new window. The
 * tests of the other rules use it so that the limited rows never run out; the rate-limit tests use real windows.
 */
export function neverExhaustedCounter (): RateCounter {
  let time = 1_700_000_000_000
  return createMemoryRateCounter({ now: () => (time += 24 * HOUR) })
}

/** A counter whose store can be made to fail and recover, like a Redis outage. */
export function breakableCounter (inner: RateCounter): RateCounter & { broken: boolean } {
  return {
    name: 'breakable',
    broken: false,
    async hit (key, windowMs) {
      if (this.broken) throw new StorageUnavailableError('counter store down')
      return inner.hit(key, windowMs)
    },
    async peek (key, windowMs) {
      if (this.broken) throw new StorageUnavailableError('counter store down')
      return inner.peek(key, windowMs)
    },
    async reset (key, windowMs) {
      if (this.broken) throw new StorageUnavailableError('counter store down')
      return inner.reset(key, windowMs)
    },
    ping: () => inner.ping(),
    close: () => inner.close()
  }
}

/** A fresh PGlite database of its own (test/helpers/pglite.ts) with the demo shop and its admin and shopper, closed when the test ends. */
export async function createSecurityStorage (t: Test): Promise<Storage> {
  return createStorage(t, { backend: 'pglite', users: USERS })
}

/**
 * The whole app (Pro unless told otherwise) plus the test-only routes, ready (`build` of test/helper.ts). Home and
 * site URLs differ, and `EXTRA_ORIGIN` is allowed through the `allowedOrigins` option. Without a `storage`, a fresh
 * seeded one is made (with the admin and the shopper); without a `rateCounter`, one that never refuses.
 */
export async function buildSecurityApp (t: Test, options: Partial<AppOptions> = {}): Promise<SecurityApp> {
  let rateCounter = options.rateCounter
  if (rateCounter === undefined) {
    const counter = neverExhaustedCounter()
    t.teardown(() => counter.close())
    rateCounter = counter
  }
  let offset = 0
  const clock: AppClock = { advance: (ms) => { offset += ms }, reset: () => { offset = 0 } }
  const publicData = { value: { bundles: [{ id: 1, name: 'Starter bundle' }] } as unknown }
  const app = await build(t, {
    // Counting must not be refused because a loaded test machine answers slower than production's 250 ms.
    rateCounterTimeoutMs: 2000,
    homeUrl: HOME_URL,
    edition: 'pro',
    allowedOrigins: [EXTRA_ORIGIN],
    now: () => new Date(Date.now() + offset),
    // The suite ages nonces and tokens by hours while its users stay logged in.
    sessions: TEST_LONG_SESSIONS,
    ...options,
    rateCounter,
    // A storage of the caller's is used as it is; one made here gets the demo shop and USERS.
    seed: options.storage === undefined,
    users: USERS,
    beforeReady: (app) => {
      app.get(`${SVC}${TEST_ROUTES.publicData.path}`, svcRuleOptions(TEST_ROUTES.publicData), async (request) => {
        if ((request.query as Record<string, unknown>).fail !== undefined) {
          throw restError('svc_invalid_params', 'Invalid parameter(s): fail', { params: { fail: 'was requested' } })
        }
        return publicData.value
      })
      const whoami = async (request: { svc: { group: string, cartKey: string | null, user: { id: number } | null } | null }) => ({
        group: request.svc?.group ?? null,
        cartKey: request.svc?.cartKey ?? null,
        userId: request.svc?.user?.id ?? null
      })
      app.get(`${SVC}${TEST_ROUTES.whoami.path}`, svcRuleOptions(TEST_ROUTES.whoami), whoami)
      app.get(`${SVC}${TEST_ROUTES.adminWhoami.path}`, svcRuleOptions(TEST_ROUTES.adminWhoami), whoami)
    }
  })
  return { app, storage: app.shop.storage, clock, publicData }
}

// ---------------------------------------------------------------------------------------------- visitors

export interface Login {
  /** The `Cookie` header value a browser would send after logging in. */
  cookie: string
  nonce: string
  userId: number
}

export async function login (app: FastifyInstance, who: { email: string, password: string }): Promise<Login> {
  const response = await app.inject({ method: 'POST', url: '/account/login', payload: who })
  if (response.statusCode !== 200) throw new Error(`login of ${who.email} failed: ${response.statusCode} ${response.body}`)
  const body = response.json() as { nonce: string, user: { id: number } }
  return { cookie: response.cookies.map(({ name, value }) => `${name}=${value}`).join('; '), nonce: body.nonce, userId: body.user.id }
}

export async function logout (app: FastifyInstance, session: Login): Promise<void> {
  const response = await app.inject({ method: 'POST', url: '/account/logout', headers: { cookie: session.cookie } })
  if (response.statusCode !== 200) throw new Error(`logout failed: ${response.statusCode}`)
}

/** Admins besides the seeded one (for per-IP limits of admin routes, which need many admins behind one IP). */
export async function seedAdmins (storage: Storage, count: number): Promise<Array<{ email: string, password: string }>> {
  const password = 'pool-admin-password-1'
  const passwordHash = await hashPassword(password, TEST_PASSWORD_HASHING)
  const admins = Array.from({ length: count }, (_, index) => ({ email: `admin-${index}@shop.test`, password }))
  for (const { email } of admins) {
    await storage.ensureUser({ email, displayName: email, passwordHash, capabilities: [MANAGE_SHOP, 'read'] })
  }
  return admins
}

/** A Cart-Token as a browser gets it: from the `Cart-Token` header of `GET {rest_root}wc/store/v1/cart`. */
export async function newCartToken (app: FastifyInstance, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers })
  const token = response.headers['cart-token']
  if (typeof token !== 'string') throw new Error(`no Cart-Token from the Store API (${response.statusCode})`)
  return token
}

/** The cart key a Cart-Token carries (its `user_id` claim). */
export function cartKeyOf (token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { user_id: string }).user_id
}

/** A visitor of any group: the headers it sends. */
export type Visitor = Record<string, string>

export const asGuest = (cartToken: string): Visitor => ({ 'cart-token': cartToken })
export const asShopper = (session: Login, cartToken: string): Visitor => ({ 'cart-token': cartToken, cookie: session.cookie, 'x-wp-nonce': session.nonce })
export const asAdmin = (session: Login): Visitor => ({ cookie: session.cookie, 'x-wp-nonce': session.nonce })

/** The credentials that let a request of `spec`'s access group through: a guest's Cart-Token or an admin login. */
export function credentialsFor (spec: SvcRouteSpec, who: { cartToken: string, admin: Login }): Visitor {
  if (spec.access === 'cart') return asGuest(who.cartToken)
  if (spec.access === 'admin') return asAdmin(who.admin)
  return {}
}

// ---------------------------------------------------------------------------------------------- requests

export const label = (spec: { method: string, path: string }): string => `${spec.method} ${spec.path}`

export interface SvcInject {
  method?: InjectOptions['method']
  /** Appended to the path as it is, for example `?_jsonp=cb`. */
  query?: string
  headers?: Record<string, string>
  payload?: string | object
  remoteAddress?: string
  /** The path prefix; a test may spell it differently (percent-encoded). */
  prefix?: string
}

/** One request to a row of the route table (its own method unless told otherwise). */
export function svcInject (app: FastifyInstance, spec: { method: string, path: string }, request: SvcInject = {}): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: request.method ?? spec.method as InjectOptions['method'],
    url: `${request.prefix ?? SVC}${spec.path}${request.query ?? ''}`,
    headers: request.headers ?? {}
  }
  if (request.payload !== undefined) options.payload = request.payload
  if (request.remoteAddress !== undefined) options.remoteAddress = request.remoteAddress
  return app.inject(options)
}

/** A JSON document of exactly `bytes` bytes. */
export function jsonOfSize (bytes: number): string {
  const empty = '{"pad":""}'
  if (bytes < empty.length) throw new RangeError(`a JSON body needs at least ${empty.length} bytes`)
  const body = `{"pad":"${'x'.repeat(bytes - empty.length)}"}`
  return body
}

/** Path → the methods the route table gives it, in table order. */
export function methodsByPath (routes: readonly SvcRouteSpec[]): Map<string, string[]> {
  const paths = new Map<string, string[]>()
  for (const spec of routes) paths.set(spec.path, [...(paths.get(spec.path) ?? []), spec.method])
  return paths
}

/** What `Allow` must list for a path: its methods, HEAD where GET is served, and OPTIONS. */
export function expectedAllow (methods: readonly string[]): string[] {
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort()
}

export const listOf = (header: unknown): string[] =>
  typeof header === 'string' ? header.split(',').map((item) => item.trim()).filter((item) => item !== '').sort() : []

// ---------------------------------------------------------------------------------------------- assertions

function bodyOf (response: LightMyRequestResponse): Record<string, unknown> | null {
  try {
    const body: unknown = JSON.parse(response.body)
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? body as Record<string, unknown> : null
  } catch {
    return null
  }
}

function pick (headers: LightMyRequestResponse['headers'], names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, headers[name]]))
}

/** Specification §4.4.5 on a response of `svc/v1`. */
export function expectNoStore (t: Test, response: LightMyRequestResponse, what = 'no-store caching headers'): void {
  t.same(pick(response.headers, Object.keys(NO_STORE)), NO_STORE, what)
}

/** Design §3.4: the one cacheable response. */
export function expectPublicCache (t: Test, response: LightMyRequestResponse): void {
  t.same(pick(response.headers, ['cache-control', 'vary', 'pragma', 'expires']), {
    'cache-control': 'public, max-age=300', vary: 'Origin', pragma: undefined, expires: undefined
  }, 'public caching headers')
  t.match(response.headers.etag, /^"[^"]+"$/, 'a strong ETag')
}

/**
 * The error shape of design §3.2: exactly `{code, message, data: {status, ...}}` with `data.status` equal to the
 * HTTP status; a 5xx shows only its code's public message and status.
 */
export function expectErrorShape (t: Test, response: LightMyRequestResponse, what = 'error'): void {
  const body = bodyOf(response)
  const data = body?.data as Record<string, unknown> | undefined
  const ok = body !== null && Object.keys(body).sort().join() === 'code,data,message' &&
    typeof body.code === 'string' && typeof body.message === 'string' && body.message !== '' &&
    typeof data === 'object' && data !== null && data.status === response.statusCode
  t.ok(ok, `${what}: the body is {code, message, data: {status: ${response.statusCode}}}`, { found: response.body })
  if (response.statusCode >= 500 && body !== null) {
    const code = String(body.code)
    const known = (errorTable as Record<string, { message: string } | undefined>)[code]
    const expected = { code, message: known?.message ?? body.message, data: { status: response.statusCode } }
    t.same(body, expected, `${what}: the ${response.statusCode} shows nothing internal`)
    t.notMatch(response.body, /ECONN|127\.0\.0\.1|redis|postgres|stack|\bat \S+:\d+|Error:/i, `${what}: no internals in the 5xx body`)
  }
}

/** An error of `svc/v1`: its status and code, the error shape and the no-store headers. */
export function expectError (t: Test, response: LightMyRequestResponse, status: number, code: string, what = code): void {
  const body = bodyOf(response)
  t.equal(response.statusCode, status, `${what}: status ${status}`, { found: response.body })
  t.equal(body?.code, code, `${what}: code ${code}`)
  expectErrorShape(t, response, what)
  expectNoStore(t, response, `${what}: no-store caching headers`)
}

/**
 * The request passed every security rule: the handler may answer anything but a security rule's error. Checks
 * the caching headers of a success too.
 */
export function expectThrough (t: Test, response: LightMyRequestResponse, spec: Pick<SvcRouteSpec, 'access'>, what = 'through'): void {
  const body = bodyOf(response)
  const status = response.statusCode
  const code = status >= 400 ? String(body?.code) : ''
  const through = status < 400 || (status < 500 && !RULE_CODES.has(code))
  t.ok(through, `${what}: got through the security rules (${status} ${code})`, { found: response.body })
  if (status >= 400) expectErrorShape(t, response, what)
  if (spec.access === 'public' && status === 200) expectPublicCache(t, response)
  else expectNoStore(t, response, `${what}: no-store caching headers`)
}

/** `X-RateLimit-Limit` and `X-RateLimit-Remaining`. */
export function expectRateHeaders (t: Test, response: LightMyRequestResponse, limit: number, remaining: number, what = 'rate headers'): void {
  t.same(pick(response.headers, ['x-ratelimit-limit', 'x-ratelimit-remaining']), {
    'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining)
  }, `${what}: X-RateLimit-Limit ${limit}, X-RateLimit-Remaining ${remaining}`)
}

/** `Retry-After` in whole seconds, at least 1 and at most the window. */
export function expectRetryAfter (t: Test, response: LightMyRequestResponse, windowMs: number, what = 'Retry-After'): number {
  const value = response.headers['retry-after']
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN
  t.ok(seconds >= 1 && seconds <= windowMs / 1000, `${what}: whole seconds within the ${windowMs / 1000} s window (got ${String(value)})`)
  return seconds
}

/** A 429 of an exhausted limit. */
export function expectExhausted (t: Test, response: LightMyRequestResponse, spec: SvcRouteSpec, what = '429'): void {
  expectError(t, response, 429, 'svc_rate_limit_exhausted', what)
  expectRateHeaders(t, response, spec.rateLimit!.max, 0, what)
  expectRetryAfter(t, response, spec.rateLimit!.windowMs, what)
}

/** CORS with credentials for an allowed extra origin (design §3.4). */
export function expectCors (t: Test, response: LightMyRequestResponse, origin: string, what = 'CORS'): void {
  t.equal(response.headers['access-control-allow-origin'], origin, `${what}: Access-Control-Allow-Origin`)
  t.equal(response.headers['access-control-allow-credentials'], 'true', `${what}: Access-Control-Allow-Credentials`)
  t.same(listOf(response.headers['access-control-expose-headers']), [...CORS_EXPOSED].sort(), `${what}: Access-Control-Expose-Headers`)
}

export function expectNoCors (t: Test, response: LightMyRequestResponse, what = 'no CORS'): void {
  t.same(pick(response.headers, ['access-control-allow-origin', 'access-control-allow-credentials']), {
    'access-control-allow-origin': undefined, 'access-control-allow-credentials': undefined
  }, `${what}: no CORS headers`)
}
