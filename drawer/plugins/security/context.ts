import type { CartReading, DrawerUser } from '../../port/index.ts'
import type { SvcRouteRules, SvcRouteSpec } from './route-rules.ts'

/** Who is calling an `svc/v1` route, as the security plugin resolved it before the handler runs. */
export interface SvcRequestContext {
  /** `guest` and `shopper` are the two kinds of cart session; `admin` holds `manage_shop`. */
  group: 'guest' | 'shopper' | 'admin' | 'public'
  /** The Cart-Token's cart (cart-session routes), else null. */
  cartKey: string | null
  /**
   * That cart as the shop read it when the request began (`CommercePort.carts.read`: opaque, handed back to the
   * shop to price it) on cart-session routes, else null.
   */
  cartRead: CartReading | null
  /**
   * The drawer's state as stored at the cart's last write, when the route asked for it (`drawerSnapshot`), or the
   * shop's kept view the route named (`cachedView`), when the caller is a guest and it is still current; then
   * `cartRead` was not read (null). Else null.
   */
  snapshot: string | null
  user: DrawerUser | null
  /**
   * A guest's request on a route that asked for no read (`guestWithoutRead`): the Cart-Token and the nonce rules were
   * checked, the cart was not read (`cartRead` and `snapshot` are null), so whether it is bound to a user is left to
   * the route's change.
   */
  cartUnread?: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Declared by every `svc/v1` route: its edition, access group and rate limit. */
    svc?: SvcRouteRules
    /** Set by the security plugin when the route is added: the route with its rules as enforced. */
    svcRoute?: SvcRouteSpec
  }
  interface FastifyInstance {
    /** Every `svc/v1` route registered so far, with its rules (HEAD routes left out). */
    svcRoutes: readonly SvcRouteSpec[]
  }
  interface FastifyRequest {
    svc: SvcRequestContext | null
  }
}
