import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { Compile } from 'typebox/compile'
import { SVC_FRAGMENT_PRIORITY } from '../../../../drawer/plugins/fragments/index.ts'
import { DrawerCartStateSchema } from '../../../../drawer/schemas/drawer-cart.ts'
import { STORE_API } from '../../../helpers/app.ts'
import { buildLoggedApp, productLike, withFilter, type Json } from '../store-api-extension/helpers.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

const MINI_CART = 'div.widget_shopping_cart_content'
const SVC = '.svc-cart-json'
const OPEN_TAG = '<script type="application/json" class="svc-cart-json">'
const END_TAG = '</script>'

/** A browser's classic session: it keeps the cookies the server sets. */
class Browser {
  cookies = new Map<string, string>()
  readonly #app: FastifyInstance
  constructor (app: FastifyInstance) { this.#app = app }

  get cookieHeader () {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  async ajax (action: string, form?: Record<string, string>, method: 'GET' | 'POST' = 'POST'): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({
      method,
      url: `/?wc-ajax=${action}`,
      headers: { cookie: this.cookieHeader, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {})
    })
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value)
    return response
  }

  /** The drawer state the service would build for this browser's cart now. */
  async expectedState () {
    const storeApi = await this.#app.inject({ url: `${STORE_API}/cart`, headers: { cookie: this.cookieHeader } })
    const key = this.#app.shop.cartTokens.verify(String(storeApi.headers['cart-token']))!
    return this.#app.drawerCart.state(await this.#app.shop.carts.get(key))
  }
}

/**
 * Reads the fragment as a browser's HTML parser would: the element starts with the exact start tag; the first
 * `</script` (any case) is its own end tag at the very end, so nothing inside can close the element; the content
 * holds no `<!--` (which would switch the parser into the escaped state) nor any `<`, `>` or U+2028/U+2029; and the
 * content is JSON. Returns the parsed JSON.
 */
function parseFragment (t: Test, html: unknown): Json {
  if (typeof html !== 'string') throw new Error('the fragment is not a string')
  t.ok(html.startsWith(OPEN_TAG), 'starts with the script start tag')
  t.ok(html.endsWith(END_TAG), 'ends with the end tag')
  t.equal(html.toLowerCase().indexOf('</script'), html.length - END_TAG.length, 'the first "</script" is the element\'s own end tag')
  const content = html.slice(OPEN_TAG.length, html.length - END_TAG.length)
  t.notOk(content.includes('<!--'), 'no comment opener inside')
  t.notOk(/[<>\u2028\u2029]/.test(content), 'no <, >, U+2028, U+2029 inside')
  t.notOk(content.includes('&'), 'no raw ampersand inside')
  return JSON.parse(content) as Json
}

