import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { SHOP_RATE_LIMITS } from '../../hosts/reference-shop/index.ts'
import { createMemoryRateCounter, withFallbackCounter, type RateCounter, type RateHit } from '../../storage/index.ts'
import { StorageUnavailableError } from '../../storage/contract/index.ts'
import { SVC_ROUTES } from '../helpers/routes.ts'
import {
  asGuest, buildSecurityApp, createSecurityStorage, credentialsFor, expectError, expectExhausted, expectRateHeaders,
  expectThrough, label, login, newCartToken, svcInject, USERS
} from '../helpers/security.ts'
import { STORE_API } from '../helper.ts'

/**
 * The app on a rate counter with a per-instance fallback (what server.ts builds over Redis): while the shared store
 * fails or hangs, the limited routes of svc/v1, the Store API and the login keep answering, each instance allowing
 * `ceil(limit / instances)`; `/readyz` stays 200 and says the counting is per instance; the switch is logged once each
 * way; a bad trusted-proxy list still fails closed.
 */

type Mode = 'up' | 'down' | 'hang'

/** A shared store that is up, fails at once, or never answers. */
function flakyStore (): RateCounter & { mode: Mode } {
  const inner = createMemoryRateCounter()
  const gate = async <T>(work: () => Promise<T>): Promise<T> => {
    if (store.mode === 'down') throw new StorageUnavailableError('counter store down')
    if (store.mode === 'hang') return new Promise<T>(() => {})
    return work()
  }
  const store = {
    name: 'flaky',
    mode: 'up' as Mode,
    hit: (key: string, windowMs: number): Promise<RateHit> => gate(() => inner.hit(key, windowMs)),
    hitEach: (keys: readonly string[], windowMs: number): Promise<RateHit[]> => gate(() => inner.hitEach!(keys, windowMs)),
    peek: (key: string, windowMs: number): Promise<RateHit> => gate(() => inner.peek(key, windowMs)),
    reset: (key: string, windowMs: number): Promise<void> => gate(() => inner.reset(key, windowMs)),
    ping: (): Promise<void> => gate(() => inner.ping()),
    close: (): Promise<void> => inner.close()
  }
  return store
}

interface LogLine { level: number, msg: string }

const INSTANCES = 3
/** A limited cart row of svc/v1 whose share per instance is smaller than its limit. */
const ROW = SVC_ROUTES.find((spec) => spec.access === 'cart' && spec.rateLimit !== null && spec.rateLimit.max >= 10)!

async function storeApiPost (app: FastifyInstance, path: string, body: object, token: string, ip = '203.0.113.7'): Promise<LightMyRequestResponse> {
  const options: InjectOptions = { method: 'POST', url: `${STORE_API}/${path}`, remoteAddress: ip, headers: { 'cart-token': token }, payload: body }
  return app.inject(options)
}

/** A guest's Cart-Token for a stored cart (a later write starts no cart). */
async function guestCart (app: FastifyInstance, ip = '203.0.113.7'): Promise<string> {
  const token = (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, remoteAddress: ip })).headers['cart-token'] as string
  const added = await storeApiPost(app, 'cart/add-item', { id: 101, quantity: 1 }, token, ip)
  if (added.statusCode !== 201) throw new Error(`add-item: ${added.statusCode} ${added.body}`)
  return token
}

