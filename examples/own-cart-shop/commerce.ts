import type { CommercePort, FilterPort } from 'cart-drawer-service/drawer'
import type { ShopCarts } from './carts.ts'
import { SHOP_CONFIG, type Catalog } from './catalog.ts'
import type { CartExtensions } from './hooks.ts'
import { MANAGE_SHOP, type Accounts, type Signer } from './session.ts'

/** Everything the stationery shop is made of. */
export interface InkShop {
  restRoot: string
  homeUrl: string
  now: () => Date
  catalog: Catalog
  carts: ShopCarts
  signer: Signer
  accounts: Accounts
  filters: FilterPort
  extensions: CartExtensions
}

export const SESSION_COOKIE = 'ink_session'
export const CART_COOKIE = 'ink_cart'

/** The shop's side of the commerce port. */
export function createInkShopCommerce (shop: InkShop): CommercePort {
  return {
    restRoot: shop.restRoot,
    homeUrl: shop.homeUrl,
    currency: SHOP_CONFIG.currency,
    urls: { checkout: `${shop.homeUrl}/checkout/`, restNonce: '/account/rest-nonce', login: '/account/login', logout: '/account/logout' },
    config: SHOP_CONFIG,
    now: shop.now,

    cartKeyOfToken: (token) => shop.signer.cartKeyOfToken(token),
    login: async (request) => shop.accounts.session(request.cookies[SESSION_COOKIE]),
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
      const query = new URLSearchParams(parent.attributes.flatMap(({ name }) => chosen[name] ? [[`attribute_${name}`, chosen[name]]] : []))
      const search = query.toString()
      return search === '' ? base : `${base}?${search}`
    },

    extendCart: (extension) => shop.extensions.register(extension),
    filters: shop.filters
  }
}
