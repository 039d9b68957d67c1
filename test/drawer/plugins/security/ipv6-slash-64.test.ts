import type { LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { addressBucket } from '../../../../drawer/plugins/security/index.ts'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import { STORE_API } from '../../../helpers/app.ts'
import {
  asGuest, buildSecurityApp, createSecurityStorage, expectErrorShape, expectExhausted, expectRateHeaders, expectThrough, HOUR, label,
  MINUTE, newCartToken, svcInject, USERS
} from '../../../helpers/security.ts'

/**
 * An IPv6 client holds a whole /64 (a home, a host) and changes its address within it for free, so
 * every rate limit — `svc/v1`, the Store API, login — counts an IPv6 client per /64, an IPv4 client per address and an
 * IPv4-mapped IPv6 address as its IPv4 address, through one function (`addressBucket` of the security plugin), behind
 * trusted proxies too.
 */

test('addressBucket: IPv4 whole, IPv6 per /64, IPv4-mapped as IPv4, anything else as itself', async (t) => {
  const cases: Array<[string | undefined, { ip: string, bucket: string }, string]> = [
    ['203.0.113.7', { ip: '203.0.113.7', bucket: '203.0.113.7' }, 'IPv4'],
    ['2001:db8:1:2:3:4:5:6', { ip: '2001:db8:1:2:3:4:5:6', bucket: '2001:db8:1:2::/64' }, 'IPv6 written out'],
    ['2001:DB8:1:2::9', { ip: '2001:db8:1:2::9', bucket: '2001:db8:1:2::/64' }, 'upper case, compressed: the same /64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', { ip: '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', bucket: '2001:db8:1:2::/64' }, 'leading zeros'],
    ['2001:db8::1', { ip: '2001:db8::1', bucket: '2001:db8:0:0::/64' }, 'zeros compressed in the prefix'],
    ['::1', { ip: '::1', bucket: '0:0:0:0::/64' }, 'loopback'],
    ['fe80::1%eth0', { ip: 'fe80::1', bucket: 'fe80:0:0:0::/64' }, 'a zone index is dropped'],
    ['::ffff:198.51.100.9', { ip: '198.51.100.9', bucket: '198.51.100.9' }, 'IPv4-mapped, dotted'],
    ['::FFFF:c633:6409', { ip: '198.51.100.9', bucket: '198.51.100.9' }, 'IPv4-mapped, in hex'],
    ['64:ff9b::198.51.100.9', { ip: '64:ff9b::198.51.100.9', bucket: '64:ff9b:0:0::/64' }, 'an IPv4 tail that is not a mapped address'],
    ['not-an-address', { ip: 'other:not-an-address', bucket: 'other:not-an-address' }, 'not an address: counted as itself'],
    ['1.2.3.4.5', { ip: 'other:1.2.3.4.5', bucket: 'other:1.2.3.4.5' }, 'almost IPv4'],
    ['2001:db8::1::2', { ip: 'other:2001:db8::1::2', bucket: 'other:2001:db8::1::2' }, 'two ::'],
    [undefined, { ip: 'other:', bucket: 'other:' }, 'no address (the socket is gone)'],
    ['x'.repeat(500), { ip: `other:${'x'.repeat(64)}`, bucket: `other:${'x'.repeat(64)}` }, 'a long text is cut']
  ]
  for (const [address, expected, what] of cases) t.same(addressBucket(address), expected, what)
})

/** The limited `svc/v1` cart-session rows, the smallest limit first. */
const CART_ROWS = SVC_ROUTES.filter((spec) => spec.access === 'cart' && spec.rateLimit !== null).sort((a, b) => a.rateLimit!.max - b.rateLimit!.max)

test('svc/v1, the Store API and login count an IPv6 client per /64', async (t) => {
  const storage = await createSecurityStorage(t)
  let time = 1_700_000_000_000
  const counter = createMemoryRateCounter({ now: () => time })
  t.teardown(() => counter.close())
  const loginLimits = { perIp: { max: 3, windowMs: MINUTE }, perClient: { freeFailures: 1, firstDelayMs: 4000, maxDelayMs: 60_000, forgetAfterMs: HOUR } }
  const { app } = await buildSecurityApp(t, { storage, rateCounter: counter, trustedProxyCidrs: ['10.0.0.0/8'], loginLimits })

  t.test('svc/v1: one /64 is one client, the next /64 another', async (t) => {
    const spec = CART_ROWS[0]!
    const { max } = spec.rateLimit!
    const tokens = await Promise.all(Array.from({ length: max + 4 }, () => newCartToken(app)))
    const send = (i: number, remoteAddress: string, headers: Record<string, string> = {}) =>
      svcInject(app, spec, { headers: { ...asGuest(tokens[i]!), ...headers }, remoteAddress, payload: {} })
    for (let i = 1; i <= max; i++) {
      const response = await send(i, `2001:db8:aa:1::${i.toString(16)}`)
      expectThrough(t, response, spec, `${label(spec)} from address ${i} of the /64`)
      expectRateHeaders(t, response, max, max - i, `address ${i}: one count for the /64`)
    }
    expectExhausted(t, await send(max + 1, '2001:db8:aa:1:ffff:ffff:ffff:ffff'), spec, 'yet another address of the /64, another visitor')
    const next = await send(max + 2, '2001:db8:aa:2::1')
    expectThrough(t, next, spec, 'the next /64')
    expectRateHeaders(t, next, max, max - 1, 'the next /64 counts apart')

    time += 2 * HOUR
    expectRateHeaders(t, await send(1, '198.51.100.9'), max, max - 1, 'an IPv4 client')
    expectRateHeaders(t, await send(2, '::ffff:198.51.100.9'), max, max - 2, 'the same client as an IPv4-mapped IPv6 address')
    expectRateHeaders(t, await send(3, '::ffff:c633:6409'), max, max - 3, 'and in hex')
    expectRateHeaders(t, await send(4, '10.0.0.1', { 'x-forwarded-for': '2001:db8:bb:1::1' }), max, max - 1, 'through a trusted proxy')
    expectRateHeaders(t, await send(5, '10.0.0.2', { 'x-forwarded-for': '2001:db8:bb:1:1:2:3:4' }), max, max - 2, 'the same /64 through another proxy')
  })

  t.test('the Store API: coupon attempts from one /64 share the per-IP count', async (t) => {
    time += 2 * HOUR
    const post = (token: string, remoteAddress: string): Promise<LightMyRequestResponse> => app.inject({
      method: 'POST', url: `${STORE_API}/cart/apply-coupon`, remoteAddress, headers: { 'cart-token': token }, payload: { code: 'no-such-coupon' }
    })
    // 20 a minute per IP: carts of their own (10 a minute per cart), so only the per-IP count can refuse.
    const tokens = await Promise.all(Array.from({ length: 22 }, () => newCartToken(app)))
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) statuses.push((await post(tokens[i]!, `2001:db8:cc:1::${(i + 1).toString(16)}`)).statusCode)
    t.same(statuses.filter((status) => status === 429).length, 1, 'the 21st attempt from the /64 is refused', { statuses })
    t.equal(statuses.at(-1), 429, 'and it is the last one')
    t.not((await post(tokens[21]!, '2001:db8:cc:2::1')).statusCode, 429, 'the next /64 is not refused')
  })

  t.test('login: attempts per address and the growing wait count the /64', async (t) => {
    time += 2 * HOUR
    const attempt = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/account/login', payload: { email, password }, remoteAddress, headers })
    const spray = async (prefix: string) => {
      const statuses: number[] = []
      for (let i = 1; i <= 4; i++) statuses.push((await attempt(`nobody-${prefix}-${i}@shop.test`, 'wrong-password', `${prefix}::${i}`)).statusCode)
      return statuses
    }
    t.same(await spray('2001:db8:dd:1'), [401, 401, 401, 429], 'three attempts per minute from a /64, whichever of its addresses they come from')
    const other = await attempt('nobody-else@shop.test', 'wrong-password', '2001:db8:dd:2::1')
    t.equal(other.statusCode, 401, 'the next /64 is another client')
    t.equal((await attempt('nobody-1@shop.test', 'wrong-password', '203.0.113.9')).statusCode, 401)
    t.equal((await attempt('nobody-2@shop.test', 'wrong-password', '::ffff:203.0.113.9')).statusCode, 401)
    t.equal((await attempt('nobody-3@shop.test', 'wrong-password', '::ffff:cb00:7109')).statusCode, 401)
    t.equal((await attempt('nobody-4@shop.test', 'wrong-password', '203.0.113.9')).statusCode, 429, 'an IPv4 client and its IPv4-mapped spellings are one client')
    const proxied = await attempt('nobody-5@shop.test', 'wrong-password', '10.0.0.1', { 'x-forwarded-for': '2001:db8:dd:1::77' })
    t.equal(proxied.statusCode, 429, 'the spent /64 through a trusted proxy')

    time += 2 * MINUTE
    // The shopper's failures from ever new addresses of one /64 are one client's: the second failure makes it wait.
    for (let i = 1; i <= 2; i++) {
      t.equal((await attempt(USERS.shopper.email, `guess-${i}`, `2001:db8:ee:1::${i}`)).statusCode, 401, `failure ${i}`)
    }
    const waiting = await attempt(USERS.shopper.email, USERS.shopper.password, '2001:db8:ee:1::99')
    t.equal(waiting.statusCode, 429, 'a new address of the /64 waits too, with the right password')
    expectErrorShape(t, waiting, 'the 429')
    t.equal(waiting.json().code, 'svc_rate_limit_exhausted')
    t.equal(waiting.headers['retry-after'], '4', 'for the wait after the first failure past the free ones')
    t.equal((await attempt(USERS.shopper.email, USERS.shopper.password, '2001:db8:ee:2::1')).statusCode, 200, 'another /64 is another client: the right password gets in')
  })
})
