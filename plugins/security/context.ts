import type { CartRead, Session, User } from '../../storage/types.ts'
import type { SvcRouteSpec } from './route-table.ts'

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
    /** Set on every `svc/v1` route: its row of the route table. */
    svc?: SvcRouteSpec
    /** The route sends the drawer's cart state as stored when it can: a guest's request reads the snapshot first. */
    drawerSnapshot?: boolean
  }
  interface FastifyRequest {
    svc: SvcRequestContext | null
  }
}

/** Route options that put a route under the security plugin: access group, rate limit and body limit. */
export function svcRouteOptions (spec: SvcRouteSpec): { config: { svc: SvcRouteSpec }, bodyLimit?: number } {
  return spec.bodyLimit === null ? { config: { svc: spec } } : { config: { svc: spec }, bodyLimit: spec.bodyLimit }
}
