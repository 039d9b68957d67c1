import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { DEVICE_COOKIE } from '../../../../hosts/reference-shop/index.ts'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import type { RateCounter } from '../../../../storage/contract/index.ts'
import { buildSecurityApp, createSecurityStorage, expectErrorShape, HOUR, MINUTE, USERS } from '../../../helpers/security.ts'

/**
 * Once the per-account login limit was spent, the right password got 429 too, so ten requests a
 * minute from anywhere kept the shop manager out; and trusted proxies given as the plugin option alone made every
 * client share the proxy's login budget. Now (hosts/reference-shop/auth/login-limit.ts): a growing wait per account and
 * client, a budget per account for unknown clients only, a known-device cookie and known networks that pass it, and
 * the client found as every other limit finds it.
 */

const LIMITS = {
  perIp: { max: 30, windowMs: MINUTE },
  perClient: { freeFailures: 3, firstDelayMs: 1000, maxDelayMs: 8000, forgetAfterMs: HOUR },
  perAccount: { max: 12, windowMs: HOUR }
}

interface Attempt {
  ip: string
  /** The browser's known-device cookie (its `Cookie` header part). */
  device?: string
  headers?: Record<string, string>
}

function loginOf (app: FastifyInstance) {
  return (who: { email: string, password: string }, { ip, device, headers = {} }: Attempt): Promise<LightMyRequestResponse> => app.inject({
    method: 'POST',
    url: '/account/login',
    payload: who,
    remoteAddress: ip,
    headers: { ...headers, ...(device === undefined ? {} : { cookie: device }) }
  })
}

/** The known-device cookie a successful login set, as a browser sends it back. */
function deviceCookie (t: Test, response: LightMyRequestResponse): string {
  t.equal(response.statusCode, 200, 'logged in', { body: response.body })
  const cookie = response.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)
  t.ok(cookie, 'a known-device cookie is set')
  t.equal(cookie?.httpOnly, true, 'httpOnly')
  t.equal(cookie?.sameSite, 'Lax', 'SameSite=Lax')
  return `${DEVICE_COOKIE}=${cookie?.value ?? ''}`
}

function expectRefused (t: Test, response: LightMyRequestResponse, what: string): number {
  t.equal(response.statusCode, 429, `${what}: 429`, { body: response.body })
  expectErrorShape(t, response, what)
  t.equal(response.json().code, 'svc_rate_limit_exhausted', `${what}: svc_rate_limit_exhausted`)
  t.match(response.headers['retry-after'], /^[1-9]\d*$/, `${what}: Retry-After in whole seconds`)
  return Number(response.headers['retry-after'])
}

const wrong = (who: { email: string }, i: number | string) => ({ email: who.email, password: `wrong-guess-${i}` })

