/**
 * A port of WooCommerce's Store API route test class `Batch` (Batch.php) over HTTP.
 * Covers: a batch of cart requests answering 207 with each response; an invalid (non Store API) path refusing the
 * whole batch (woocommerce_rest_invalid_path); more than 25 requests refused; sub-requests sharing the batch's cart.
 * Deliberately different: a Store API route that may not be batched (products) answers `rest_batch_not_allowed`
 * inside the 207 as WordPress does, but we decide it by path; `validation: require-all-validate` is accepted and
 * runs as `normal`.
 */
import { test } from 'tap'
import { shopperWith, STORE_API, wooApp } from './helpers.ts'

test('WooCommerce Batch route tests', async (t) => {
  const app = await wooApp(t)

  t.test('a batch of cart requests: 207 and one answer each, on one cart', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } },
        { path: '/wc/store/v1/cart/add-item', body: { id: 105, quantity: 2 } },
        { path: '/wc/store/v1/cart/apply-coupon', body: { code: 'nope' } }
      ]
    })
    t.equal(response.statusCode, 207)
    const { responses } = response.json()
    t.same(responses.map((r: { status: number }) => r.status), [201, 201, 400])
    t.equal(responses[1].body.items_count, 3)
    t.equal(responses[2].body.code, 'woocommerce_rest_cart_coupon_error')
    t.ok(responses[0].headers['Cart-Token'])
    t.equal((await shopper.cart()).json().items_count, 3, 'the batch worked on the shopper\'s cart')
    t.match(response.headers.nonce, /^[\w-]{22}$/)
  })

  t.test('an invalid path refuses the whole batch', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'batch', {
      requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } }, { path: '/svc/v1/cart', method: 'POST' }]
    })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_invalid_path')
    t.equal(response.json().message, 'Invalid path provided.')
    t.equal((await shopper.cart()).json().items_count, 0, 'nothing ran')
  })

  t.test('a Store API route that is not a cart route is not batched', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'batch', { requests: [{ path: '/wc/store/v1/products/../cart/add-item', body: { id: 103, quantity: 1 } }] })
    t.equal(response.statusCode, 207)
    t.equal(response.json().responses[0].status, 400)
    t.equal(response.json().responses[0].body.code, 'rest_batch_not_allowed')
  })

  t.test('more than 25 requests are refused', async (t) => {
    const shopper = await shopperWith(app, [])
    const requests = Array.from({ length: 26 }, () => ({ path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } }))
    const response = await shopper.request('POST', 'batch', { requests })
    t.equal(response.statusCode, 400)
    t.equal((await shopper.cart()).json().items_count, 0)
  })

  t.test('a cookie-session batch needs the nonce', async (t) => {
    const page = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    const cookie = String(page.headers['set-cookie']).split(';')[0]!
    const payload = { requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } }] }
    const refused = await app.inject({ method: 'POST', url: `${STORE_API}/batch`, headers: { cookie }, payload })
    t.equal(refused.statusCode, 401)
    const allowed = await app.inject({ method: 'POST', url: `${STORE_API}/batch`, headers: { cookie, nonce: String(page.headers.nonce) }, payload })
    t.equal(allowed.statusCode, 207)
    t.equal(allowed.json().responses[0].status, 201)
    const after = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { cookie } })
    t.equal(after.json().items_count, 1, 'the cookie\'s cart')
  })
})
