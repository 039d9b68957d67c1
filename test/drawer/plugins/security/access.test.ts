import { test } from 'tap'
import { buildApp } from '../../../../app.ts'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import { newCartKey } from '../../../../hosts/reference-shop/index.ts'
import { demoShopConfig } from '../../../../seed/demo-config.ts'
import { createPostgresStorage } from '../../../../storage/postgres/index.ts'
import { SITE_URL, TEST_SECRET } from '../../../helpers/app.ts'
import {
  asAdmin, asGuest, asShopper, buildSecurityApp, cartKeyOf, expectError, expectThrough, HOUR, label, login, logout,
  neverExhaustedCounter, newCartToken, svcInject, TEST_ROUTES, USERS, type Login
} from '../../../helpers/security.ts'

const CART_ROWS = SVC_ROUTES.filter((spec) => spec.access === 'cart')
const ADMIN_ROWS = SVC_ROUTES.filter((spec) => spec.access === 'admin')
const PUBLIC_ROWS = SVC_ROUTES.filter((spec) => spec.access === 'public')

/** The same token with one character of its signature changed. */
function tamperSignature (token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A'
  return `${token.slice(0, -2)}${last}${token.slice(-1)}`
}

/** The signature of one token on the claims of another cart. */
function tamperClaims (token: string): string {
  const [header, , signature] = token.split('.') as [string, string, string]
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>
  const forged = Buffer.from(JSON.stringify({ ...claims, user_id: newCartKey() })).toString('base64url')
  return `${header}.${forged}.${signature}`
}

/** A session cookie whose signature no longer matches. */
function tamperCookie (session: Login): string {
  return session.cookie.replace(/svc_session=([^;]+)/, (_match, value: string) => `svc_session=${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`)
}

