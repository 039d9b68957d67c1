import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import {
  CartActionError, formatMoney,
  type CartState, type DrawerCartCapability, type Login, type Product, type StorefrontContext, type StorefrontLink, type StorefrontScript, type Viewer
} from 'cart-drawer-service/drawer'
import { SHOP_CONFIG } from './catalog.ts'
import { CART_COOKIE, SESSION_COOKIE, type InkShop } from './commerce.ts'
import { MANAGE_SHOP } from './session.ts'

const NO_STORE = { 'Cache-Control': 'no-store, private' }
const money = (minor: number) => formatMoney(minor, SHOP_CONFIG.currency)
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The request's cart: its Cart-Token header, else the cart cookie, else a new cart. */
function requestCartKey (shop: InkShop, request: FastifyRequest): string {
  const header = request.headers['cart-token']
  for (const token of [Array.isArray(header) ? header[0] : header, request.cookies[CART_COOKIE]]) {
    const key = token === undefined ? null : shop.signer.cartKeyOfToken(token)
    if (key !== null) return key
  }
  return shop.signer.newCartKey()
}

function issueCartToken (shop: InkShop, key: string, reply: FastifyReply): string {
  const token = shop.signer.cartToken(key)
  reply.setCookie(CART_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax' })
  return token
}

/** What the drawer's own cart routes (`storeApi: 'drawer'`) need beyond the port: the cart session (quantity changes go through `carts.change`). */
export function drawerCarts (shop: InkShop): DrawerCartCapability {
  return {
    sessionCartKey: (request) => requestCartKey(shop, request),
    issueToken: (key, reply) => issueCartToken(shop, key, reply)
  }
}

/**
 * The shop's own routes: its pages (shop, product, checkout), a cart route for its own pages and buttons (`cart`,
 * `cart/add`: the Cart-Token, the cart with its `extensions`, the add-to-cart fragments), `GET /checkout/total` (the
 * checkout's figures from the shop's own totals) and the account routes. The drawer serves the cart routes its
 * script uses itself (`storeApi: 'drawer'`).
 */
export const inkShopRoutes = (shop: InkShop): FastifyPluginAsync => async (fastify) => {
  const { restRoot, carts, accounts, filters, extensions, catalog } = shop
  const loginOf = (request: FastifyRequest) => accounts.session(request.cookies[SESSION_COOKIE])
  const viewerOf = (login: Login | null): Viewer => ({
    canReadPrivate: login?.user.capabilities.includes(MANAGE_SHOP) ?? false,
    userId: login?.user.id ?? null,
    capabilities: login?.user.capabilities ?? []
  })

  async function sendCart (reply: FastifyReply, state: CartState, extra: Record<string, unknown> = {}) {
    reply.header('Cart-Token', issueCartToken(shop, state.key, reply)).headers(NO_STORE)
    const items = []
    for (const line of state.priced.lines) {
      items.push({ key: line.line.key, id: line.product.id, name: line.product.name, quantity: line.line.quantity, extensions: await extensions.itemData(line, state) })
    }
    return { items, total: state.priced.totals.totalPrice, extensions: await extensions.cartData(state), ...extra }
  }

  fastify.get(`${restRoot}cart`, async (request, reply) =>
    sendCart(reply, await carts.get(requestCartKey(shop, request), viewerOf(loginOf(request)))))

  fastify.post(`${restRoot}cart/add`, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    const variation = isRecord(body.variation) ? Object.fromEntries(Object.entries(body.variation).map(([name, value]) => [name, String(value)])) : {}
    const key = requestCartKey(shop, request)
    try {
      const state = await carts.addItem(key, { id: Number(body.id), quantity: body.quantity === undefined ? 1 : Number(body.quantity), variation }, viewerOf(loginOf(request)))
      const fragments = await filters.apply('woocommerce_add_to_cart_fragments', {}, state)
      return sendCart(reply.code(201), state, { fragments, cart_hash: state.hash })
    } catch (error) {
      if (!(error instanceof CartActionError)) throw error
      return reply.code(400).headers(NO_STORE).send({ code: error.domainError.reason, message: error.domainError.message })
    }
  })

  fastify.get('/checkout/total', async (request, reply) => {
    const totals = await carts.checkoutTotals(requestCartKey(shop, request), viewerOf(loginOf(request)))
    return reply.headers(NO_STORE).send({ items: totals.items, discount: totals.discount, shipping: totals.shipping, total: totals.total })
  })

  // ---- accounts

  fastify.post('/account/login', async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    const login = accounts.login(String(body.email ?? ''), String(body.password ?? ''))
    if (login === null) return reply.code(401).headers(NO_STORE).send({ code: 'invalid_credentials', message: 'Unknown e-mail or wrong password.' })
    reply.setCookie(SESSION_COOKIE, login.sessionId, { path: '/', httpOnly: true, sameSite: 'lax' })
    return reply.headers(NO_STORE).send({ user: { id: login.user.id, name: login.user.displayName }, nonce: accounts.restNonce(login) })
  })

  fastify.post('/account/logout', async (request, reply) => {
    const login = loginOf(request)
    if (login !== null) accounts.logout(login.sessionId)
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    return reply.headers(NO_STORE).send({ logged_out: login !== null })
  })

  fastify.get('/account/rest-nonce', async (request, reply) => {
    const login = loginOf(request)
    if (login === null) return reply.code(401).headers(NO_STORE).send({ code: 'not_logged_in', message: 'Log in first.' })
    return reply.headers(NO_STORE).send({ nonce: accounts.restNonce(login) })
  })

  // ---- pages

  async function page (request: FastifyRequest, reply: FastifyReply, kind: StorefrontContext['page'], title: string, main: string) {
    const login = loginOf(request)
    const context: StorefrontContext = {
      page: kind,
      user: login === null ? null : { id: login.user.id, displayName: login.user.displayName, capabilities: login.user.capabilities },
      restNonce: login === null ? null : accounts.restNonce(login)
    }
    const scripts = (await filters.apply('storefront_scripts', [], context)).filter((script: StorefrontScript) => typeof script?.src === 'string' && script.src !== '')
    const links = (await filters.apply('storefront_header_links', [], context)).filter((link: StorefrontLink) => typeof link?.href === 'string' && /^(\/(?!\/)|https?:\/\/)/i.test(link.href))
    reply.type('text/html; charset=utf-8').headers(NO_STORE)
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<header><a href="/">Paper &amp; Ink</a> <a href="/checkout/">Checkout</a> ${links.map((link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`).join(' ')}</header>
<main>${main}</main>
<script>
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-add]')
  if (!button) return
  event.preventDefault()
  const form = button.closest('form')
  const variation = form && form.elements.colour ? { pa_colour: form.elements.colour.value } : {}
  const response = await fetch(${jsonForScript(`${restRoot}cart/add`)}, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: Number(button.dataset.add), quantity: 1, variation }) })
  const body = await response.json()
  if (response.ok) document.body.dispatchEvent(new CustomEvent('added_to_cart', { detail: { fragments: body.fragments, cartHash: body.cart_hash, button } }))
  else alert(body.message)
})
</script>
${scripts.map((script) => `${script.data === undefined ? '' : `<script type="application/json" id="${escapeHtml(script.data.id)}">${jsonForScript(script.data.value)}</script>\n`}<script src="${escapeHtml(script.src)}" defer></script>`).join('\n')}
</body>
</html>`
  }

  const card = (product: Product) => `<li><h2><a href="/product/${encodeURIComponent(product.slug)}/">${escapeHtml(product.name)}</a></h2>
<p>${escapeHtml(product.shortDescription)}</p>${product.regularPrice === null ? '' : `<p>${escapeHtml(money(product.salePrice ?? product.regularPrice))}</p>`}
${product.type === 'variable' ? `<a href="/product/${encodeURIComponent(product.slug)}/">Choose a colour</a>` : `<button type="button" data-add="${product.id}">Add to cart</button>`}</li>`

  fastify.get('/', async (request, reply) =>
    page(request, reply, 'shop', 'Paper & Ink', `<h1>Paper &amp; Ink</h1><ul class="products">${catalog.listed().map(card).join('\n')}</ul>`))

  fastify.get<{ Params: { slug: string } }>('/product/:slug/', async (request, reply) => {
    const product = catalog.bySlug(request.params.slug)
    if (product === null || product.status !== 'publish') return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Not found</title><p>No such product.</p>')
    const options = product.attributes[0]?.options.map((option) => `<option>${escapeHtml(option)}</option>`).join('') ?? ''
    const buy = product.type === 'variable'
      ? `<form><label>Colour <select name="colour">${options}</select></label> <button type="button" data-add="${product.id}">Add to cart</button></form>`
      : `<button type="button" data-add="${product.id}">Add to cart</button>`
    return page(request, reply, 'product', product.name, `<h1>${escapeHtml(product.name)}</h1><p>${escapeHtml(product.shortDescription)}</p>${buy}`)
  })

  fastify.get('/checkout/', async (request, reply) => {
    const totals = await carts.checkoutTotals(requestCartKey(shop, request), viewerOf(loginOf(request)))
    const rows = totals.lines.map((line) => `<tr><td>${escapeHtml(line.product.name)} × ${line.line.qty}</td><td>${escapeHtml(money(line.total))}</td></tr>`).join('')
    return page(request, reply, 'shop', 'Checkout', `<h1>Checkout</h1><table>${rows}
<tr><td>Discounts</td><td>${escapeHtml(money(-totals.discount))}</td></tr><tr><td>Shipping</td><td>${escapeHtml(money(totals.shipping))}</td></tr>
<tr><th>Total</th><th data-checkout-total="${totals.total}">${escapeHtml(money(totals.total))}</th></tr></table>`)
  })
}
