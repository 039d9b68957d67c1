import { test } from 'tap'
import { createMemoryStorage } from '../../../../storage/index.ts'
import { build, STORE_API } from '../../../helper.ts'
import { USERS } from '../../../helpers/security.ts'

/**
 * The audit found "cookies use the `__Host-` prefix when served over https". Over https the platform's cookies (the
 * classic cart session and the login session) are `__Host-` cookies — Secure, Path=/, no Domain, so no other
 * subdomain and no plain-http page can set or replace them — and a cookie of the plain name is not believed there.
 * Over http (the local demo) the names stay as they are (every other test runs so).
 */

const HTTPS_SITE = 'https://shop.test'

test('host cookie prefix over https', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  const app = await build(t, { storage, users: USERS, siteUrl: HTTPS_SITE })

  const first = await app.inject({ url: `${STORE_API}/cart` })
  const cart = first.cookies.find((cookie) => cookie.name.endsWith('svc_cart'))
  t.equal(cart?.name, '__Host-svc_cart', 'the cart session cookie has the prefix')
  t.same([cart?.secure, cart?.path, cart?.domain, cart?.httpOnly], [true, '/', undefined, true], 'Secure, the whole site, no Domain, httpOnly')

  const again = await app.inject({ url: `${STORE_API}/cart`, headers: { cookie: `__Host-svc_cart=${cart!.value}` } })
  t.notOk(again.cookies.some((cookie) => cookie.name.endsWith('svc_cart')), 'the prefixed cookie names the cart: no new one is set')
  const planted = await app.inject({ url: `${STORE_API}/cart`, headers: { cookie: `svc_cart=${cart!.value}` } })
  t.ok(planted.cookies.some((cookie) => cookie.name === '__Host-svc_cart'), 'a cookie without the prefix is not believed over https: a new cart session starts')

  const login = await app.inject({ method: 'POST', url: '/account/login', headers: { origin: HTTPS_SITE }, payload: USERS.shopper })
  t.equal(login.statusCode, 200, 'logged in', { body: login.body })
  const session = login.cookies.find((cookie) => cookie.name.endsWith('svc_session'))
  t.equal(session?.name, '__Host-svc_session', 'the login session cookie has the prefix')
  t.same([session?.secure, session?.path, session?.domain], [true, '/', undefined])
  const nonce = await app.inject({ url: '/account/rest-nonce', headers: { cookie: `__Host-svc_session=${session!.value}` } })
  t.equal(nonce.statusCode, 200, 'the prefixed session cookie logs the shopper in')
  const plain = await app.inject({ url: '/account/rest-nonce', headers: { cookie: `svc_session=${session!.value}` } })
  t.equal(plain.statusCode, 401, 'the same value under the plain name does not, over https')

  const logout = await app.inject({ method: 'POST', url: '/account/logout', headers: { origin: HTTPS_SITE, cookie: `__Host-svc_session=${session!.value}` } })
  const cleared = logout.cookies.find((cookie) => cookie.name === '__Host-svc_session')
  t.ok(cleared && (cleared.value === '' || (cleared.maxAge ?? 1) <= 0 || (cleared.expires?.getTime() ?? 1) <= Date.now()), 'logout clears the prefixed cookie')
  t.equal(cleared?.secure, true, 'with Secure, or the browser would refuse to clear a __Host- cookie')
})
