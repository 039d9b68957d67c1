import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { createNonceService, NONCE_TICK_SECONDS } from '../../../hosts/reference-shop/auth/nonce.ts'
import { hashPassword, verifyPassword } from '../../../hosts/reference-shop/auth/password.ts'
import { seedDemoUsers } from '../../../seed/seed.ts'
import { buildTestApp, STORE_API, TEST_LONG_SESSIONS, TEST_PASSWORD_HASHING } from '../../helpers/app.ts'
import { createTestPgliteStorage } from '../../helpers/pglite.ts'

const users = {
  admin: { email: 'admin@shop.test', password: 'admin-password-1' },
  shopper: { email: 'shopper@shop.test', password: 'shopper-password-1' }
}

/** A browser: keeps cookies across requests. */
class Browser {
  cookies = new Map<string, string>()
  /** The Store API nonce of the last answer that carried one (a page's script sends it on its Store API writes). */
  nonce: string | undefined
  readonly #app: FastifyInstance
  constructor (app: FastifyInstance) { this.#app = app }

  async request (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    if (method === 'POST' && url.includes('/wc/store/') && this.nonce === undefined) await this.request('GET', url.replace(/\/wc\/store\/v1\/.*$/, '/wc/store/v1/cart'))
    const response = await this.#app.inject({
      method,
      url,
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(method === 'POST' && url.includes('/wc/store/') && this.nonce ? { nonce: this.nonce } : {}),
        ...headers
      },
      ...(payload === undefined ? {} : { payload: payload as object })
    })
    for (const cookie of response.cookies) {
      if (cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now())) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    // A login or logout changes what the nonce is bound to: the next Store API write reads a fresh one first.
    if (url.startsWith('/account/')) this.nonce = undefined
    else if (typeof response.headers.nonce === 'string') this.nonce = response.headers.nonce
    return response
  }

  login (who: { email: string, password: string }) {
    return this.request('POST', '/account/login', who)
  }
}

test('passwords: scrypt hashes verify only the right password', async (t) => {
  const hash = await hashPassword('correct horse', TEST_PASSWORD_HASHING)
  t.match(hash, /^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/, 'the scheme and the parameters it was made with')
  t.not(await hashPassword('correct horse', TEST_PASSWORD_HASHING), hash, 'salted')
  t.equal(await verifyPassword('correct horse', hash), true)
  t.equal(await verifyPassword('correct horsE', hash), false)
  t.equal(await verifyPassword('correct horse', 'md5$abc'), false)
})

test('nonces: valid in their tick and the next, then refused; bound to action, user and session', async (t) => {
  const tick = NONCE_TICK_SECONDS * 1000
  let clock = 1000 * tick + 1
  const nonces = createNonceService({ secrets: ['k'.repeat(32)], now: () => clock })
  const nonce = nonces.create('wp_rest', 7, 'session-a')
  t.equal(nonces.verify(nonce, 'wp_rest', 7, 'session-a'), 1, 'current tick')
  clock += tick - 2
  t.equal(nonces.verify(nonce, 'wp_rest', 7, 'session-a'), 1, 'still the same tick at its last millisecond')
  clock += 2
  t.equal(nonces.verify(nonce, 'wp_rest', 7, 'session-a'), 2, 'across the tick boundary: previous tick, still valid')
  clock += tick
  t.equal(nonces.verify(nonce, 'wp_rest', 7, 'session-a'), 0, 'two ticks on: expired')
  clock = 1000 * tick + 1
  t.equal(nonces.verify(nonce, 'wp_rest', 8, 'session-a'), 0, 'another user')
  t.equal(nonces.verify(nonce, 'wp_rest', 7, 'session-b'), 0, 'another session')
  t.equal(nonces.verify(nonce, 'other_action', 7, 'session-a'), 0, 'another action')
  t.equal(nonces.verify('x'.repeat(nonce.length), 'wp_rest', 7, 'session-a'), 0, 'forged')
  t.equal(nonces.verify('', 'wp_rest', 7, 'session-a'), 0, 'empty')
  const rotated = createNonceService({ secrets: ['n'.repeat(32), 'k'.repeat(32)], now: () => clock })
  t.equal(rotated.verify(nonce, 'wp_rest', 7, 'session-a'), 1, 'an old secret still verifies after rotation')
})

