/**
 * The storefront's filter, as WordPress's `wp_enqueue_scripts` plus `wp_localize_script`: extensions (the cart
 * drawer service) add the scripts every storefront page loads, each with the JSON data it needs. The platform knows
 * nothing of them.
 */

export interface StorefrontScript {
  /** The script's URL; loaded as a classic script with `defer`. */
  src: string
  /** Data written before the script as `<script type="application/json" id="…">` (escaped as design §3.8). */
  data?: { id: string, value: unknown }
}

/** A link in the storefront's header (for example an extension's admin screen, for the users who may use it). */
export interface StorefrontLink {
  /** A site-relative path or an http(s) URL. */
  href: string
  label: string
}

export interface StorefrontContext {
  /** Which page is being rendered. */
  page: 'shop' | 'product'
  /** The logged-in user, or null for a guest. */
  user: { id: number, displayName: string, capabilities: readonly string[] } | null
  /** A REST nonce (action `wp_rest`) for the logged-in user's `X-WP-Nonce`; null for a guest. */
  restNonce: string | null
}

declare module '../filters/registry.ts' {
  interface FilterHooks {
    /** The scripts every storefront page loads, after the platform's own. */
    storefront_scripts: { value: StorefrontScript[], args: [StorefrontContext] }
    /** Links in every storefront page's header, after the account box. */
    storefront_header_links: { value: StorefrontLink[], args: [StorefrontContext] }
  }
}
