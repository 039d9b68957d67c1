import type { CommercePort, Currency, FilterPort, ShopConfig } from 'cart-drawer-service/drawer'
import type { ShopCarts } from './carts.ts'
import type { Catalog } from './catalog.ts'
import type { CartExtensions } from './hooks.ts'
import { MANAGE_SHOP, type Accounts, type CartTokens } from './session.ts'

/** Everything the tea shop is made of. */
export interface TeaShop {
  restRoot: string
  homeUrl: string
  config: ShopConfig
  now: () => Date
  catalog: Catalog
  carts: ShopCarts
  tokens: CartTokens
  accounts: Accounts
  filters: FilterPort
  extensions: CartExtensions
  /** The name of the login cookie, which holds the session id. */
  sessionCookie: string
}

/** The tea shop's side of the commerce port: the drawer sees nothing of the shop but this. */
export function createTeaShopCommerce (shop: TeaShop): CommercePort {
  const currency: Currency = shop.config.currency
  return {
    restRoot: shop.restRoot,
    homeUrl: shop.homeUrl,
    siteUrl: shop.homeUrl,
    currency,
    urls: {
      checkout: `${shop.homeUrl}/checkout/`,
      restNonce: '/account/rest-nonce',
      login: '/account/login',
      logout: '/account/logout'
    },
    config: shop.config,
    now: shop.now,

    cartKeyOfToken: (token) => shop.tokens.verify(token),
    login: (request) => shop.accounts.session(request.cookies[shop.sessionCookie]),
    verifyNonce: (nonce, login) => shop.accounts.verifyNonce(nonce, login),
    restNonce: (login) => shop.accounts.restNonce(login),
    canManageShop: (user) => user.capabilities.includes(MANAGE_SHOP),

    carts: shop.carts,

    getProduct: async (id) => shop.catalog.get(id),
    getProducts: async (ids) => shop.catalog.getMany(ids),
    listProducts: async (query) => shop.catalog.list(query),
    productUrl: (product, parent, variation = {}) => {
      const base = `${shop.homeUrl}/product/${encodeURIComponent(parent.slug)}/`
      if (product.type !== 'variation') return base
      const chosen = { ...product.variationAttributes, ...variation }
      const query = new URLSearchParams()
      for (const { name } of parent.attributes) if (chosen[name]) query.set(`attribute_${name}`, chosen[name])
      const search = query.toString()
      return search === '' ? base : `${base}?${search}`
    },

    extendCart: (extension) => shop.extensions.register(extension),
    filters: shop.filters
  }
}
