import { readFile } from 'node:fs/promises'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { test } from 'tap'
import { loggerOptions } from '../../config/logger.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { SITE_URL, STORE_API } from '../helpers/app.ts'
import { breakableCounter, buildSecurityApp, createSecurityStorage, expectErrorShape, login, newCartToken, SVC, USERS } from '../helpers/security.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

test('hardening', { timeout: 110_000 }, async (t) => {
  // One seeded database for every part: each builds its own app on it.
  const storage = await createSecurityStorage(t)

  await t.test('secrets never reach the logs', async (t) => {
    let logged = ''
    const stream = new Writable({ write (chunk, _encoding, done) { logged += String(chunk); done() } })
    const { app } = await buildSecurityApp(t, { storage, logger: loggerOptions('trace', stream) })
    const session = await login(app, USERS.admin)
    const token = await newCartToken(app)
    const headers = { cookie: session.cookie, 'x-wp-nonce': session.nonce, 'cart-token': token, authorization: 'Bearer top-secret-bearer' }
    await app.inject({ method: 'GET', url: `${SVC}/settings`, headers })
    await app.inject({ method: 'GET', url: `${SVC}/cart`, headers })
    await app.inject({ method: 'POST', url: '/account/login', payload: { email: USERS.shopper.email, password: 'wrong-password-in-a-log?' } })
    // A body that is not JSON: its text must not come back in an error message that gets logged.
    await app.inject({ method: 'POST', url: '/account/login', headers: { 'content-type': 'application/json' }, payload: `{"email":"a@b.c","password":"${USERS.admin.password}"` })
    await app.inject({ method: 'GET', url: '/missing', headers })
    // Whatever logs a request or its headers in full is redacted too.
    app.log.info({ req: { headers }, headers, body: { password: USERS.admin.password }, user: { passwordHash: 'scrypt$hash' } }, 'a careless log line')

    t.ok(logged.length > 1000, 'the requests were logged at trace level')
    for (const [name, secret] of Object.entries({
      'session cookie': session.cookie.split('=')[1]!.slice(0, 30),
      nonce: session.nonce,
      'Cart-Token': token,
      Authorization: 'top-secret-bearer',
      'admin password': USERS.admin.password,
      'a wrong password': 'wrong-password-in-a-log?',
      'password hash': 'scrypt$hash'
    })) {
      t.notOk(logged.includes(secret), `no ${name} in the logs`)
    }
    t.match(logged, /\[redacted\]/, 'redacted values are marked')
  })

  await t.test('tokens, nonces, passwords and signed cookies are compared in constant time', async (t) => {
    const sources: Record<string, string> = {
      'Cart-Token': 'hosts/reference-shop/session/cart-token.ts',
      'REST nonce': 'hosts/reference-shop/auth/nonce.ts',
      password: 'hosts/reference-shop/auth/password.ts',
      'signed cookies (@fastify/cookie)': 'node_modules/@fastify/cookie/signer.js'
    }
    for (const [what, file] of Object.entries(sources)) {
      const text = await readFile(`${ROOT}${file}`, 'utf8')
      t.match(text, /timingSafeEqual\(/, `${what}: crypto.timingSafeEqual`)
      t.notMatch(text, /(signature|expected|digest|mac|hash)\s*={2,3}\s*\w/i, `${what}: no === on a secret value`)
    }
    const { app } = await buildSecurityApp(t, { storage })
    const token = await newCartToken(app)
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'AB' : 'AA'}`
    const response = await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: { 'cart-token': flipped } })
    t.equal(response.statusCode, 403, 'a token with a signature of the same length but wrong is refused')
  })

  await t.test('session cookies: httpOnly and SameSite always, Secure behind https', async (t) => {
    const cookieOf = async (options: Parameters<typeof buildSecurityApp>[1], request: { remoteAddress?: string, headers?: Record<string, string> } = {}) => {
      const { app } = await buildSecurityApp(t, { storage, ...options })
      const response = await app.inject({ method: 'POST', url: '/account/login', payload: USERS.shopper, ...request })
      t.equal(response.statusCode, 200, 'logged in')
      // Over https the cookie is `__Host-svc_session`.
      return response.cookies.find((cookie) => cookie.name === 'svc_session' || cookie.name === '__Host-svc_session')!
    }
    const plain = await cookieOf({})
    t.match(plain, { httpOnly: true, sameSite: 'Lax', path: '/' }, 'on http: httpOnly, SameSite=Lax')
    t.notOk(plain.secure, 'on http: not Secure (the browser would drop it)')
    const https = await cookieOf({ siteUrl: 'https://shop.example' })
    t.ok(https.secure, 'an https site URL: Secure')
    t.equal(https.name, '__Host-svc_session', 'and the __Host- prefix')
    const proxied = { fastify: { trustProxy: ['10.0.0.0/8'] } }
    const behind = await cookieOf(proxied, { remoteAddress: '10.0.0.5', headers: { 'x-forwarded-proto': 'https' } })
    t.ok(behind.secure, 'X-Forwarded-Proto: https from a trusted proxy: Secure')
    t.equal(behind.name, '__Host-svc_session', 'and the __Host- prefix')
    t.match(behind, { httpOnly: true, sameSite: 'Lax' }, 'and still httpOnly, SameSite=Lax')
    const spoofed = await cookieOf(proxied, { remoteAddress: '192.0.2.7', headers: { 'x-forwarded-proto': 'https' } })
    t.notOk(spoofed.secure, 'X-Forwarded-Proto from anyone else is ignored')
    t.equal(spoofed.name, 'svc_session', 'and no prefix')
  })

  await t.test('HTML pages carry a Content-Security-Policy without inline scripts, and nosniff', async (t) => {
    const { app } = await buildSecurityApp(t, { storage })
    const pages = ['/', '/product/beanie/']
    const admin = app.hasRoute({ method: 'GET', url: '/admin/cart-drawer/' }) ? '/admin/cart-drawer/' : null
    if (admin !== null) pages.push(admin)
    const session = await login(app, USERS.admin)
    for (const page of pages) {
      const response = await app.inject({ method: 'GET', url: page, headers: page === admin ? { cookie: session.cookie } : {} })
      t.equal(response.statusCode, 200, `${page}: 200`)
      t.match(response.headers['content-type'], /^text\/html/, `${page}: HTML`)
      const csp = String(response.headers['content-security-policy'] ?? '')
      const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? ''
      t.equal(scriptSrc.trim(), "'self'", `${page}: script-src 'self' only`)
      t.match(csp, /object-src 'none'/, `${page}: no plugins`)
      t.match(csp, /frame-ancestors 'self'/, `${page}: not framed by other sites`)
      t.equal(response.headers['x-content-type-options'], 'nosniff', `${page}: X-Content-Type-Options: nosniff`)
      const inline = [...response.body.matchAll(/<script\b([^>]*)>/g)].filter(([, attributes]) => !/\bsrc=/.test(attributes!) && !/type="application\/json"/.test(attributes!))
      t.same(inline.map(([tag]) => tag), [], `${page}: no inline script (data blocks only)`)
    }
    const script = await app.inject({ method: 'GET', url: '/assets/shop-classic.js' })
    t.equal(script.statusCode, 200, 'the storefront script is a file')
    t.match(script.headers['content-type'], /^text\/javascript/, 'served as JavaScript')
    const api = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
    t.equal(api.headers['content-security-policy'], undefined, 'JSON answers carry no page headers')
  })

  await t.test('login attempts are throttled per client address, per account and client, and per account for unknown clients', async (t) => {
    let time = 1_700_000_000_000
    const counter = createMemoryRateCounter({ now: () => time })
    t.teardown(() => counter.close())
    // Smaller limits than the defaults: each attempt costs a password hash. (test/hosts/reference-shop/hardening/admin-lockout.test.ts has the rest.)
    const loginLimits = { perIp: { max: 6, windowMs: 60_000 }, perAccount: { max: 3, windowMs: 60_000 }, timeoutMs: 1000 }
    const { app } = await buildSecurityApp(t, { storage, rateCounter: counter, siteUrl: SITE_URL, loginLimits })
    const attempt = (who: { email: string, password: string }, ip: string) =>
      app.inject({ method: 'POST', url: '/account/login', payload: who, remoteAddress: ip })

    for (let i = 1; i <= 3; i++) {
      t.equal((await attempt({ ...USERS.shopper, password: `guess-${i}` }, `198.51.100.${i}`)).statusCode, 401, `wrong password ${i} (from a new address each time)`)
    }
    const refused = await attempt(USERS.shopper, '198.51.100.99')
    t.equal(refused.statusCode, 429, 'the account\'s budget for unknown clients is spent: another unknown client is refused, right password or not')
    expectErrorShape(t, refused, 'the 429')
    t.equal(refused.json().code, 'svc_rate_limit_exhausted', 'svc_rate_limit_exhausted')
    t.match(refused.headers['retry-after'], /^[1-9]\d*$/, 'with Retry-After')
    t.equal((await attempt(USERS.admin, '198.51.100.99')).statusCode, 200, 'another account from that address logs in')

    time += 120_000
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await attempt({ email: `nobody-${i}@shop.test`, password: 'wrong-password' }, '203.0.113.5')).statusCode)
    t.same(statuses, [401, 401, 401, 401, 401, 401, 429], 'six attempts on six accounts from one address are checked; the seventh is refused')
    t.equal((await attempt(USERS.shopper, '203.0.113.6')).statusCode, 200, 'a neighbour address is not affected')
    time += 120_000
    t.equal((await attempt(USERS.shopper, '203.0.113.5')).statusCode, 200, 'the next window lets the address in again')

    const broken = breakableCounter(createMemoryRateCounter())
    t.teardown(() => broken.close())
    const { app: failing } = await buildSecurityApp(t, { storage, rateCounter: broken })
    broken.broken = true
    const down = await failing.inject({ method: 'POST', url: '/account/login', payload: USERS.shopper })
    t.equal(down.statusCode, 503, 'a counter without a fallback whose store is down refuses logins (fail closed)')
    t.equal(down.json().code, 'svc_rate_limit_unavailable', 'svc_rate_limit_unavailable')
  })
})
