/**
 * The storefront's filters, as WordPress's `wp_enqueue_scripts` plus `wp_localize_script`: extensions (the cart
 * drawer) add the scripts every storefront page loads, each with the JSON data it needs, and header links. The types
 * are the commerce port's (drawer/port/port.ts); the platform knows nothing of the scripts.
 */
export type { StorefrontContext, StorefrontLink, StorefrontScript } from '../../../drawer/index.ts'
