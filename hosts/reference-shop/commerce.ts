import type { CommercePort, FilterPort } from '../../drawer/index.ts'
import { MANAGE_SHOP, type Authenticated } from './auth/auth-service.ts'
import { requestUser } from './auth/session-cookie.ts'
import type { Shop } from './shop.ts'
import type { CartRead } from '../../storage/contract/index.ts'
import type { ShopRateLimiter } from './store-api/rate-limits.ts'
import { isCartKey } from './session/cart-key.ts'
import { permalink } from './store-api/serialize-product.ts'

/** The reference platform's side of the commerce port: its carts, catalog, logins, filters and Store API. */
export function createCommerce (shop: Omit<Shop, 'commerce'>, limiter: ShopRateLimiter | null = null): CommercePort {
  const { storage } = shop
  return {
    restRoot: shop.restRoot,
    homeUrl: shop.homeUrl,
    siteUrl: shop.siteUrl,
    currency: shop.serializeContext.currency,
    urls: {
      checkout: `${shop.homeUrl}/checkout/`,
      restNonce: '/account/rest-nonce',
      login: '/account/login',
      logout: '/account/logout'
    },
    config: shop.carts.config,
    now: shop.now,
    cartKeyOfToken: (token) => {
      const key = shop.cartTokens.verify(token)
      return key !== null && isCartKey(key) ? key : null
    },
    login: (request) => requestUser(request, shop.auth),
    // The drawer hands back the login `login` gave it: the platform's, with its session.
    verifyNonce: (nonce, login) => shop.auth.verifyRestNonce(nonce, login as Authenticated),
    restNonce: (login) => shop.auth.restNonce(login as Authenticated),
    canManageShop: (user) => user.capabilities.includes(MANAGE_SHOP),
    // The drawer's writes that start a cart count against the Store API's `newCart` limit (the read is the platform's
    // own `CartRead`: no stored cart means the write starts one).
    ...(limiter === null
      ? {}
      : {
          countCartStart: async (request, key, read) =>
            read === null || (read as CartRead).cart !== null ? null : limiter.countCartStart(request, key)
        }),
    carts: shop.carts,
    getProduct: (id) => storage.getProduct(id),
    getProducts: (ids) => storage.getProducts(ids),
    listProducts: (query) => storage.listProducts(query),
    bestSellers: async (limit) => (await storage.bestSellers(limit)).map((seller) => seller.productId),
    orderAttribution: (from, to, topProducts) => storage.orderAttribution(from, to, topProducts),
    productUrl: (product, parent, variation) => permalink(product, parent, shop.homeUrl, variation),
    extendCart: (extension) => shop.extendSchema.register(extension),
    // The platform's filter names include the drawer's (`FilterHooks extends DrawerFilterHooks`), with the same
    // types; TypeScript cannot relate the two generic signatures on its own.
    filters: shop.filters as unknown as FilterPort
  }
}
