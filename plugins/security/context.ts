import type { CartRead, Session, User } from '../../storage/types.ts'
import type { SvcRouteRules, SvcRouteSpec } from './route-rules.ts'

/** Who is calling an `svc/v1` route, as the security plugin resolved it before the handler runs. */
export interface SvcRequestContext {
  /** `guest` and `shopper` are the two kinds of cart session; `admin` holds `manage_shop`. */
  group: 'guest' | 'shopper' | 'admin' | 'public'
  /** The Cart-Token's cart (cart-session routes), else null. */
  cartKey: string | null
  /**
   * That cart as stored when the request began (`cartRead.cart`, null when it is new), with its products, coupons
   * and the settings' version (cart-session routes), else null.
   */
  cartRead: CartRead | null
  /**
   * The drawer's state as stored at the cart's last write, when the route asked for it (`drawerSnapshot`), the
   * caller is a guest and it is still current; then `cartRead` was not read (null). Else null.
   */
  snapshot: string | null
  user: User | null
  session: Session | null
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
