/** The addresses the drawer sends the shopper (and the admin screens' login form) to; each one left out is the shop's own. */
export interface DrawerUrls {
  /** The cart page: the drawer's "View cart" link while the settings' `behaviour.cart_url` is empty. Default `{homeUrl}/cart/`. */
  cart?: string
  /** The checkout page: the drawer's Checkout button while `behaviour.checkout_url` is empty. Default the commerce port's `urls.checkout`. */
  checkout?: string
  /** Where the admin screens' login form posts `{email, password}`. Default the commerce port's `urls.login`. */
  login?: string
}

/** What the drawer needs of the shop to find its own addresses (the commerce port's `homeUrl` and `urls`). */
interface ShopAddresses {
  readonly homeUrl: string
  readonly urls: { readonly checkout: string, readonly login: string }
}

/**
 * The platform's cart page: the commerce port names its checkout only, and a WooCommerce shop's cart is `/cart/`
 * below the home URL (the `urls.cart` option, or the settings' `behaviour.cart_url`, names another).
 */
export const platformCartUrl = (homeUrl: string): string => `${homeUrl}/cart/`

/** The addresses in use: each option given, else the shop's. */
export function drawerUrls (shop: ShopAddresses, urls: DrawerUrls = {}): Required<DrawerUrls> {
  return {
    cart: urls.cart ?? platformCartUrl(shop.homeUrl),
    checkout: urls.checkout ?? shop.urls.checkout,
    login: urls.login ?? shop.urls.login
  }
}

/** An http(s) URL, or a path of the site starting with `/` (not `//`, no backslash or white space). */
const ADDRESS = /^(https?:\/\/[^\s\\]+|\/(?![/\\])[^\s\\]*)$/i

/** Refuses, when the plugin is registered, an option that is not an address (a `javascript:` URL, a relative path). */
export function checkDrawerUrls (urls: DrawerUrls = {}): void {
  for (const [name, value] of Object.entries(urls) as Array<[string, unknown]>) {
    if (value === undefined) continue
    if (!['cart', 'checkout', 'login'].includes(name)) throw new Error(`urls.${name} is not an option of the drawer (cart, checkout, login)`)
    if (typeof value !== 'string' || !ADDRESS.test(value)) {
      throw new Error(`urls.${name} must be an http(s) URL or a path of the site starting with /, not ${JSON.stringify(value)}`)
    }
  }
}
