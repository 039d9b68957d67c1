import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import {
  CartActionError, effectivePrice, formatMoney,
  type CartState, type DrawerCartCapability, type Login, type Product, type StorefrontContext, type StorefrontLink, type StorefrontScript, type Viewer
} from 'cart-drawer-service/drawer'
import { storeApiError } from 'cart-drawer-service/errors'
import type { TeaShop } from './commerce.ts'
import { MANAGE_SHOP, type ShopLogin } from './session.ts'

/** The cookie that keeps a browser's Cart-Token across pages (the drawer's script asks the cart route for it). */
export const CART_COOKIE = 'tea_cart'

const NO_STORE = { 'Cache-Control': 'no-store, private' }

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** JSON that cannot end a `<script>` element (`<`, `>`, `&`, U+2028/9 escaped). */
function jsonForScript (value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function header (request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The tea shop's own routes: the shop and product pages (which run the storefront filters, so the drawer's script
 * is on them), a small cart API under the REST root for its own pages (`cart`, `cart/add`, `cart/update-item`, each
 * answering a Cart-Token and the cart with its `extensions`), and the account routes (login cookie, logout, REST
 * nonce) at the paths the drawer's scripts call. The cart routes the drawer's script calls are the drawer's own
 * (`storeApi: 'drawer'`, over `drawerCarts`): the shop writes no Store API.
 */
export const teaShopRoutes = (shop: TeaShop): FastifyPluginAsync => async (fastify) => {
  const { restRoot, carts, tokens, accounts, filters, extensions, catalog } = shop
  const money = (minor: number) => formatMoney(minor, shop.config.currency)

  const loginOf = (request: FastifyRequest): Promise<ShopLogin | null> => accounts.session(request.cookies[shop.sessionCookie])
  const viewerOf = (login: Login | null): Viewer => ({
    canReadPrivate: login?.user.capabilities.includes(MANAGE_SHOP) ?? false,
    userId: login?.user.id ?? null,
    capabilities: login?.user.capabilities ?? []
  })

  const cartKeyOf = (request: FastifyRequest): string => requestCartKey(shop, request)

  /** The cart as the shop's cart API answers it, with a fresh Cart-Token (header and cookie). */
  async function sendCart (reply: FastifyReply, state: CartState, extra: Record<string, unknown> = {}) {
    reply.header('Cart-Token', issueCartToken(shop, state.key, reply)).headers(NO_STORE)
    const { priced } = state
    const items = []
    for (const line of priced.lines) {
      items.push({
        key: line.line.key,
        id: line.product.id,
        name: line.product.name,
        quantity: line.line.quantity,
        prices: { price: String(line.unitPrice), line_subtotal: String(line.lineSubtotal), line_total: String(line.lineTotal) },
        extensions: await extensions.itemData(line, state)
      })
    }
    return {
      items,
      items_count: priced.itemsCount,
      coupons: priced.coupons.map(({ coupon, discount }) => ({ code: coupon.code, discount: String(discount) })),
      totals: {
        currency_code: shop.config.currency.code,
        total_items: String(priced.totals.totalItems),
        total_discount: String(priced.totals.totalDiscount),
        total_shipping: String(priced.totals.totalShipping),
        total_tax: String(priced.totals.totalTax),
        total_price: String(priced.totals.totalPrice)
      },
      errors: priced.errors.map(({ reason, message }) => ({ reason, message })),
      extensions: await extensions.cartData(state),
      ...extra
    }
  }

  /** Runs a cart change; a refusal is answered as the Store API answers it (`storeApiError`). */
  async function change (request: FastifyRequest, reply: FastifyReply, run: (key: string, viewer: Viewer) => Promise<CartState>) {
    const key = cartKeyOf(request)
    try {
      return await run(key, viewerOf(await loginOf(request)))
    } catch (error) {
      if (error instanceof CartActionError) {
        reply.header('Cart-Token', tokens.issue(key))
        throw storeApiError(error.domainError)
      }
      throw error
    }
  }

  const getCart = async (request: FastifyRequest, reply: FastifyReply) =>
    sendCart(reply, await carts.get(cartKeyOf(request), viewerOf(await loginOf(request))))

  const addToCart = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = isRecord(request.body) ? request.body : {}
    const variation: Record<string, string> = {}
    // `{attribute: value}` or the Store API's `[{attribute, value}]`.
    const chosen = Array.isArray(body.variation) ? body.variation : isRecord(body.variation) ? Object.entries(body.variation).map(([attribute, value]) => ({ attribute, value })) : []
    for (const entry of chosen) if (isRecord(entry) && typeof entry.attribute === 'string') variation[entry.attribute] = String(entry.value)
    const input = { id: Number(body.id), quantity: body.quantity === undefined ? 1 : Number(body.quantity), variation }
    const state = await change(request, reply, (key, viewer) => carts.addItem(key, input, viewer))
    // The classic add-to-cart fragments, which the drawer's `added_to_cart` listener reads.
    const fragments = await filters.apply('woocommerce_add_to_cart_fragments', {}, state)
    return sendCart(reply.code(201), state, { fragments, cart_hash: state.hash })
  }

  const updateItem = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = isRecord(request.body) ? request.body : {}
    const state = await change(request, reply, (key, viewer) => carts.setQuantity(key, String(body.key), Number(body.quantity), viewer))
    return sendCart(reply, state)
  }

  fastify.get(`${restRoot}cart`, getCart)
  fastify.post(`${restRoot}cart/add`, addToCart)
  fastify.post(`${restRoot}cart/update-item`, updateItem)

  // ---- accounts

  fastify.post('/account/login', async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    const login = await accounts.login(String(body.email ?? ''), String(body.password ?? ''))
    if (login === null) {
      return reply.code(401).headers(NO_STORE).send({ code: 'invalid_credentials', message: 'Unknown e-mail or wrong password.', data: { status: 401 } })
    }
    reply.setCookie(shop.sessionCookie, login.session.id, { path: '/', httpOnly: true, sameSite: 'lax', expires: new Date(login.session.expiresAt) })
    return reply.headers(NO_STORE).send({ user: { id: login.user.id, name: login.user.displayName }, nonce: accounts.restNonce(login) })
  })

  fastify.post('/account/logout', async (request, reply) => {
    const login = await loginOf(request)
    if (login !== null) accounts.logout(login.session.id)
    reply.clearCookie(shop.sessionCookie, { path: '/' })
    return reply.headers(NO_STORE).send({ logged_out: login !== null })
  })

  fastify.get('/account/rest-nonce', async (request, reply) => {
    const login = await loginOf(request)
    if (login === null) return reply.code(401).headers(NO_STORE).send({ code: 'not_logged_in', message: 'Log in first.', data: { status: 401 } })
    return reply.headers(NO_STORE).send({ nonce: accounts.restNonce(login) })
  })

  // ---- pages

  async function page (request: FastifyRequest, reply: FastifyReply, kind: StorefrontContext['page'], title: string, main: string) {
    const login = await loginOf(request)
    const context: StorefrontContext = {
      page: kind,
      user: login === null ? null : { id: login.user.id, displayName: login.user.displayName, capabilities: login.user.capabilities },
      restNonce: login === null ? null : accounts.restNonce(login)
    }
    const scripts = await filters.apply('storefront_scripts', [], context)
    const links = await filters.apply('storefront_header_links', [], context)
    reply.type('text/html; charset=utf-8').headers(NO_STORE)
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<header><a href="/">The Tea Shop</a> ${login === null ? '' : `<span>${escapeHtml(login.user.displayName)}</span>`}
${links.filter(isLink).map((link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`).join(' ')}</header>
<main>${main}</main>
<script>
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-add]')
  if (!button) return
  const form = button.closest('form')
  const size = form && form.elements.size ? { pa_size: form.elements.size.value } : {}
  event.preventDefault()
  const response = await fetch(${jsonForScript(`${restRoot}cart/add`)}, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: Number(button.dataset.add), quantity: 1, variation: size }) })
  const body = await response.json()
  if (response.ok) document.body.dispatchEvent(new CustomEvent('added_to_cart', { detail: { fragments: body.fragments, cartHash: body.cart_hash, button } }))
  else alert(body.message)
})
</script>
${scripts.filter(isScript).map(scriptTags).join('')}</body>
</html>`
  }

  const card = (product: Product) => {
    const price = effectivePrice(product)
    return `<li><h2><a href="/product/${encodeURIComponent(product.slug)}/">${escapeHtml(product.name)}</a></h2>
<p>${escapeHtml(product.shortDescription)}</p>${price === null ? '' : `<p>${escapeHtml(money(price))}</p>`}
${product.type === 'variable' ? `<a href="/product/${encodeURIComponent(product.slug)}/">Choose a size</a>` : `<button type="button" data-add="${product.id}">Add to cart</button>`}</li>`
  }

  fastify.get('/', async (request, reply) =>
    page(request, reply, 'shop', 'The Tea Shop', `<h1>The Tea Shop</h1><ul class="products">${catalog.listed().map(card).join('\n')}</ul>`))

  fastify.get<{ Params: { slug: string } }>('/product/:slug/', async (request, reply) => {
    const product = catalog.bySlug(request.params.slug)
    if (product === null || product.status !== 'publish' || product.catalogVisibility === 'hidden') {
      return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Not found</title><p>No such product.</p>')
    }
    const sizes = product.type === 'variable'
      ? `<form><label>Size <select name="size">${product.attributes[0]?.options.map((option) => `<option>${escapeHtml(option)}</option>`).join('') ?? ''}</select></label>
<button type="button" data-add="${product.id}">Add to cart</button></form>`
      : `<button type="button" data-add="${product.id}">Add to cart</button>`
    return page(request, reply, 'product', product.name, `<h1>${escapeHtml(product.name)}</h1><p>${escapeHtml(product.shortDescription)}</p>${sizes}`)
  })
}

/** The request's cart: the Cart-Token header, else the cart cookie, else a new cart. */
function requestCartKey (shop: TeaShop, request: FastifyRequest): string {
  for (const token of [header(request, 'cart-token'), request.cookies[CART_COOKIE]]) {
    const key = token === undefined ? null : shop.tokens.verify(token)
    if (key !== null) return key
  }
  return shop.tokens.newKey()
}

/** A fresh Cart-Token for the cart `key`, also kept in the cart cookie (the shop's pages add to the same cart). */
function issueCartToken (shop: TeaShop, key: string, reply: FastifyReply): string {
  const token = shop.tokens.issue(key)
  reply.setCookie(CART_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax' })
  return token
}

/**
 * What the drawer's own cart routes need of the shop beyond the port (`storeApi: 'drawer'`): its quantity change
 * (which refuses locked lines and reconciles, as every change of `ShopCarts`), and its cart session (the cookie).
 */
export function drawerCarts (shop: TeaShop): DrawerCartCapability {
  return {
    setQuantity: (key, itemKey, quantity, viewer) => shop.carts.setQuantity(key, itemKey, quantity, viewer),
    sessionCartKey: (request) => requestCartKey(shop, request),
    issueToken: (key, reply) => issueCartToken(shop, key, reply)
  }
}

function isLink (link: StorefrontLink): boolean {
  return isRecord(link) && typeof link.label === 'string' && typeof link.href === 'string' && /^(\/(?!\/)|https?:\/\/)/i.test(link.href)
}

function isScript (script: StorefrontScript): boolean {
  return isRecord(script) && typeof script.src === 'string' && script.src !== ''
}

function scriptTags (script: StorefrontScript): string {
  const data = script.data === undefined
    ? ''
    : `<script type="application/json" id="${escapeHtml(script.data.id)}">${jsonForScript(script.data.value)}</script>\n`
  return `${data}<script src="${escapeHtml(script.src)}" defer></script>\n`
}