test('access groups of specification §5 and design §3.3, on every row', async (t) => {
  const { app, clock } = await buildSecurityApp(t, { edition: 'pro' })
  const guestToken = await newCartToken(app)
  const shopper = await login(app, USERS.shopper)
  const shopperToken = await newCartToken(app, { cookie: shopper.cookie })
  const admin = await login(app, USERS.admin)
  const loggedOutShopper = await login(app, USERS.shopper)
  await logout(app, loggedOutShopper)
  const loggedOutAdmin = await login(app, USERS.admin)
  await logout(app, loggedOutAdmin)
  // The token a logged-out browser still holds.
  const loggedOutToken = await newCartToken(app)
  t.teardown(() => clock.reset())

  t.test('cart session: Cart-Token; guests send no nonce, logged-in shoppers a valid one', async (t) => {
    for (const spec of CART_ROWS) {
      t.test(label(spec), async (t) => {
        const send = (headers: Record<string, string>) => svcInject(app, spec, { headers })
        const invalidToken = (headers: Record<string, string>, what: string) => send(headers).then((response) =>
          expectError(t, response, 403, 'svc_invalid_cart_token', what))
        const invalidNonce = (headers: Record<string, string>, what: string) => send(headers).then((response) =>
          expectError(t, response, 403, 'svc_invalid_nonce', what))

        expectThrough(t, await send(asGuest(guestToken)), spec, 'guest with a valid Cart-Token')
        await invalidToken({}, 'no Cart-Token')
        await invalidToken({ 'cart-token': '' }, 'empty Cart-Token')
        await invalidToken({ 'cart-token': 'not-a-token' }, 'garbage Cart-Token')
        await invalidToken({ 'cart-token': tamperSignature(guestToken) }, 'Cart-Token with a tampered signature')
        await invalidToken({ 'cart-token': tamperClaims(guestToken) }, 'Cart-Token with tampered claims')
        await invalidToken({ 'cart-token': app.shop.cartTokens.sign('not-a-cart-key') }, 'signed Cart-Token of something that is no cart key')
        await invalidToken({ cookie: shopper.cookie, 'x-wp-nonce': shopper.nonce }, 'logged in, valid nonce, but no Cart-Token')

        clock.advance(47 * HOUR)
        expectThrough(t, await send(asGuest(guestToken)), spec, 'Cart-Token after 47 hours')
        clock.advance(HOUR)
        await invalidToken(asGuest(guestToken), 'Cart-Token after 48 hours (expired)')
        clock.reset()

        await invalidNonce({ ...asGuest(guestToken), 'x-wp-nonce': shopper.nonce }, 'guest sending a (valid) X-WP-Nonce')
        await invalidNonce({ ...asGuest(guestToken), 'x-wp-nonce': '' }, 'guest sending an empty X-WP-Nonce')
        await invalidNonce({ ...asGuest(guestToken), 'x-wp-nonce': 'garbage' }, 'guest sending a garbage X-WP-Nonce')

        expectThrough(t, await send(asShopper(shopper, shopperToken)), spec, 'logged-in shopper with Cart-Token and a valid nonce')
        expectThrough(t, await send(asShopper(admin, guestToken)), spec, 'a logged-in admin on a cart route, like a shopper')
        await invalidNonce({ 'cart-token': shopperToken, cookie: shopper.cookie }, 'logged-in shopper without a nonce')
        await invalidNonce({ ...asShopper(shopper, shopperToken), 'x-wp-nonce': 'x'.repeat(shopper.nonce.length) }, 'logged-in shopper with a forged nonce')
        await invalidNonce({ ...asShopper(shopper, shopperToken), 'x-wp-nonce': `${shopper.nonce}x` }, 'logged-in shopper with a tampered nonce')
        await invalidNonce({ ...asShopper(shopper, shopperToken), 'x-wp-nonce': admin.nonce }, "logged-in shopper with another user's nonce")
        await invalidNonce({ ...asShopper(shopper, shopperToken), 'x-wp-nonce': loggedOutShopper.nonce }, "the shopper's nonce of another (logged-out) session")
        await invalidNonce(asShopper(loggedOutShopper, loggedOutToken), 'the cookie and nonce of a session after logout')
        expectThrough(t, await send(asGuest(loggedOutToken)), spec, 'after logout, as a guest without the nonce')

        clock.advance(25 * HOUR)
        await invalidNonce(asShopper(shopper, await newCartToken(app)), 'a nonce older than two 12-hour ticks (expired)')
        clock.reset()
      })
    }
  })

  t.test('admin: manage_shop and a valid nonce; 401 when not logged in', async (t) => {
    for (const spec of ADMIN_ROWS) {
      t.test(label(spec), async (t) => {
        const send = (headers: Record<string, string>) => svcInject(app, spec, { headers })
        expectThrough(t, await send(asAdmin(admin)), spec, 'admin with a valid nonce')
        expectThrough(t, await send({ ...asAdmin(admin), 'cart-token': guestToken }), spec, 'admin sending a Cart-Token too')

        expectError(t, await send({}), 401, 'svc_not_logged_in', 'no login')
        expectError(t, await send({ 'x-wp-nonce': admin.nonce }), 401, 'svc_not_logged_in', 'a nonce without its login')
        expectError(t, await send({ 'cart-token': guestToken }), 401, 'svc_not_logged_in', 'a guest with a Cart-Token')
        expectError(t, await send({ cookie: tamperCookie(admin), 'x-wp-nonce': admin.nonce }), 401, 'svc_not_logged_in', 'a tampered session cookie')
        expectError(t, await send(asAdmin(loggedOutAdmin)), 401, 'svc_not_logged_in', 'the cookie and nonce of a session after logout')

        expectError(t, await send(asAdmin(shopper)), 403, 'svc_forbidden', 'a shopper (no manage_shop) with a valid nonce')
        expectError(t, await send({ cookie: admin.cookie }), 403, 'svc_invalid_nonce', 'admin without a nonce')
        expectError(t, await send({ cookie: admin.cookie, 'x-wp-nonce': '' }), 403, 'svc_invalid_nonce', 'admin with an empty nonce')
        expectError(t, await send({ cookie: admin.cookie, 'x-wp-nonce': 'x'.repeat(admin.nonce.length) }), 403, 'svc_invalid_nonce', 'admin with a forged nonce')
        expectError(t, await send({ cookie: admin.cookie, 'x-wp-nonce': shopper.nonce }), 403, 'svc_invalid_nonce', "admin with another user's nonce")
        expectError(t, await send({ cookie: admin.cookie, 'x-wp-nonce': loggedOutAdmin.nonce }), 403, 'svc_invalid_nonce', "admin with the nonce of the admin's logged-out session")

        // A nonce lives 12 to 24 hours, depending on where in its 12-hour tick it was made.
        clock.advance(11 * HOUR)
        expectThrough(t, await send(asAdmin(admin)), spec, 'a nonce 11 hours old')
        clock.advance(14 * HOUR)
        expectError(t, await send(asAdmin(admin)), 403, 'svc_invalid_nonce', 'a nonce 25 hours old (expired)')
        clock.advance(14 * 24 * HOUR)
        expectError(t, await send(asAdmin(admin)), 401, 'svc_not_logged_in', 'a login session older than 14 days')
        clock.reset()
      })
    }
  })

  t.test('public: needs nothing', async (t) => {
    for (const spec of PUBLIC_ROWS) {
      t.test(label(spec), async (t) => {
        expectThrough(t, await svcInject(app, spec), spec, 'no credentials')
        expectThrough(t, await svcInject(app, spec, { headers: { 'cart-token': 'garbage', 'x-wp-nonce': 'garbage', cookie: 'svc_session=garbage' } }), spec, 'bad credentials are ignored')
        expectThrough(t, await svcInject(app, spec, { headers: asShopper(shopper, shopperToken) }), spec, 'a logged-in shopper')
      })
    }
  })

  t.test('route handlers receive the resolved group, cart key and user', async (t) => {
    const whoami = async (spec: typeof TEST_ROUTES.whoami, headers: Record<string, string>) => {
      const response = await svcInject(app, spec, { headers })
      t.equal(response.statusCode, 200)
      return response.json()
    }
    t.same(await whoami(TEST_ROUTES.whoami, asGuest(guestToken)), { group: 'guest', cartKey: cartKeyOf(guestToken), userId: null }, 'guest')
    t.same(await whoami(TEST_ROUTES.whoami, asShopper(shopper, shopperToken)),
      { group: 'shopper', cartKey: cartKeyOf(shopperToken), userId: shopper.userId }, 'logged-in shopper')
    t.same(await whoami(TEST_ROUTES.adminWhoami, asAdmin(admin)), { group: 'admin', cartKey: null, userId: admin.userId }, 'admin')
    expectError(t, await svcInject(app, TEST_ROUTES.whoami), 403, 'svc_invalid_cart_token', 'a route of the test declares its group like the real ones')
  })
})