test('login, nonces and logout over HTTP', async (t) => {
  let clock = Date.UTC(2026, 5, 1, 1)
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, users, TEST_PASSWORD_HASHING)
  // Sessions as long as two weeks here, so that the nonces' 12-hour ticks can pass within one.
  const app = await buildTestApp(t, storage, { now: () => new Date(clock), sessions: TEST_LONG_SESSIONS })

  t.test('wrong password and unknown e-mail get the same 401', async (t) => {
    const browser = new Browser(app)
    const wrong = await browser.login({ email: users.shopper.email, password: 'not-the-password' })
    const unknown = await browser.login({ email: 'nobody@shop.test', password: 'not-the-password' })
    t.equal(wrong.statusCode, 401)
    t.same(wrong.json(), unknown.json())
    t.equal(wrong.json().code, 'svc_invalid_credentials')
    t.notOk(browser.cookies.has('svc_session'))
    const empty = await browser.login({ email: '', password: '' })
    t.equal(empty.statusCode, 400)
  })

  t.test('a login sets an httpOnly, SameSite=Lax session cookie and returns the user and a nonce', async (t) => {
    const browser = new Browser(app)
    const response = await browser.login({ email: ' SHOPPER@shop.test ', password: users.shopper.password })
    t.equal(response.statusCode, 200)
    const body = response.json()
    t.same(body.user, { id: body.user.id, email: users.shopper.email, display_name: 'Sam Shopper', capabilities: ['read'] })
    t.type(body.nonce, 'string')
    const cookie = response.cookies.find((candidate) => candidate.name === 'svc_session')!
    t.equal(cookie.httpOnly, true)
    t.equal(cookie.sameSite, 'Lax')
    t.equal(cookie.path, '/')
    t.match(response.headers['cache-control'], 'no-store')

    const nonce = await browser.request('GET', '/account/rest-nonce')
    t.equal(nonce.statusCode, 200)
    t.equal(nonce.json().nonce, body.nonce, 'the same nonce within the tick')
    t.ok(app.shop.auth.verifyRestNonce(body.nonce, (await app.shop.auth.resolve(browser.cookies.get('svc_session')!.split('.')[0]!))!))

    clock += 13 * 3600 * 1000
    const later = await browser.request('GET', '/account/rest-nonce')
    t.not(later.json().nonce, body.nonce, 'a new tick makes a new nonce')
  })

  t.test('after logout the session and its nonce are dead', async (t) => {
    const browser = new Browser(app)
    const { nonce, user } = (await browser.login(users.shopper)).json()
    const sessionId = browser.cookies.get('svc_session')!.split('.')[0]!
    const authenticated = (await app.shop.auth.resolve(sessionId))!
    t.equal(app.shop.auth.verifyRestNonce(nonce, authenticated), true)

    const other = new Browser(app)
    await other.login(users.admin)
    const adminAuth = (await app.shop.auth.resolve(other.cookies.get('svc_session')!.split('.')[0]!))!
    t.equal(app.shop.auth.verifyRestNonce(nonce, adminAuth), false, 'a nonce is refused for another user')

    const oldCookie = browser.cookies.get('svc_session')!
    const loggedOut = await browser.request('POST', '/account/logout')
    t.same(loggedOut.json(), { logged_out: true })
    t.notOk(browser.cookies.has('svc_session'), 'the cookie is cleared')
    t.equal(await app.shop.auth.resolve(sessionId), null, 'the session is gone, so its nonce has no session to match')
    t.equal(user.id, authenticated.user.id)

    const replay = await app.inject({ method: 'GET', url: '/account/rest-nonce', headers: { cookie: `svc_session=${oldCookie}` } })
    t.equal(replay.statusCode, 401, 'the old cookie gets no nonce')
    t.equal((await browser.request('GET', '/account/rest-nonce')).statusCode, 401)
  })

  t.test('a session ends at its lifetime (14 days here)', async (t) => {
    const browser = new Browser(app)
    await browser.login(users.shopper)
    t.equal((await browser.request('GET', '/account/rest-nonce')).statusCode, 200)
    clock += 15 * 24 * 3600 * 1000
    t.equal((await browser.request('GET', '/account/rest-nonce')).statusCode, 401)
  })
})

test('carts and login: the guest cart merges into the saved cart', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, users, TEST_PASSWORD_HASHING)
  const app = await buildTestApp(t, storage)

  // Earlier visit: the shopper, logged in, saves a cart.
  const earlier = new Browser(app)
  await earlier.login(users.shopper)
  await earlier.request('POST', `${STORE_API}/cart/add-item`, { id: 101, quantity: 1 })
  await earlier.request('POST', `${STORE_API}/cart/add-item`, { id: 112, quantity: 1 })
  await earlier.request('POST', '/account/logout')

  // Now, as a guest on another device: two lines, one of them also in the saved cart, and a coupon.
  const guest = new Browser(app)
  await guest.request('POST', `${STORE_API}/cart/add-item`, { id: 101, quantity: 2 })
  await guest.request('POST', `${STORE_API}/cart/add-item`, { id: 103, quantity: 1 })
  await guest.request('POST', `${STORE_API}/cart/add-item`, { id: 112, quantity: 1 })
  await guest.request('POST', `${STORE_API}/cart/apply-coupon`, { code: 'save10' })
  const guestKey = guest.cookies.get('svc_cart')!.split('.')[0]!

  await guest.login(users.shopper)
  const cart = (await guest.request('GET', `${STORE_API}/cart`)).json()
  const quantities = Object.fromEntries(cart.items.map((item: { id: number, quantity: number }) => [item.id, item.quantity]))
  t.same(quantities, { 101: 3, 112: 1, 103: 1 }, 'lines merged; the sold-individually album stays at one')
  t.same(cart.coupons.map((coupon: { code: string }) => coupon.code), ['save10'])
  t.equal(await storage.getCart(guestKey), null, 'the guest cart is gone')

  // Logging out leaves the cart with the account; the browser is a guest with an empty cart again.
  await guest.request('POST', '/account/logout')
  t.equal((await guest.request('GET', `${STORE_API}/cart`)).json().items_count, 0)
  await guest.login(users.shopper)
  t.equal((await guest.request('GET', `${STORE_API}/cart`)).json().items_count, 5, 'logging in again finds the saved cart')

  // A shopper without a saved cart simply takes the guest cart over.
  const admin = new Browser(app)
  await admin.request('POST', `${STORE_API}/cart/add-item`, { id: 104, quantity: 1 })
  await admin.login(users.admin)
  t.equal((await admin.request('GET', `${STORE_API}/cart`)).json().items[0].id, 104)
})

test('private products can be bought by a shop manager only', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, users, TEST_PASSWORD_HASHING)
  const app = await buildTestApp(t, storage)
  const shopper = new Browser(app)
  await shopper.login(users.shopper)
  t.equal((await shopper.request('POST', `${STORE_API}/cart/add-item`, { id: 115, quantity: 1 })).statusCode, 400)
  const admin = new Browser(app)
  await admin.login(users.admin)
  t.equal((await admin.request('POST', `${STORE_API}/cart/add-item`, { id: 115, quantity: 1 })).statusCode, 201)
})
