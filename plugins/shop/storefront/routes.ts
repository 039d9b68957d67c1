import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { escapeHtml } from '../../../domain/html.ts'
import type { Product } from '../../../domain/types.ts'
import { restError } from '../../../errors/index.ts'
import { ErrorBody } from '../../../schemas/error.ts'
import { COOKIE_CART_SECURITY, PUBLIC_SECURITY } from '../../openapi/index.ts'
import { requestUser } from '../auth/session-cookie.ts'
import { renderMiniCart } from '../classic/mini-cart.ts'
import { requestViewer, resolveCartKey } from '../session/store-api-session.ts'
import { CLASSIC_SCRIPT, CLASSIC_SCRIPT_PATH } from './classic-script.ts'
import './hooks.ts'
import type { StorefrontContext } from './hooks.ts'
import { renderLayout } from './layout.ts'
import { renderProductList } from './page.ts'
import { renderProductPage } from './product-page.ts'

/** The demo storefront: the shop page, product pages, and the demo product pictures. */
export const storefrontRoutes: FastifyPluginAsync = async (fastify) => {
  const { shop } = fastify

  /** What every page shares: the cookie cart's mini cart, the login box, the scripts of `storefront_scripts`. */
  async function page (request: FastifyRequest, reply: FastifyReply, kind: StorefrontContext['page'], title: string, main: string): Promise<string> {
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
    const scripts = await shop.filters.apply('storefront_scripts', [], context)
    const links = await shop.filters.apply('storefront_header_links', [], context)
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store, private')
    return renderLayout({
      title,
      main,
      miniCart: renderMiniCart(cart.priced, shop.serializeContext),
      userName: authenticated?.user.displayName ?? null,
      scripts: Array.isArray(scripts) ? scripts : [],
      links: Array.isArray(links) ? links : []
    })
  }

  /** Published products a shopper may open (hidden ones included, as WooCommerce shows their pages). */
  async function productBySlug (slug: string): Promise<Product | null> {
    const { products } = await shop.storage.listProducts({ statuses: ['publish'], perPage: 100 })
    return products.find((product) => product.slug === slug) ?? null
  }

  fastify.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { products } = await shop.storage.listProducts({ statuses: ['publish'], visibilities: ['visible', 'catalog'], perPage: 100 })
    return page(request, reply, 'shop', 'Demo shop', renderProductList(products, shop.serializeContext.currency, shop.homeUrl))
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
    return page(request, reply, 'product', product.name, renderProductPage(product, variations, shop.serializeContext.currency))
  })

  fastify.get(CLASSIC_SCRIPT_PATH, {
    schema: {
      tags: ['storefront'],
      operationId: 'getStorefrontScript',
      summary: 'The storefront\'s own page script',
      description: 'The classic AJAX add to cart, the variation form and the login form of the demo storefront, served as a file so that the pages\' Content-Security-Policy allows no inline script.',
      security: PUBLIC_SECURITY,
      response: { 200: { description: 'The script (`text/javascript`).', type: 'string' } }
    }
  }, async (_request, reply) => {
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300')
    return CLASSIC_SCRIPT
  })

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
