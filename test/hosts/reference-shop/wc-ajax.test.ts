import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { buildTestApp, SITE_URL, STORE_API } from '../../helpers/app.ts'
import { createTestPgliteStorage } from '../../helpers/pglite.ts'
import { login, USERS } from '../../helpers/security.ts'
import { TEST_PASSWORD_HASHING } from '../../helper.ts'
import { seedDemoUsers } from '../../../seed/seed.ts'

/** A browser's classic session: it keeps the cookies the server sets. */
class Browser {
  cookies = new Map<string, string>()
  readonly #app: FastifyInstance
  constructor (app: FastifyInstance) { this.#app = app }

  async ajax (action: string, form?: Record<string, string>, method: 'GET' | 'POST' = 'POST'): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({
      method,
      url: `/?wc-ajax=${action}`,
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {})
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {})
    })
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value)
    return response
  }
}

/** A browser that has logged in: it holds the session's cookies. */
async function loggedIn (app: FastifyInstance, who: { email: string, password: string }): Promise<Browser> {
  const browser = new Browser(app)
  for (const cookie of (await login(app, who)).cookie.split('; ')) {
    const at = cookie.indexOf('=')
    browser.cookies.set(cookie.slice(0, at), cookie.slice(at + 1))
  }
  return browser
}

