import type { PricedLine } from '../../../domain/types.ts'
import type { CartState } from '../cart/cart-service.ts'

/** The filters the platform itself applies. */
declare module './registry.ts' {
  interface FilterHooks {
    /** The fragments of a classic add-to-cart or fragment-refresh response, keyed by CSS selector. */
    woocommerce_add_to_cart_fragments: { value: Record<string, unknown>, args: [CartState] }
    /** Origins allowed to call `svc/v1` besides the home and site URLs' origins. */
    svc_rest_allowed_origins: { value: string[], args: [] }
    /** Proxy ranges (IPv4/IPv6 CIDR) whose `X-Forwarded-For` is trusted for the client address. */
    svc_rest_trusted_proxy_cidrs: { value: string[], args: [] }
  }
}

declare module './registry.ts' {
  interface FilterHooks {
    /** One cart line's presentation row in `extensions.svc.item_presentations`. */
    svc_cart_item_data: { value: Record<string, unknown>, args: [PricedLine, CartState] }
    /** The cart's `extensions.svc` object, before the service restores the keys it owns. */
    svc_store_api_cart_extension_data: { value: Record<string, unknown>, args: [CartState] }
  }
}