test('a cart session that cannot be started: 503 svc_cart_session_unavailable on every cart-session row', async (t) => {
  // A real PostgreSQL client pointed at a port where nothing listens.
  const storage = await createPostgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/test', migrate: false, connectionTimeoutMillis: 500 })
  t.teardown(() => storage.close())
  const counter = neverExhaustedCounter()
  t.teardown(() => counter.close())
  const app = await buildApp({ storage, rateCounter: counter, secrets: [TEST_SECRET], siteUrl: SITE_URL, edition: 'pro', shop: demoShopConfig })
  t.teardown(() => app.close())
  // A valid token, signed as the Store API signs it (the Store API itself cannot answer without its storage).
  const token = app.shop.cartTokens.sign(newCartKey())
  // A session cookie signed with the same secret, as an earlier login would have set it.
  const cookie = `svc_session=${app.signCookie('a-session-that-cannot-be-looked-up')}`

  for (const spec of CART_ROWS) {
    t.test(label(spec), async (t) => {
      // A guest's remove-items reads nothing before its write: its body is checked first, and a valid one meets the outage.
      const payload = spec.path === '/cart/remove-items' ? { keys: ['0'.repeat(32)] } : undefined
      expectError(t, await svcInject(app, spec, { headers: { 'cart-token': token }, ...(payload === undefined ? {} : { payload }) }), 503,
        'svc_cart_session_unavailable', 'guest')
      if (payload !== undefined) expectError(t, await svcInject(app, spec, { headers: { 'cart-token': token } }), 400, 'svc_invalid_params', 'guest, no body')
      expectError(t, await svcInject(app, spec, { headers: { 'cart-token': token, cookie, 'x-wp-nonce': 'whatever-nonce-value' } }), 503,
        'svc_cart_session_unavailable', 'with a login that cannot be looked up')
      expectError(t, await svcInject(app, spec, { headers: { 'cart-token': 'garbage' } }), 403, 'svc_invalid_cart_token', 'an invalid token is still refused first')
    })
  }
  for (const spec of ADMIN_ROWS) {
    t.test(label(spec), async (t) => {
      expectError(t, await svcInject(app, spec), 401, 'svc_not_logged_in', 'no login: no storage needed')
      expectError(t, await svcInject(app, spec, { headers: { cookie, 'x-wp-nonce': 'whatever-nonce-value' } }), 503, 'svc_storage_unavailable', 'a login that cannot be looked up')
    })
  }
  for (const spec of PUBLIC_ROWS) {
    t.test(label(spec), async (t) => {
      // No credentials to check, so no cart session to start: the route itself then finds its storage down.
      expectError(t, await svcInject(app, spec), 503, 'svc_storage_unavailable', 'public: no access check, the route\'s own 503')
    })
  }
})