test('the .svc-cart-json fragment', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const { app, logs } = await buildLoggedApp(t, storage)
  const validState = Compile(DrawerCartStateSchema)

  t.test('on add_to_cart, get_refreshed_fragments (GET and POST) and remove_from_cart: the drawer\'s cart state', async (t) => {
    const browser = new Browser(app)
    const added = await browser.ajax('add_to_cart', { product_id: '101', quantity: '2' })
    t.equal(added.statusCode, 200)
    const body = added.json()
    t.same(Object.keys(body), ['fragments', 'cart_hash'], 'the platform\'s shape')
    t.same(Object.keys(body.fragments), [MINI_CART, SVC], 'the only fragment the service adds')
    const state = parseFragment(t, body.fragments[SVC])
    t.ok(validState.Check(state), 'valid against the drawer cart schema')
    t.same(state, await browser.expectedState(), 'the drawer\'s cart state')
    t.equal(state.cartHash, body.cart_hash)
    t.equal(state.cartCount, 2)
    t.equal(state.cartItems[0].name, 'Beanie')
    t.equal(state.cartItems[0].presentation.key, state.cartItems[0].key)

    await browser.ajax('add_to_cart', { product_id: '106', variation_id: '1062' })
    for (const [name, response] of [
      ['GET refresh', await browser.ajax('get_refreshed_fragments', undefined, 'GET')],
      ['POST refresh', await browser.ajax('get_refreshed_fragments', { time: '1' })]
    ] as const) {
      t.same(Object.keys(response.json().fragments), [MINI_CART, SVC], name)
      const refreshed = parseFragment(t, response.json().fragments[SVC])
      t.equal(refreshed.cartItems.length, 2, `${name}: both lines`)
      t.equal(refreshed.cartItems[1].variationSummary, 'Color: blue, Size: large')
      t.equal(refreshed.cartHash, response.json().cart_hash)
    }
    const removed = await browser.ajax('remove_from_cart', { cart_item_key: state.cartItems[0].key })
    t.equal(parseFragment(t, removed.json().fragments[SVC]).cartItems.length, 1, 'remove_from_cart answers through the same filter')
  })

  t.test('only while the service is enabled (the setting, read on every response)', async (t) => {
    const browser = new Browser(app)
    t.match(await app.settings.save({ enabled: false }), { ok: true })
    t.teardown(() => app.settings.reset())
    const disabled = await browser.ajax('add_to_cart', { product_id: '103' })
    t.same(Object.keys(disabled.json().fragments), [MINI_CART], 'no fragment when disabled')
    const refresh = await browser.ajax('get_refreshed_fragments', undefined, 'GET')
    t.same(Object.keys(refresh.json().fragments), [MINI_CART])

    t.match(await app.settings.save({ enabled: true }), { ok: true })
    const enabled = await browser.ajax('get_refreshed_fragments', undefined, 'GET')
    t.same(Object.keys(enabled.json().fragments), [MINI_CART, SVC], 'back at once when enabled again')
  })

  t.test('names and filter output with </script>, <!--, U+2028 cannot escape the script element', async (t) => {
    const name = 'Mug </script><script>alert(1)</script> <!-- c --> </SCRIPT >\u2028\u2029 & <b>'
    await storage.upsertProducts([await productLike(storage, 103, { id: 70001, slug: 'nasty', name })])
    withFilter(t, app, 'svc_cart_item_data', (row) => ({
      ...row,
      extraLines: [{ label: '</script><!--', value: '--><script>x()</script>\u2028' }],
      customPresentation: { html: '<!--<script>', end: '</sCrIpT>', sep: '\u2029' }
    }))
    const browser = new Browser(app)
    const response = await browser.ajax('add_to_cart', { product_id: '70001' })
    const state = parseFragment(t, response.json().fragments[SVC])
    t.equal(state.cartItems[0].name, name, 'the name comes back exactly')
    t.same(state.cartItems[0].presentation.extraLines, [{ label: '</script><!--', value: '--><script>x()</script>\u2028' }])
    t.same(state.cartItems[0].presentation.customPresentation, { html: '<!--<script>', end: '</sCrIpT>', sep: '\u2029' })
    t.same(state, await browser.expectedState())
    t.notMatch(response.json().fragments[MINI_CART], '</script><script>', 'the platform escapes its own fragment')
  })

  t.test('a non-string fragment from another extension leaves the fragments untouched', async (t) => {
    withFilter(t, app, 'woocommerce_add_to_cart_fragments', (fragments) => ({ ...fragments, 'span.count': 3, 'div.x': '<div class="x"></div>' }))
    const browser = new Browser(app)
    const response = await browser.ajax('add_to_cart', { product_id: '101' })
    t.same(response.json().fragments[SVC], undefined, 'no svc fragment')
    t.same(Object.keys(response.json().fragments), [MINI_CART, 'span.count', 'div.x'], 'the others as they were')
    t.equal(response.json().fragments['span.count'], 3, 'the non-string value as it was')
    for (const value of [null, { html: '' }, ['<p>'], true]) {
      const remove = app.shop.filters.add('woocommerce_add_to_cart_fragments', (fragments) => ({ ...fragments, odd: value }), 50)
      const refreshed = await browser.ajax('get_refreshed_fragments', undefined, 'GET')
      remove()
      t.notOk(Object.hasOwn(refreshed.json().fragments, SVC), `${JSON.stringify(value)}: no svc fragment`)
    }
  })

  t.test('late priority: other extensions\' fragments come first, and later filters see the service\'s', async (t) => {
    t.equal(SVC_FRAGMENT_PRIORITY, 1000)
    let seenByLater: unknown
    withFilter(t, app, 'woocommerce_add_to_cart_fragments', (fragments) => ({ ...fragments, 'span.count': '<span class="count">1</span>' }), 500)
    withFilter(t, app, 'woocommerce_add_to_cart_fragments', (fragments) => { seenByLater = fragments[SVC]; return fragments }, 2000)
    const browser = new Browser(app)
    const response = await browser.ajax('add_to_cart', { product_id: '101' })
    t.same(Object.keys(response.json().fragments), [MINI_CART, 'span.count', SVC])
    t.equal(seenByLater, response.json().fragments[SVC])
  })

  t.test('nothing was logged along the way', async (t) => {
    t.same(logs, [])
  })
})