test('admin lockout: the right password from a known client always gets in; guessers wait', async (t) => {
  const storage = await createSecurityStorage(t)
  let time = 1_700_000_000_000
  const counter = createMemoryRateCounter({ now: () => time })
  t.teardown(() => counter.close())
  const { app } = await buildSecurityApp(t, { storage, rateCounter: counter, loginLimits: LIMITS })
  const attempt = loginOf(app)
  const admin = USERS.admin
  let device = ''

  await t.test('with the default limits, eleven failures a minute from anywhere do not keep the shop manager out', async (t) => {
    const defaults = createMemoryRateCounter({ now: () => time })
    t.teardown(() => defaults.close())
    const { app: shop } = await buildSecurityApp(t, { storage, rateCounter: defaults })
    for (let i = 1; i <= 11; i++) {
      t.equal((await loginOf(shop)(wrong(admin, i), { ip: `198.51.100.${i}` })).statusCode, 401, `a guess from botnet address ${i}`)
    }
    t.equal((await loginOf(shop)(admin, { ip: '203.0.113.50' })).statusCode, 200, 'the right password from an address that has not failed gets in')
  })

  await t.test('ten failures from anywhere: the right password from a new address gets in, and makes it known', async (t) => {
    for (let i = 1; i <= 10; i++) {
      t.equal((await attempt(wrong(admin, i), { ip: `198.51.100.${i}` })).statusCode, 401, `a guess from botnet address ${i}`)
    }
    const response = await attempt(admin, { ip: '203.0.113.50' })
    t.equal(response.statusCode, 200, 'the right password from an address that has not failed gets in')
    device = deviceCookie(t, response)
    t.equal((await attempt(wrong(admin, 'b'), { ip: '198.51.100.1' })).statusCode, 401, 'a botnet address that failed once still gets its free failures')
  })

  await t.test('a botnet that spends the budget for unknown clients: the known device and network still get in', async (t) => {
    time += 2 * HOUR // fresh windows: 203.0.113.50 is now a network the admin logged in from, and `device` a known device
    for (let i = 1; i <= LIMITS.perAccount.max; i++) {
      t.equal((await attempt(wrong(admin, i), { ip: `198.51.100.${10 + i}` })).statusCode, 401, `guess ${i} of ${LIMITS.perAccount.max}`)
    }
    const wait = expectRefused(t, await attempt(wrong(admin, 'next'), { ip: '198.51.100.99' }), 'the next guess from a new address')
    t.ok(wait <= HOUR / 1000, `Retry-After ${wait}: until the budget's window ends`)
    expectRefused(t, await attempt(admin, { ip: '203.0.113.77' }), 'the right password from an unknown client waits too')

    t.equal((await attempt(admin, { ip: '203.0.113.78', device })).statusCode, 200, 'the known device, from a new address, gets in')
    const fromBotnet = await attempt(admin, { ip: '198.51.100.11', device })
    t.equal(fromBotnet.statusCode, 200, 'the known device gets in even from an address that failed (its own client)')
    device = deviceCookie(t, fromBotnet)
    t.equal((await attempt(admin, { ip: '203.0.113.50' })).statusCode, 200, 'the network the admin logged in from gets in without the cookie')

    const tampered = device.replace(/.$/, (last) => last === 'A' ? 'B' : 'A')
    expectRefused(t, await attempt(admin, { ip: '203.0.113.79', device: tampered }), 'a tampered device cookie is no known device')
    for (const garbage of [`${DEVICE_COOKIE}=`, `${DEVICE_COOKIE}=%E0%A4%A`, `${DEVICE_COOKIE}=${'x'.repeat(3000)}`, `${DEVICE_COOKIE}=a:b|c:d.sig`]) {
      expectRefused(t, await attempt(admin, { ip: '203.0.113.80', device: garbage }), `a device cookie of garbage (${garbage.slice(0, 30)}): unknown, never a 500`)
    }
    const wrongFromDevice = await attempt(wrong(admin, 'd'), { ip: '203.0.113.81', device })
    t.equal(wrongFromDevice.statusCode, 401, 'a wrong password from the known device is checked (it has failures of its own to spend)')

    time += HOUR
    t.equal((await attempt(admin, { ip: '203.0.113.77' })).statusCode, 200, 'once the window ends, unknown clients get in again')
  })

  await t.test('a device cookie belongs to its account', async (t) => {
    time += 2 * HOUR
    const shopper = USERS.shopper
    for (let i = 1; i <= LIMITS.perAccount.max; i++) await attempt(wrong(shopper, i), { ip: `198.51.100.${100 + i}` })
    expectRefused(t, await attempt(shopper, { ip: '203.0.113.90', device }), 'the admin\'s device cookie does not make the shopper\'s login known')
    const both = await attempt(admin, { ip: '203.0.113.90', device })
    t.equal(both.statusCode, 200, 'the admin on that browser')
  })

  await t.test('a growing wait per account and client: Retry-After doubles to its cap, then a success clears it', async (t) => {
    time += 2 * HOUR
    const shopper = USERS.shopper
    const ip = '198.51.100.200'
    const answers = async (who: { email: string }, from: string) => {
      const seen: Array<number | string> = []
      for (let i = 1; i <= LIMITS.perClient.freeFailures; i++) seen.push((await attempt(wrong(who, i), { ip: from })).statusCode)
      for (let i = 0; i < 5; i++) {
        seen.push((await attempt(wrong(who, `w${i}`), { ip: from })).statusCode)
        const refused = await attempt(wrong(who, `r${i}`), { ip: from })
        seen.push(`${refused.statusCode} after ${String(refused.headers['retry-after'])} s`)
        time += Number(refused.headers['retry-after'] ?? 0) * 1000
      }
      return seen
    }
    const seen = await answers(shopper, ip)
    t.same(seen, [401, 401, 401, 401, '429 after 1 s', 401, '429 after 2 s', 401, '429 after 4 s', 401, '429 after 8 s', 401, '429 after 8 s'],
      'three free failures, then a wait of 1, 2, 4, 8 and 8 seconds (the cap)')
    t.same(await answers({ email: 'nobody-at-all@shop.test' }, '198.51.100.201'), seen, 'the same answers for an account that does not exist')

    t.equal((await attempt(wrong(shopper, 'last'), { ip })).statusCode, 401, 'one more failure after the wait')
    const during = await attempt(shopper, { ip })
    expectRefused(t, during, 'the right password from the waiting client: no password is checked while it waits')
    t.equal((await attempt(shopper, { ip: '198.51.100.202' })).statusCode, 200, 'another client of the same account gets in meanwhile')
    time += Number(during.headers['retry-after']) * 1000
    t.equal((await attempt(shopper, { ip })).statusCode, 200, 'after the wait, the right password gets in')
    const statuses: number[] = []
    for (let i = 1; i <= LIMITS.perClient.freeFailures + 1; i++) statuses.push((await attempt(wrong(shopper, `again-${i}`), { ip })).statusCode)
    t.same(statuses, [401, 401, 401, 401], 'the success cleared the failures: the free ones again')
  })
})