test('the shared counter store down or hung: limits counted per instance, ready, logged once each way', async (t) => {
  const storage = await createSecurityStorage(t)
  const store = flakyStore()
  const clock = { time: 1_700_000_000_000 }
  const counter = withFallbackCounter(store, createMemoryRateCounter({ now: () => clock.time }), {
    instances: INSTANCES, probeIntervalMs: 1000, now: () => clock.time
  })
  t.teardown(() => counter.close())
  const logs: LogLine[] = []
  const { app } = await buildSecurityApp(t, {
    storage,
    rateCounter: counter,
    // Production's budget for a counter (250 ms): the fallback's own timeout (200 ms) ends first.
    rateCounterTimeoutMs: 250,
    logger: { level: 'info', stream: { write: (line: string) => { logs.push(JSON.parse(line) as LogLine) } } }
  })
  const admin = await login(app, USERS.admin)
  const cartToken = await newCartToken(app)
  const couponCart = await guestCart(app)
  const counterLogs = () => logs.filter((line) => /rate counter/.test(line.msg)).map((line) => ({ level: line.level, msg: line.msg }))
  const readyz = async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' })
    t.equal(response.statusCode, 200, '/readyz answers 200')
    return response.json()
  }

  t.same(await readyz(), {
    status: 'ready',
    checks: { storage: { backend: 'pglite', status: 'ok' }, rate_counter: { backend: 'flaky', status: 'ok', counting: 'shared' } }
  }, '/readyz: shared counting')

  const max = ROW.rateLimit!.max
  const share = Math.ceil(max / INSTANCES)

  await t.test('the store fails: svc/v1 allows each instance its share of the limit', async (t) => {
    store.mode = 'down'
    const send = () => svcInject(app, ROW, { headers: credentialsFor(ROW, { cartToken, admin }), payload: {} })
    for (let i = 1; i <= share; i++) {
      const response = await send()
      expectThrough(t, response, ROW, `${label(ROW)} request ${i} of ${share}`)
      // Each request here stands for INSTANCES of the shop's: (i - 1) × INSTANCES + 1 of the limit used.
      expectRateHeaders(t, response, max, Math.max(0, max - ((i - 1) * INSTANCES + 1)), `request ${i}`)
    }
    expectExhausted(t, await send(), ROW, `${label(ROW)} request ${share + 1}: refused, ceil(${max} / ${INSTANCES}) = ${share} allowed`)
    t.same(await readyz(), {
      status: 'ready',
      checks: { storage: { backend: 'pglite', status: 'ok' }, rate_counter: { backend: 'flaky', status: 'degraded', counting: 'per_instance' } }
    }, '/readyz: ready, rate limits counted per instance')
  })

  await t.test('the Store API\'s limits and the login keep counting', async (t) => {
    const perCart = SHOP_RATE_LIMITS.coupon.perCart[0]!.max
    const couponShare = Math.ceil(perCart / INSTANCES)
    for (let attempt = 1; attempt <= couponShare; attempt++) {
      const guess = await storeApiPost(app, 'cart/apply-coupon', { code: `guess-${attempt}` }, couponCart)
      t.equal(guess.statusCode, 400, `coupon guess ${attempt}: checked (an unknown coupon)`)
    }
    const refused = await storeApiPost(app, 'cart/apply-coupon', { code: 'save10' }, couponCart)
    t.equal(refused.statusCode, 429, `coupon guess ${couponShare + 1}: refused (ceil(${perCart} / ${INSTANCES}))`)
    t.equal(refused.json().code, 'svc_rate_limit_exhausted')

    const loggedIn = await app.inject({ method: 'POST', url: '/account/login', payload: USERS.shopper, remoteAddress: '198.51.100.40' })
    t.equal(loggedIn.statusCode, 200, 'a login is throttled per instance, not refused')
  })

  await t.test('a bad trusted-proxy list still fails closed', async (t) => {
    const remove = app.shop.filters.add('svc_rest_trusted_proxy_cidrs', () => ['not-a-cidr'])
    t.teardown(remove)
    const response = await svcInject(app, ROW, { headers: asGuest(await newCartToken(app)), payload: {} })
    expectError(t, response, 503, 'svc_rate_limit_unavailable', `${label(ROW)} with an invalid proxy list`)
    t.match(response.headers['retry-after'], /^[1-9]\d*$/, 'with Retry-After')
  })

  await t.test('the store back: counting is shared again after a probe, logged once', async (t) => {
    store.mode = 'up'
    t.equal(counter.counting!(), 'per_instance', 'no probe before the interval')
    clock.time += 1000
    t.same(await readyz(), {
      status: 'ready',
      checks: { storage: { backend: 'pglite', status: 'ok' }, rate_counter: { backend: 'flaky', status: 'ok', counting: 'shared' } }
    }, '/readyz probed the store: shared counting again')
    const response = await svcInject(app, ROW, { headers: credentialsFor(ROW, { cartToken, admin }), payload: {} })
    expectThrough(t, response, ROW, `${label(ROW)} counted in the store`)
    expectRateHeaders(t, response, max, max - 1, 'the store\'s count: the requests counted per instance are not in it')
  })

  await t.test('the store hangs: with production\'s budgets the fallback answers before the limit gives up', async (t) => {
    store.mode = 'hang'
    const fresh = await newCartToken(app)
    const first = await svcInject(app, ROW, { headers: asGuest(fresh), payload: {}, remoteAddress: '198.51.100.50' })
    expectThrough(t, first, ROW, 'the request the store left unanswered')
    expectRateHeaders(t, first, max, max - 1, 'counted per instance')
    t.equal(counter.counting!(), 'per_instance')
    for (let i = 2; i <= share; i++) {
      expectThrough(t, await svcInject(app, ROW, { headers: asGuest(fresh), payload: {}, remoteAddress: '198.51.100.50' }), ROW, `request ${i}`)
    }
    expectExhausted(t, await svcInject(app, ROW, { headers: asGuest(fresh), payload: {}, remoteAddress: '198.51.100.50' }), ROW, 'past the share')
    store.mode = 'up'
  })

  t.same(counterLogs(), [
    { level: 40, msg: 'rate counter store does not answer: rate limits are counted per instance until it does' },
    { level: 30, msg: 'rate counter store answers again: rate limits are shared again' },
    { level: 40, msg: 'rate counter store does not answer: rate limits are counted per instance until it does' }
  ], 'one warning per outage, one info line per recovery; no line per request')
  t.notOk(logs.some((line) => /answer 503/.test(line.msg)), 'no limited request was refused for the counter')
})
