/**
 * A port of WooCommerce's Store API route test class `Batch` (Batch.php) over HTTP.
 * Covers: a batch of cart requests answering 207 with each response; an invalid (non Store API) path refusing the
 * whole batch (woocommerce_rest_invalid_path); more than 25 requests refused; sub-requests sharing the batch's cart.
 * Deliberately different: a Store API route that may not be batched (products) answers `rest_batch_not_allowed`
 * inside the 207 as WordPress does, but we decide it by path; `validation: require-all-validate` is accepted and
 * runs as `normal`. Paths are read percent-decoded with their dot segments resolved: one that cannot be decoded or
 * leads outside `wc/store/v1/` refuses the whole batch with WooCommerce's `woocommerce_rest_invalid_path`.
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
    const response = await shopper.request('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/products', body: { id: 103, quantity: 1 } },
        { path: '/wc/store/v1/cart/%2E%2E/products/103', method: 'PUT' },
        { path: '/wc/store/v1/batch', body: { requests: [] } }
      ]
    })
    t.equal(response.statusCode, 207)
    for (const answer of response.json().responses) {
      t.equal(answer.status, 400)
      t.same(answer.body, { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } })
    }
  })

  t.test('percent-encoded dot segments cannot lead a sub-request outside the Store API', async (t) => {
    const escapes = [
      '/wc/store/v1/cart/%2E%2E/%2E%2E/%2E%2E/account/login',
      '/wc/store/v1/cart/%2e%2e/%2e%2e/%2e%2e/account/login',
      '/wc/store/v1/cart/.%2E/%2E./../account/login',
      '/wc/store/v1/cart%2F..%2F..%2F..%2Faccount%2Flogin',
      '/wc/store/v1/cart/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/account/login',
      '/wc/store/v1/%2E%2E/v1/cart/%2E%2E/%2E%2E/%2E%2E/svc/v1/cart',
      '/wc/store/v1/cart/add-item/%2E%2E/%2E%2E/%2E%2E/%2E%2E/account/logout'
    ]
    for (const path of escapes) {
      const shopper = await shopperWith(app, [])
      const response = await shopper.request('POST', 'batch', {
        requests: [
          { path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } },
          { path, body: { email: 'nobody@example.com', password: 'wrong password' } }
        ]
      })
      t.equal(response.statusCode, 400, path)
      t.same(response.json(), { code: 'woocommerce_rest_invalid_path', message: 'Invalid path provided.', data: { status: 400 } }, path)
      t.equal((await shopper.cart()).json().items_count, 0, `nothing ran: ${path}`)
    }
  })

  t.test('a path that cannot be decoded refuses the whole batch', async (t) => {
    for (const path of ['/wc/store/v1/cart/%E0%A4%A', '/wc/store/v1/cart/add-item%', '/wc/store/v1/cart/%zz']) {
      const shopper = await shopperWith(app, [])
      const response = await shopper.request('POST', 'batch', {
        requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } }, { path, body: { id: 103, quantity: 1 } }]
      })
      t.equal(response.statusCode, 400, path)
      t.same(response.json(), { code: 'woocommerce_rest_invalid_path', message: 'Invalid path provided.', data: { status: 400 } }, path)
      t.equal((await shopper.cart()).json().items_count, 0, `nothing ran: ${path}`)
    }
  })

  t.test('a sub-request runs the decoded path it was checked on', async (t) => {
    const shopper = await shopperWith(app, [])
    const response = await shopper.request('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/add%2Ditem', body: { id: 103, quantity: 1 } },
        { path: '/wc/store/v1/products/%2E%2E/cart/add-item', body: { id: 105, quantity: 2 } },
        { path: '/wc/store/v1/cart/%2E%2E/checkout/%2E%2E/./cart//add-item', body: { id: 103, quantity: 1 } }
      ]
    })
    t.equal(response.statusCode, 207)
    t.same(response.json().responses.map((r: { status: number }) => r.status), [201, 201, 201])
    t.equal((await shopper.cart()).json().items_count, 4)
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