test('classic AJAX cart', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
  const app = await buildTestApp(t, storage)

  t.test('add_to_cart answers the fragments and the cart hash, and the hash follows the cart', async (t) => {
    const browser = new Browser(app)
    const first = await browser.ajax('add_to_cart', { product_id: '101', quantity: '2' })
    t.equal(first.statusCode, 200)
    const body = first.json()
    t.same(Object.keys(body), ['fragments', 'cart_hash'])
    t.same(Object.keys(body.fragments), ['div.widget_shopping_cart_content', '.svc-cart-json'], 'the mini cart and the service\'s fragment')
    const miniCart: string = body.fragments['div.widget_shopping_cart_content']
    t.match(miniCart, /^<div class="widget_shopping_cart_content">.*<\/div>$/s, 'the full outer HTML of the element')
    t.match(miniCart, 'Beanie')
    t.match(miniCart, '2 &times; <span class="amount">$18.00</span>')
    t.match(miniCart, 'Subtotal:</strong> <span class="amount">$36.00</span>')
    t.match(body.cart_hash, /^[0-9a-f]{32}$/)
    t.ok(browser.cookies.has('svc_cart'), 'the classic session is a cookie')

    const second = await browser.ajax('add_to_cart', { product_id: '103' })
    t.equal(second.json().fragments['div.widget_shopping_cart_content'].match(/mini_cart_item/g).length, 2)
    t.not(second.json().cart_hash, body.cart_hash, 'another cart, another hash')
    const refreshed = await browser.ajax('get_refreshed_fragments', undefined, 'GET')
    t.equal(refreshed.json().cart_hash, second.json().cart_hash, 'the same cart, the same hash')
    const refreshedByPost = await browser.ajax('get_refreshed_fragments', { time: '1' })
    t.same(refreshedByPost.json(), refreshed.json())

    const storeApi = await app.inject({ url: `${STORE_API}/cart`, headers: { cookie: `svc_cart=${browser.cookies.get('svc_cart')}` } })
    t.equal(storeApi.json().items_count, 3, 'the Store API sees the same cart through the cookie')
    t.equal(storeApi.headers['cart-hash'], second.json().cart_hash, 'and the same hash')
  })

  t.test('variations by id or by attribute fields', async (t) => {
    const browser = new Browser(app)
    const byId = await browser.ajax('add_to_cart', { product_id: '106', variation_id: '1062', quantity: '1' })
    t.match(byId.json().fragments['div.widget_shopping_cart_content'], 'Hoodie - Blue, Large')
    const byAttributes = await browser.ajax('add_to_cart', { product_id: '106', attribute_pa_color: 'blue', attribute_pa_size: 'small' })
    t.match(byAttributes.json().fragments['div.widget_shopping_cart_content'], 'Hoodie - Blue, Small')
  })

  t.test('a refused add answers {error, product_url} with status 200', async (t) => {
    const browser = new Browser(app)
    for (const [form, url] of [
      [{ product_id: '109' }, `${SITE_URL}/product/polo/`],
      [{ product_id: '106' }, `${SITE_URL}/product/hoodie/`],
      [{ product_id: '113', quantity: '3' }, `${SITE_URL}/product/single/`],
      [{ product_id: '999999' }, `${SITE_URL}/`]
    ] as const) {
      const response = await browser.ajax('add_to_cart', form)
      t.equal(response.statusCode, 200)
      t.same(response.json(), { error: true, product_url: url }, JSON.stringify(form))
    }
    const invalid = await browser.ajax('add_to_cart', { quantity: '1' })
    t.equal(invalid.statusCode, 400, 'a missing product_id is a bad request')
    t.equal(invalid.json().code, 'svc_invalid_params')
  })

  t.test('a refused add of a draft or private product answers as for a product that does not exist', async (t) => {
    const unknown = (await new Browser(app).ajax('add_to_cart', { product_id: '999999' })).json()
    t.same(unknown, { error: true, product_url: `${SITE_URL}/` })
    const guest = new Browser(app)
    const shopper = await loggedIn(app, USERS.shopper)
    const forms: Array<Record<string, string>> = [{ product_id: '114' }, { product_id: '115' }, { product_id: '114', quantity: '3' }, { product_id: '115', quantity: '2' }]
    for (const [who, browser] of [['guest', guest], ['logged-in shopper', shopper]] as const) {
      for (const form of forms) {
        const response = await browser.ajax('add_to_cart', form)
        t.equal(response.statusCode, 200)
        t.same(response.json(), unknown, `${who}: ${JSON.stringify(form)}`)
        t.notMatch(response.body, /poster|signed-vinyl/, `${who}: no slug in the answer`)
      }
    }
    t.equal((await guest.ajax('get_refreshed_fragments')).json().cart_hash, '', 'nothing was added')
  })

  t.test('a shop manager is still sent to a draft\'s page, and buys a private product', async (t) => {
    const manager = await loggedIn(app, USERS.admin)
    t.same((await manager.ajax('add_to_cart', { product_id: '114' })).json(), { error: true, product_url: `${SITE_URL}/product/poster/` })
    const added = await manager.ajax('add_to_cart', { product_id: '115' })
    t.match(added.json().fragments['div.widget_shopping_cart_content'], 'Signed Vinyl')
  })

  t.test('remove_from_cart', async (t) => {
    const browser = new Browser(app)
    const added = await browser.ajax('add_to_cart', { product_id: '104' })
    const key = /data-cart_item_key="([0-9a-f]{32})"/.exec(added.json().fragments['div.widget_shopping_cart_content'])![1]!
    const removed = await browser.ajax('remove_from_cart', { cart_item_key: key })
    t.match(removed.json().fragments['div.widget_shopping_cart_content'], 'No products in the cart.')
    t.equal(removed.json().cart_hash, '', 'an empty cart has an empty hash')
    const again = await browser.ajax('remove_from_cart', { cart_item_key: key })
    t.same(again.json(), { success: false })
  })

  t.test('the mini cart escapes names', async (t) => {
    const browser = new Browser(app)
    const response = await browser.ajax('add_to_cart', { product_id: '120' })
    const html: string = response.json().fragments['div.widget_shopping_cart_content']
    t.match(html, 'Wallet &lt;Limited&gt; &amp; &quot;Special&quot;')
    t.notMatch(html, '<Limited>')
    t.match(html, 'aria-label="Remove Wallet &lt;Limited&gt; &amp; &quot;Special&quot; from cart"')
  })

  t.test('an unknown action is a 404 in the error shape; the storefront still answers without one', async (t) => {
    const browser = new Browser(app)
    const unknown = await browser.ajax('checkout', { a: '1' })
    t.equal(unknown.statusCode, 404)
    t.equal(unknown.json().code, 'svc_not_found')
    const page = await app.inject({ url: '/' })
    t.equal(page.statusCode, 200)
    t.match(page.body, 'class="widget_shopping_cart_content"', 'the storefront renders the mini cart')
  })
})

test('the fragments filter: added fragments, and a throwing callback that changes nothing', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage, {
    filters: [
      { name: 'woocommerce_add_to_cart_fragments', callback: (fragments, state) => ({ ...fragments, 'span.count': `<span class="count">${state.priced.itemsCount}</span>` }) },
      { name: 'woocommerce_add_to_cart_fragments', callback: () => { throw new Error('broken extension') }, priority: 20 }
    ]
  })
  const browser = new Browser(app)
  const response = await browser.ajax('add_to_cart', { product_id: '101', quantity: '3' })
  t.same(Object.keys(response.json().fragments), ['div.widget_shopping_cart_content', 'span.count', '.svc-cart-json'])
  t.equal(response.json().fragments['span.count'], '<span class="count">3</span>')

  app.shop.filters.add('woocommerce_add_to_cart_fragments', async (fragments) => {
    const { 'span.count': _removed, ...rest } = fragments
    return rest
  }, 30)
  const refreshed = await browser.ajax('get_refreshed_fragments', undefined, 'GET')
  t.same(Object.keys(refreshed.json().fragments), ['div.widget_shopping_cart_content', '.svc-cart-json'], 'a filter added at run time applies')
})
