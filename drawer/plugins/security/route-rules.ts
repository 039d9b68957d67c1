import type { FastifyRequest } from 'fastify'
import type { Edition } from '../../schemas/edition.ts'

/**
 * The rules an `svc/v1` route declares on itself, in its route options: `config.svc` gives its edition, access group
 * and rate limit, `bodyLimit` its largest body (write routes without one get `BODY_LIMITS.write`). The security
 * plugin collects them as routes are added (`onRoute`) and enforces them; the OpenAPI document and the tests read the
 * same registered rules (`fastify.svcRoutes`).
 */

export type { Edition }
export type AccessGroup = 'cart' | 'admin' | 'public'
export type HttpMethod = 'GET' | 'POST' | 'DELETE'

export interface RateLimit {
  max: number
  windowMs: number
}

/** What a route declares in `config.svc`. */
export interface SvcRouteRules {
  edition: Edition
  access: AccessGroup
  /** Requests per window, per client IP and per visitor; none when absent. */
  rateLimit?: RateLimit | null
  /** The route sends the drawer's cart state as stored when it can: a guest's request reads the snapshot first. */
  drawerSnapshot?: boolean
  /**
   * The route sends a view of a guest's cart the shop keeps (`CartsPort.readView`) when it can: the view's name for
   * this request, or null when the request must be computed. A current view is read instead of the cart.
   */
  cachedView?: (request: FastifyRequest) => string | null
  /**
   * A cart-session write changes the cart unless it says `false` here: on a cart not stored yet it starts one, which
   * counts against the shop's limit on new carts (`CommercePort.countCartStart`).
   */
  changesCart?: boolean
  /**
   * A guest's request is let through without the cart read access makes (`SvcRequestContext.cartUnread`): the route's
   * change itself refuses a cart bound to a user. Such a write starts no cart, so none is counted.
   */
  guestWithoutRead?: boolean
  /**
   * A cart-session route that a request without a Cart-Token may call (the drawer's own `GET store/cart`): its cart is
   * the one this answers (the host's session's, or a new one); every other rule applies as to a token's cart.
   */
  sessionCart?: (request: FastifyRequest) => string | Promise<string>
}

/** A registered `svc/v1` route with its rules, as the security plugin collected it. */
export interface SvcRouteSpec {
  method: HttpMethod
  /** Path below `{restRoot}svc/v1`. */
  path: string
  edition: Edition
  access: AccessGroup
  rateLimit: RateLimit | null
  /** Largest accepted request body in bytes (write routes), else null. */
  bodyLimit: number | null
}

const KiB = 1024

/** Body limits in bytes (design §3.6). */
export const BODY_LIMITS = {
  coupon: 8 * KiB,
  settings: 64 * KiB,
  settingsImport: 256 * KiB,
  analyticsEvents: 32 * KiB,
  write: 16 * KiB
} as const

export const perMinute = (max: number): RateLimit => ({ max, windowMs: 60_000 })
export const perHour = (max: number): RateLimit => ({ max, windowMs: 3_600_000 })
