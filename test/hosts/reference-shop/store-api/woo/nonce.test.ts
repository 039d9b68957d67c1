/**
 * A port of WooCommerce's `AbstractCartRouteNonceTest` (AbstractCartRouteNonceTest.php) over HTTP, and of the nonce
 * rules of AbstractCartRoute. Covers: test_update_request_without_nonce_is_rejected,
 * test_update_request_with_invalid_nonce_is_rejected, test_invalid_nonce_response_carries_fresh_nonce_header,
 * test_invalid_nonce_does_not_trigger_cart_updated_hook (as: nothing changes), and CartExtensions'
 * test_rejected_cart_update_does_not_remove_shipping_from_pending_order (as: a 403 changes nothing).
 * Deliberately different: the nonce of a guest is bound to the cart cookie's cart key (WordPress binds it to the
 * WooCommerce session's customer id, the same thing); `storeApiNonceCheck: false` stands for the
 * `woocommerce_store_api_disable_nonce_check` filter and is not tested here (app.ts does not pass it on yet).
 */
import { test } from 'tap'
import { STORE_API, wooApp } from './helpers.ts'

test('WooCommerce AbstractCartRoute nonce tests', async (t) => {
  const app = await wooApp(t)

  /** A browser page: the cart cookie and the nonce the Store API hands out on a read. */
  async function page () {
    const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    return { cookie: String(response.headers['set-cookie']).split(';')[0]!, nonce: String(response.headers.nonce) }
  }

  t.test('every cart answer carries Nonce, Nonce-Timestamp, User-ID and Cart-Token', async (t) => {
    const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    t.match(response.headers.nonce, /^[\w-]{22}$/)
    t.match(response.headers['nonce-timestamp'], /^\d+$/)
    t.equal(response.headers['user-id'], '0')
    t.ok(response.headers['cart-token'])
  })

  t.test('test_update_request_without_nonce_is_rejected: 401 and nothing changes', async (t) => {
    const { cookie } = await page()
    const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie }, payload: { id: 103, quantity: 1 } })
    t.equal(response.statusCode, 401)
    t.equal(response.json().code, 'woocommerce_rest_missing_nonce')
    t.equal(response.json().message, 'Missing the Nonce header. This endpoint requires a valid nonce.')
    t.equal(response.json().data.status, 401)
    const after = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { cookie } })
    t.equal(after.json().items_count, 0)
  })

  t.test('test_update_request_with_invalid_nonce_is_rejected and carries a fresh nonce', async (t) => {
    const { cookie } = await page()
    const response = await app.inject({ method: 'PUT', url: `${STORE_API}/cart/items/${'a'.repeat(32)}`, headers: { cookie, nonce: 'this-is-not-a-valid-nonce' }, payload: { quantity: 5 } })
    t.equal(response.statusCode, 403)
    t.equal(response.json().code, 'woocommerce_rest_invalid_nonce')
    t.equal(response.json().message, 'Nonce is invalid.')
    t.match(response.headers.nonce, /^[\w-]{22}$/, 'a fresh nonce to recover with')
    const retry = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie, nonce: String(response.headers.nonce) }, payload: { id: 103, quantity: 1 } })
    t.equal(retry.statusCode, 201, 'the fresh nonce works')
  })

  t.test('a valid nonce and the legacy X-WC-Store-API-Nonce header are accepted', async (t) => {
    const { cookie, nonce } = await page()
    const first = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie, nonce }, payload: { id: 103, quantity: 1 } })
    t.equal(first.statusCode, 201)
    const legacy = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie, 'x-wc-store-api-nonce': nonce }, payload: { id: 103, quantity: 1 } })
    t.equal(legacy.statusCode, 201)
    t.equal(legacy.json().items_count, 2)
  })

  t.test('a nonce made for another cart is refused', async (t) => {
    const one = await page()
    const other = await page()
    const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { cookie: one.cookie, nonce: other.nonce }, payload: { id: 103, quantity: 1 } })
    t.equal(response.statusCode, 403)
    t.equal(response.json().code, 'woocommerce_rest_invalid_nonce')
  })

  t.test('a valid Cart-Token needs no nonce; an invalid one does', async (t) => {
    const read = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    const token = String(read.headers['cart-token'])
    const withToken = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 103, quantity: 1 } })
    t.equal(withToken.statusCode, 201)
    const forged = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': `${token}x` }, payload: { id: 103, quantity: 1 } })
    t.equal(forged.statusCode, 401)
  })

  t.test('reads need no nonce', async (t) => {
    const { cookie } = await page()
    const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart/items`, headers: { cookie } })
    t.equal(response.statusCode, 200)
  })

  t.test('a logged-out nonce does not work for a user (bound to user 0 and the cart key)', async (t) => {
    const { cookie, nonce } = await page()
    const tampered = `${nonce.slice(0, -1)}${nonce.endsWith('A') ? 'B' : 'A'}`
    const response = await app.inject({ method: 'DELETE', url: `${STORE_API}/cart/items`, headers: { cookie, nonce: tampered } })
    t.equal(response.statusCode, 403)
  })
})
