import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { timingSafeEqual } from 'node:crypto'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import type { Product } from '../../../kernel/domain/types.ts'
import { restError } from '../../../kernel/errors/index.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import type { StoreApiCartBody } from '../schemas/store-api-cart.ts'
import { COOKIE_CART_SECURITY, OPTIONAL_SESSION_SECURITY, PUBLIC_SECURITY, type CartState } from '../../../drawer/index.ts'
import type { Authenticated } from '../auth/auth-service.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { renderMiniCart } from '../classic/mini-cart.ts'
import { cookieCartKey, requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { serializeCart } from '../store-api/serialize-cart.ts'
import { STOREFRONT_CART_SCRIPT, STOREFRONT_CART_SCRIPT_PATH } from './cart-script.ts'
import { renderCartBody } from './cart-view.ts'
import { renderCheckoutPage } from './checkout-view.ts'
import { CLASSIC_SCRIPT, CLASSIC_SCRIPT_PATH } from './classic-script.ts'
import './hooks.ts'
import type { StorefrontContext } from './hooks.ts'
import { renderLayout } from './layout.ts'
import { renderAccountOrders, renderOrderNotFound, renderOrderReceived } from './order-view.ts'
import { renderProductList } from './page.ts'
import { renderProductPage } from './product-page.ts'

const ORDERS_PER_PAGE = 20

/** Whether a key given in a URL is the order's key, compared in constant time. */
function sameSecret (given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && b.length > 0 && timingSafeEqual(a, b)
}

/**
 * The demo storefront: the shop page, product pages, the cart, checkout, order-received and account-orders pages,
 * and the demo product pictures.
 */
export const storefrontRoutes: FastifyPluginAsync = async (fastify) => {
  const { shop } = fastify

  interface PageOptions {
    kind: StorefrontContext['page']
    title: string
    /** The content, given the page's cart and user. */
    main: string | ((view: PageView) => string | Promise<string>)
    /**
     * The platform's own cart pages (cart, checkout, orders) show the cart themselves: no mini cart and no scripts
     * of the `storefront_scripts` filter (the drawer stays on the shop and product pages, as side carts do), and
     * they may load a page script of the platform's.
     */
    own?: { pageScript?: string, storeApi?: boolean }
    status?: number
  }

  interface PageView {
    cart: CartState
    user: Authenticated | null
    /** With `own.storeApi`: the attributes the page script reads (Store API root, home URL, nonce), escaped. */
    storeApi: string
  }

  /** What every page shares: the cookie cart's mini cart, the login box, the scripts of `storefront_scripts`. */
  async function page (request: FastifyRequest, reply: FastifyReply, { kind, title, main, own, status = 200 }: PageOptions): Promise<string> {
    const key = await resolveCartKey(request, reply, shop, { useToken: false })
    const [cart, authenticated] = await Promise.all([
      shop.carts.get(key, await requestViewer(request, shop.auth)),
      requestUser(request, shop.auth)
    ])
    const context: StorefrontContext = {
      page: kind,
      user: authenticated ? { id: authenticated.user.id, displayName: authenticated.user.displayName, capabilities: authenticated.user.capabilities } : null,
      restNonce: authenticated ? shop.auth.restNonce(authenticated) : null
    }
    const scripts = own ? [] : await shop.filters.apply('storefront_scripts', [], context)
    const links = await shop.filters.apply('storefront_header_links', [], context)
    const storeApi = own?.storeApi ? await storeApiAttributes(request, reply, authenticated) : ''
    const content = typeof main === 'string' ? main : await main({ cart, user: authenticated, storeApi })
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store, private')
    return renderLayout({
      title,
      main: content,
      miniCart: own ? null : renderMiniCart(cart.priced, shop.serializeContext),
      cart: { itemsCount: cart.priced.itemsCount, hash: cart.hash },
      userName: authenticated?.user.displayName ?? null,
      scripts: Array.isArray(scripts) ? scripts : [],
      links: Array.isArray(links) ? links : [],
      pageScript: own?.pageScript
    })
  }

  /**
   * The attributes the page script reads: where the Store API is, the home URL, and the Store API nonce. A guest
   * whose request brought no cart cookie gets no nonce here (the cookie set for this page names a cart the nonce
   * helper would not see): the script's first `GET cart` brings one.
   */
  async function storeApiAttributes (request: FastifyRequest, reply: FastifyReply, authenticated: Authenticated | null): Promise<string> {
    const nonce = authenticated !== null || cookieCartKey(request) !== null ? await storeApiNonce(request, reply) : ''
    return `data-store-api="${escapeHtml(`${shop.restRoot}wc/store/v1/`)}" data-home-url="${escapeHtml(shop.homeUrl)}" data-nonce="${escapeHtml(nonce)}"`
  }

  /** The platform's helper for a page's Store API nonce (`fastify.shop.storeApiNonce`), where the platform has one. */
  async function storeApiNonce (request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const helper = (shop as { storeApiNonce?: (request: FastifyRequest, reply: FastifyReply) => Promise<string> }).storeApiNonce
    return helper === undefined ? '' : helper(request, reply)
  }

  async function storeApiCart (state: CartState): Promise<StoreApiCartBody> {
    return serializeCart(state, shop.serializeContext, shop.extendSchema)
  }

  /** Published products a shopper may open (hidden ones included, as WooCommerce shows their pages). */
  async function productBySlug (slug: string): Promise<Product | null> {
    const { products } = await shop.storage.listProducts({ statuses: ['publish'], perPage: 100 })
    return products.find((product) => product.slug === slug) ?? null
  }

  fastify.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { products } = await shop.storage.listProducts({ statuses: ['publish'], visibilities: ['visible', 'catalog'], perPage: 100 })
    return page(request, reply, { kind: 'shop', title: 'Demo shop', main: renderProductList(products, shop.serializeContext.currency, shop.homeUrl) })
  })

  fastify.get<{ Params: { slug: string } }>('/product/:slug/', {
    schema: {
      tags: ['storefront'],
      operationId: 'getProductPage',
      summary: 'A product page (HTML)',
      description: 'The demo storefront\'s page of a published product, with its add-to-cart form (attribute selects for a variable product).',
      params: Type.Object({ slug: Type.String({ maxLength: 200 }) }),
      security: COOKIE_CART_SECURITY,
      response: { 200: { description: 'The page (`text/html`).', type: 'string' }, 404: ErrorBody }
    }
  }, async (request, reply) => {
    const product = await productBySlug(request.params.slug)
    if (product === null) throw restError('svc_product_not_found')
    const variations = product.type === 'variable' ? [...(await shop.storage.getProducts(product.variationIds)).values()] : []
    variations.sort((a, b) => product.variationIds.indexOf(a.id) - product.variationIds.indexOf(b.id))
    return page(request, reply, { kind: 'product', title: product.name, main: renderProductPage(product, variations, shop.serializeContext.currency) })
  })

  const pageResponse = { 200: { description: 'The page (`text/html`).', type: 'string' } }

  fastify.get('/cart/', {
    schema: {
      tags: ['storefront'],
      operationId: 'getCartPage',
      summary: 'The cart page (HTML)',
      description: 'The demo storefront\'s cart: lines with quantity inputs and remove buttons, the coupon form and the totals, from the Store API cart. Its script (`' + STOREFRONT_CART_SCRIPT_PATH + '`) changes the cart through the Store API.',
      security: COOKIE_CART_SECURITY,
      response: pageResponse
    }
  }, async (request, reply) =>
    page(request, reply, {
      kind: 'shop',
      title: 'Cart',
      own: { pageScript: STOREFRONT_CART_SCRIPT_PATH, storeApi: true },
      main: async ({ cart, storeApi }) => '<h1>Cart</h1>' +
        `<div id="storefront-cart" ${storeApi} aria-busy="false">` +
        '<p id="cart-notice" role="alert"></p><p id="cart-status" class="visually-hidden" role="status"></p>' +
        `<div id="cart-body">${renderCartBody(await storeApiCart(cart), shop.homeUrl)}</div></div>`
    }))

  fastify.get('/checkout/', {
    schema: {
      tags: ['storefront'],
      operationId: 'getCheckoutPage',
      summary: 'The checkout page (HTML)',
      description: 'The demo storefront\'s checkout form (billing and shipping addresses, order note, payment method, order summary), prefilled from the Store API cart; its script places the order with `POST wc/store/v1/checkout`.',
      security: COOKIE_CART_SECURITY,
      response: pageResponse
    }
  }, async (request, reply) =>
    page(request, reply, {
      kind: 'shop',
      title: 'Checkout',
      own: { pageScript: STOREFRONT_CART_SCRIPT_PATH, storeApi: true },
      main: async ({ cart, user, storeApi }) => `<div id="storefront-checkout" ${storeApi} aria-busy="false">` +
        renderCheckoutPage({ cart: await storeApiCart(cart), homeUrl: shop.homeUrl, userEmail: user?.user.email ?? null }) + '</div>'
    }))

  fastify.get<{ Params: { id: string }, Querystring: { key?: string } }>('/checkout/order-received/:id/', {
    schema: {
      tags: ['storefront'],
      operationId: 'getOrderReceivedPage',
      summary: 'The order-received page (HTML)',
      description: 'A placed order\'s summary: number, date, e-mail, total, payment method (with a bank transfer\'s instructions), lines and addresses. Shown only with the order\'s key; any other key, or none, is a 404 page that tells nothing of the order.',
      params: Type.Object({ id: Type.String({ maxLength: 20 }) }),
      querystring: Type.Object({ key: Type.Optional(Type.String({ maxLength: 200 })) }),
      security: PUBLIC_SECURITY,
      response: { ...pageResponse, 404: { description: 'No such order, or not its key: the storefront\'s page (`text/html`).', type: 'string' } }
    }
  }, async (request, reply) => {
    const order = /^[1-9]\d{0,15}$/.test(request.params.id) ? await shop.storage.getOrder(Number(request.params.id)) : null
    if (order === null || !sameSecret(request.query.key ?? '', order.key)) {
      return page(request, reply, { kind: 'shop', title: 'Order not found', own: {}, status: 404, main: renderOrderNotFound(shop.homeUrl) })
    }
    return page(request, reply, { kind: 'shop', title: 'Order received', own: {}, main: renderOrderReceived(order, shop.serializeContext.currency) })
  })

  fastify.get<{ Querystring: { page?: number } }>('/account/orders/', {
    schema: {
      tags: ['storefront'],
      operationId: 'getAccountOrdersPage',
      summary: 'The logged-in shopper\'s orders (HTML)',
      description: 'Newest first, 20 a page, each with its date, status and total and a link to its page. Without a login, a redirect to the shop page, whose header has the login form.',
      querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })) }),
      security: OPTIONAL_SESSION_SECURITY,
      response: { ...pageResponse, 302: { description: 'Not logged in: to the shop page and its login form (`Location`).', type: 'null' } }
    }
  }, async (request, reply) => {
    const authenticated = await requestUser(request, shop.auth)
    if (authenticated === null) {
      reply.header('Cache-Control', 'no-store, private')
      return reply.redirect(`${shop.homeUrl}/?login=orders#login`, 302)
    }
    const current = request.query.page ?? 1
    const { orders, total } = await shop.storage.listOrders({ customerId: authenticated.user.id, page: current, perPage: ORDERS_PER_PAGE })
    return page(request, reply, {
      kind: 'shop',
      title: 'My orders',
      own: {},
      main: renderAccountOrders({ orders, total, page: current, perPage: ORDERS_PER_PAGE, homeUrl: shop.homeUrl, currency: shop.serializeContext.currency })
    })
  })

  /** A page script served as a file, so that the pages' Content-Security-Policy allows no inline script. */
  function scriptRoute (path: string, operationId: string, summary: string, does: string, script: string): void {
    fastify.get(path, {
      schema: {
        tags: ['storefront'],
        operationId,
        summary,
        description: `${does}, served as a file so that the pages' Content-Security-Policy allows no inline script.`,
        security: PUBLIC_SECURITY,
        response: { 200: { description: 'The script (`text/javascript`).', type: 'string' } }
      }
    }, async (_request, reply) => {
      reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300')
      return script
    })
  }

  scriptRoute(STOREFRONT_CART_SCRIPT_PATH, 'getStorefrontCartScript', 'The cart and checkout pages\' script',
    'Changes the cart and places the order through the Store API (with its `Nonce`)', STOREFRONT_CART_SCRIPT)
  scriptRoute(CLASSIC_SCRIPT_PATH, 'getStorefrontScript', 'The storefront\'s own page script',
    'The classic AJAX add to cart, the variation form and the login form of the demo storefront', CLASSIC_SCRIPT)

  // Demo product pictures: a coloured tile with the product's slug, so the shop needs no image files.
  fastify.get<{ Params: { slug: string } }>('/images/:slug', { schema: { hide: true } }, async (request, reply) => {
    const slug = request.params.slug.replace(/\.svg$/, '').slice(0, 60)
    let hue = 0
    for (const character of slug) hue = (hue * 31 + character.charCodeAt(0)) % 360
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400')
    return '<svg xmlns="http://www.w3.org/2000/svg" width="192" height="192" viewBox="0 0 192 192">' +
      `<rect width="192" height="192" fill="hsl(${hue} 60% 80%)"/>` +
      `<text x="96" y="104" font-family="sans-serif" font-size="16" text-anchor="middle">${escapeHtml(slug)}</text></svg>`
  })
}
