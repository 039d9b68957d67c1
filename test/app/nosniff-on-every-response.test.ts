import { test } from 'tap'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { createMemoryStorage } from '../../storage/index.ts'
import { build, STORE_API } from '../helper.ts'
import { newCartToken, SITE_ORIGIN, SVC } from '../helpers/security.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaCartToken } from '../port/tea-shop.ts'

/**
 * The audit found "`X-Content-Type-Options: nosniff` on every response, not only HTML". Every kind of answer the
 * app gives — pages, JSON, errors, scripts, catalogs, health checks, the OpenAPI document, the classic fragments —
 * carries it, and the drawer's own routes carry it on a host of their own too.
 */

test('nosniff on every response of the app', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  const app = await build(t, { storage, edition: 'pro' })
  const token = await newCartToken(app)
  const requests: Array<{ what: string, method?: 'GET' | 'POST', url: string, headers?: Record<string, string>, payload?: string }> = [
    { what: 'a storefront page', url: '/' },
    { what: 'the Store API cart', url: `${STORE_API}/cart` },
    { what: 'a Store API error (bad JSON)', method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token, 'content-type': 'application/json' }, payload: '{' },
    { what: 'an unknown Store API route', url: `${STORE_API}/nope` },
    { what: 'the drawer\'s cart', url: `${SVC}/cart`, headers: { 'cart-token': token, origin: SITE_ORIGIN } },
    { what: 'a drawer error (no token)', url: `${SVC}/cart`, headers: { origin: SITE_ORIGIN } },
    { what: 'the drawer script', url: '/assets/svc-drawer.js' },
    { what: 'a drawer catalog', url: '/assets/svc-drawer-i18n/de.json' },
    { what: 'the health check', url: '/healthz' },
    { what: 'the OpenAPI document', url: '/openapi.json' },
    { what: 'a page that does not exist', url: '/no/such/page' },
    { what: 'the classic fragments', method: 'POST', url: '/?wc-ajax=get_refreshed_fragments', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE_ORIGIN }, payload: '' }
  ]
  for (const request of requests) {
    const response = await app.inject({ method: request.method ?? 'GET', url: request.url, headers: request.headers, payload: request.payload })
    t.equal(response.headers['x-content-type-options'], 'nosniff', `${request.what} (${response.statusCode} ${String(response.headers['content-type']).split(';')[0]})`)
  }
})

test('nosniff on the drawer\'s answers on a host of its own', async (t) => {
  const { app } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'pro' })
  t.teardown(() => app.close())
  await app.ready()
  const token = await teaCartToken(app)
  for (const [what, headers] of [['the cart', { origin: TEA_URL, 'cart-token': token }], ['an error', { origin: TEA_URL }]] as const) {
    const response = await app.inject({ url: '/api/svc/v1/cart', headers })
    t.equal(response.headers['x-content-type-options'], 'nosniff', `svc/v1 ${what} (${response.statusCode})`)
  }
})
