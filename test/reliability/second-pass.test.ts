import { test } from 'tap'
import { createMemoryStorage } from '../../storage/index.ts'
import { build, STORE_API } from '../helper.ts'
import { login, newCartToken, SITE_ORIGIN, SVC, USERS } from '../helpers/security.ts'

/**
 * The audit's second pass: requests an attacker would try after the audit's list, kept as tests so that what held
 * keeps holding. Tokens, sessions, nonces, origins, input, authorization and headers; each names what it tries.
 */

const BILLING = { first_name: 'Ada', last_name: 'Lovelace', address_1: '1 Main St', city: 'London', postcode: 'N1 1AA', country: 'GB', email: 'ada@example.com' }

test('second pass', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  const app = await build(t, { storage, edition: 'pro', users: USERS })
  const victim = await newCartToken(app)
  await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': victim }, payload: { id: 117, quantity: 2 } })

  t.test('a forged or altered Cart-Token opens a new, empty cart, never someone\'s', async (t) => {
    for (const [what, token] of [['made up', 'abc.def.ghi'], ['its signature altered', `${victim.slice(0, -4)}AAAA`], ['20,000 characters', 'a'.repeat(20_000)]]) {
      const response = await app.inject({ url: `${STORE_API}/cart`, headers: { 'cart-token': token! } })
      t.equal(response.statusCode, 200, `${what}: answered`)
      t.same(response.json().items, [], `${what}: an empty cart`)
      t.not(response.headers['cart-token'], victim, `${what}: not the victim's token`)
    }
  })

  t.test('prototype pollution through a body is refused and pollutes nothing', async (t) => {
    for (const body of ['{"id":117,"quantity":1,"__proto__":{"polluted":true}}', '{"id":117,"quantity":1,"constructor":{"prototype":{"polluted":true}}}']) {
      const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': victim, 'content-type': 'application/json' }, payload: body })
      t.equal(response.statusCode, 400)
      t.equal(response.json().code, 'rest_invalid_json')
    }
    t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched')
  })

  t.test('a reward\'s discount cannot be applied by its code', async (t) => {
    t.ok((await app.settings.save({ rewards: { tiers: [{ id: 'ten', label: '10% off', reward: 'percent_discount', threshold: 100_000, amount: 10, product_id: 0, conditions: { match: 'all', conditions: [] } }] } })).ok)
    t.teardown(async () => { await app.settings.reset() })
    const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/apply-coupon`, headers: { 'cart-token': victim }, payload: { code: 'reward_ten' } })
    t.equal(response.statusCode, 400, 'the code of a tier the cart has not reached is no coupon')
    const cart = await app.inject({ url: `${STORE_API}/cart`, headers: { 'cart-token': victim } })
    t.equal(cart.json().totals.total_discount, '0')
  })

  t.test('paths outside the catalogs are refused', async (t) => {
    for (const file of ['..%2f..%2fpackage.json', '__proto__.json', 'constructor.json']) {
      const response = await app.inject({ url: `/assets/svc-drawer-i18n/${file}` })
      t.equal(response.statusCode, 400, file)
      t.notMatch(response.body, '"dependencies"', `${file}: no file of the server`)
    }
  })

  t.test('the order-received link is built from the site URL, whatever Host the request claims', async (t) => {
    const token = await newCartToken(app)
    await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 118, quantity: 1 } })
    const response = await app.inject({
      method: 'POST',
      url: `${STORE_API}/checkout`,
      headers: { 'cart-token': token, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { billing_address: BILLING, payment_method: 'cod' }
    })
    t.equal(response.statusCode, 200, { body: response.body })
    t.match(response.json().payment_result.redirect_url, /^http:\/\/shop\.test\/checkout\/order-received\//)
  })

  t.test('orders cannot be read by guessing ids or keys', async (t) => {
    for (const query of ['', '?key=wc_order_guess&billing_email=ada@example.com', '?billing_email=ada@example.com']) {
      const response = await app.inject({ url: `${STORE_API}/order/1${query}` })
      t.equal(response.statusCode, 401, `order 1${query}`)
    }
  })

  t.test('sessions: a made-up cookie is no login; admin routes need the role, the nonce and an allowed origin', async (t) => {
    t.equal((await app.inject({ url: '/account/rest-nonce', headers: { cookie: 'svc_session=abc.def' } })).statusCode, 401)
    const shopper = await login(app, USERS.shopper)
    const admin = await login(app, USERS.admin)
    const as = (who: { cookie: string, nonce: string }, extra: Record<string, string> = {}) => ({ origin: SITE_ORIGIN, cookie: who.cookie, 'x-wp-nonce': who.nonce, ...extra })
    t.equal((await app.inject({ url: `${SVC}/settings`, headers: as(shopper) })).statusCode, 403, 'a shopper')
    t.equal((await app.inject({ url: `${SVC}/analytics/export?from=2026-01-01&to=2026-12-31`, headers: as(shopper) })).statusCode, 403, 'a shopper, the CSV export')
    t.equal((await app.inject({ url: `${SVC}/settings`, headers: { origin: SITE_ORIGIN, cookie: admin.cookie } })).statusCode, 403, 'the admin without the nonce')
    t.equal((await app.inject({ url: `${SVC}/settings`, headers: as(admin, { 'x-wp-nonce': shopper.nonce }) })).statusCode, 403, 'the admin with the shopper\'s nonce')
    t.equal((await app.inject({ method: 'POST', url: `${SVC}/settings`, headers: as(admin, { origin: 'https://evil.example' }), payload: { settings: {} } })).statusCode, 403, 'the admin from another origin')
  })

  t.test('input: quantities, ids, codes and searches out of range are 4xx', async (t) => {
    const headers = { 'cart-token': victim }
    const cases: Array<[string, string, unknown]> = [
      ['a negative quantity', 'cart/add-item', { id: 117, quantity: -1 }],
      ['a fractional quantity', 'cart/add-item', { id: 117, quantity: 1.5 }],
      ['an id with SQL in it', 'cart/add-item', { id: '117 OR 1=1', quantity: 1 }],
      ['a 10,000-character coupon', 'cart/apply-coupon', { code: 'x'.repeat(10_000) }],
      ['a coupon with a NUL', 'cart/apply-coupon', { code: 'save10\u0000' }]
    ]
    for (const [what, path, payload] of cases) {
      const response = await app.inject({ method: 'POST', url: `${STORE_API}/${path}`, headers, payload: payload as Record<string, unknown> })
      t.ok(response.statusCode >= 400 && response.statusCode < 500, `${what}: ${response.statusCode}`)
    }
    t.equal((await app.inject({ url: `${STORE_API}/products?search=${encodeURIComponent("' OR 1=1--")}` })).json().length, 0, 'a search with SQL in it finds nothing')
    t.equal((await app.inject({ url: `${STORE_API}/products?per_page=1000000000` })).statusCode, 400)
    t.equal((await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { ...headers, 'content-type': 'text/xml' }, payload: '<a/>' })).statusCode, 415)
  })

  t.test('text a shopper types is escaped on the pages that show it', async (t) => {
    const token = await newCartToken(app)
    await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 118, quantity: 1 } })
    const placed = await app.inject({
      method: 'POST',
      url: `${STORE_API}/checkout`,
      headers: { 'cart-token': token },
      payload: { billing_address: { ...BILLING, first_name: '<script>alert(1)</script>' }, payment_method: 'cod' }
    })
    t.equal(placed.statusCode, 200)
    const page = await app.inject({ url: new URL(placed.json().payment_result.redirect_url).pathname + new URL(placed.json().payment_result.redirect_url).search })
    t.equal(page.statusCode, 200)
    t.notMatch(page.body, '<script>alert(1)</script>', 'not as markup')
    t.match(page.body, '&lt;script&gt;alert(1)&lt;/script&gt;', 'but as the text typed, in the billing address')
  })
})