/** Clients behind one proxy, each guessing on accounts of its own: none runs into another's budget. */
async function clientsBehindProxy (t: Test, app: FastifyInstance, what: string): Promise<void> {
  const attempt = loginOf(app)
  const statuses: number[] = []
  for (let client = 1; client <= 3; client++) {
    for (let i = 1; i <= 3; i++) {
      statuses.push((await attempt({ email: `nobody-${client}-${i}@shop.test`, password: 'wrong' }, { ip: '10.0.0.5', headers: { 'x-forwarded-for': `198.51.100.${client}` } })).statusCode)
    }
  }
  t.same(statuses, Array(9).fill(401), `${what}: three clients behind the proxy, three attempts each: none refused`)
  const fourth = await attempt({ email: 'nobody-1-4@shop.test', password: 'wrong' }, { ip: '10.0.0.6', headers: { 'x-forwarded-for': '203.0.113.1, 198.51.100.1' } })
  expectRefused(t, fourth, `${what}: the first client's fourth attempt, through another proxy, with a made-up address in front`)
  t.equal((await attempt(USERS.shopper, { ip: '10.0.0.5', headers: { 'x-forwarded-for': '198.51.100.4' } })).statusCode, 200, `${what}: a fourth client logs in`)
}

test('trusted proxies from one source: the login limit finds the client as every other limit does', async (t) => {
  const storage = await createSecurityStorage(t)
  const limits = { ...LIMITS, perIp: { max: 3, windowMs: MINUTE } }
  const counters: RateCounter[] = []
  const counter = () => {
    const created = createMemoryRateCounter()
    counters.push(created)
    return created
  }
  t.teardown(() => Promise.all(counters.map((created) => created.close())))

  await t.test('the plugin option alone (Fastify itself told to trust no proxy)', async (t) => {
    const { app } = await buildSecurityApp(t, { storage, rateCounter: counter(), loginLimits: limits, trustedProxyCidrs: ['10.0.0.0/8'], fastify: { trustProxy: false } })
    await clientsBehindProxy(t, app, 'option')
  })

  await t.test('the filter svc_rest_trusted_proxy_cidrs alone, added at run time', async (t) => {
    const { app } = await buildSecurityApp(t, { storage, rateCounter: counter(), loginLimits: limits })
    const remove = app.shop.filters.add('svc_rest_trusted_proxy_cidrs', () => ['10.0.0.0/8'])
    await clientsBehindProxy(t, app, 'filter')
    remove()
    const statuses: number[] = []
    for (let i = 1; i <= 4; i++) {
      statuses.push((await loginOf(app)({ email: `after-${i}@shop.test`, password: 'wrong' }, { ip: '10.0.0.7', headers: { 'x-forwarded-for': `192.0.2.${i}` } })).statusCode)
    }
    t.same(statuses, [401, 401, 401, 429], 'without the filter the proxy is the client: its budget is shared')
  })

  await t.test('a bad proxy list: 503 in the WordPress shape, as on svc/v1, never a 500', async (t) => {
    const { app } = await buildSecurityApp(t, { storage, rateCounter: counter(), loginLimits: limits })
    for (const bad of [['10.0.0.0/33'], ['not-a-range'], [42], 'fd00::/129']) {
      const remove = app.shop.filters.add('svc_rest_trusted_proxy_cidrs', () => bad as string[])
      const response = await loginOf(app)(USERS.shopper, { ip: '10.0.0.5' })
      remove()
      t.equal(response.statusCode, 503, `${JSON.stringify(bad)}: 503`)
      expectErrorShape(t, response, JSON.stringify(bad))
      t.equal(response.json().code, 'svc_rate_limit_unavailable')
      t.match(response.headers['retry-after'], /^[1-9]\d*$/, 'with Retry-After')
    }
  })
})
