import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import { SITE_URL, STORE_API, TEST_PASSWORD_HASHING } from '../helpers/app.ts'
import { proxiedPostgres } from '../helpers/fault-backends.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'
import { report } from '../helpers/reliability-report.ts'
import { asGuest, buildSecurityApp, expectErrorShape, newCartToken, SVC, USERS } from '../helpers/security.ts'
import { waitFor } from '../helper.ts'

/**
 * PostgreSQL goes away (connections reset, or a network that delivers nothing): cart routes answer 503 in the error
 * shape within the pool's connection timeout, the process lives on (idle pooled connections dying included), and
 * it recovers by itself. A transaction broken half-way (before its writes, or on COMMIT) leaves the cart as it was.
 */

const CONNECTION_TIMEOUT_MS = 1000
const QUERY_TIMEOUT_MS = 1500
// A timeout runs from when its query or connection attempt starts; the request's own work before and after it (the
// hooks, pricing, the error's serialisation) comes on top, and on a loaded machine that is not all event-loop stall.
const REQUEST_WORK_ALLOWANCE_MS = 200

interface CartItem { key: string, id: number, quantity: number }

async function cartItems (app: FastifyInstance, token: string): Promise<CartItem[] | null> {
  const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  if (response.statusCode !== 200) return null
  return (response.json() as { items: CartItem[] }).items.map(({ key, id, quantity }) => ({ key, id, quantity }))
}

function addItem (app: FastifyInstance, token: string, id: number, quantity = 1) {
  return app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id, quantity } })
}

test('PostgreSQL outages: 503 in time, the process lives, recovery by itself, no half-written cart', { timeout: 90_000, skip: skipWithout('DATABASE_URL') }, async (t) => {
  const url = serviceUrl('DATABASE_URL')
  const pg = await proxiedPostgres(url, { connectionTimeoutMillis: CONNECTION_TIMEOUT_MS, queryTimeoutMillis: QUERY_TIMEOUT_MS })
  t.teardown(() => pg.dispose())
  const { proxy, storage } = pg
  await seedDemoShop(storage, SITE_URL)
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
  const { app } = await buildSecurityApp(t, { storage })
  const token = await newCartToken(app)
  t.equal((await addItem(app, token, 101, 2)).statusCode, 201, 'a cart with a line before any fault')
  const before = await cartItems(app, token)
  t.equal(before?.length, 1, 'one line')

  const worst: Record<string, number> = {}
  const recovery: Record<string, number> = {}

  /** Requests that need the database: each must answer 503 in the error shape, in time. */
  async function expectUnavailable (t: Test, fault: string, boundMs: number) {
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const requests: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      ['GET svc/v1/cart', () => app.inject({ method: 'GET', url: `${SVC}/cart`, headers: asGuest(token) })],
      ['POST svc/v1/coupon', () => app.inject({ method: 'POST', url: `${SVC}/coupon`, headers: asGuest(token), payload: { code: 'save10' } })],
      ['POST svc/v1/cart/remove-items', () => app.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: asGuest(token), payload: { keys: [before![0]!.key] } })],
      ['GET Store API cart', () => app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })],
      ['POST Store API add-item', () => addItem(app, token, 103)]
    ]
    const times: number[] = []
    // All at once, as a shop's traffic would arrive, then once more each.
    for (const round of [0, 1]) {
      const answers = await Promise.all(requests.map(async ([name, send]) => {
        const start = performance.now()
        const response = await send()
        return { name, response, ms: performance.now() - start }
      }))
      for (const { name, response, ms } of answers) {
        times.push(ms)
        t.equal(response.statusCode, 503, `${fault}, round ${round + 1}: ${name} answers 503 (${ms.toFixed(0)} ms)`, { found: response.body })
        expectErrorShape(t, response, `${fault}: ${name}`)
      }
    }
    loopDelay.disable()
    const stallMs = loopDelay.max / 1e6
    const slowest = Math.max(...times)
    t.ok(slowest <= boundMs + REQUEST_WORK_ALLOWANCE_MS + stallMs,
      `${fault}: the slowest took ${slowest.toFixed(0)} ms (bound ${boundMs} ms + ${REQUEST_WORK_ALLOWANCE_MS} ms of request work + ${stallMs.toFixed(0)} ms of event-loop stall)`)
    worst[fault] = Math.round(slowest)

    const ready = await app.inject({ method: 'GET', url: '/readyz' })
    t.equal(ready.statusCode, 503, `${fault}: /readyz answers 503`)
    t.match(ready.json(), { status: 'unavailable', checks: { storage: { backend: 'postgres', status: 'unavailable' }, rate_counter: { status: 'ok' } } }, `${fault}: /readyz names the database`)
    t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, `${fault}: the process answers /healthz`)
  }

  async function expectRecovery (t: Test, fault: string) {
    proxy.restore()
    const start = performance.now()
    const last: { response?: LightMyRequestResponse } = {}
    await waitFor(async () => {
      last.response = await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: asGuest(token) })
      return last.response.statusCode === 200
    }, { timeoutMs: 20_000, intervalMs: 25, what: `${fault}: GET svc/v1/cart answering 200` }).catch(() => {})
    recovery[fault] = Math.round(performance.now() - start)
    t.equal(last.response?.statusCode, 200, `${fault}: cart routes answer again ${recovery[fault]} ms after the database returned`)
    t.same(await cartItems(app, token), before, `${fault}: the cart is as it was`)
    t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, `${fault}: /readyz is ready again`)
  }

  await t.test('the server gone: connections reset (idle pooled ones included), new ones refused', async (t) => {
    proxy.cut()
    await expectUnavailable(t, 'reset', CONNECTION_TIMEOUT_MS)
    await expectRecovery(t, 'reset')
  })

  await t.test('a network that delivers nothing: pooled connections hang, new ones never open', async (t) => {
    // Fill the pool with idle connections first, so that both kinds meet the fault.
    await Promise.all(Array.from({ length: 4 }, () => app.inject({ method: 'GET', url: `${SVC}/cart`, headers: asGuest(token) })))
    proxy.blackhole()
    await expectUnavailable(t, 'blackhole', QUERY_TIMEOUT_MS)
    await expectRecovery(t, 'blackhole')
  })

  await t.test('a transaction broken half-way leaves nothing behind', async (t) => {
    // The add is one statement after the cart's read, with no COMMIT of its own: cut as that statement is sent.
    const fired = proxy.cutOnceWhen((bytes) => /(UPDATE|INSERT INTO) svc_carts/.test(bytes.toString('latin1')))
    const response = await addItem(app, token, 102, 3)
    await fired
    t.equal(response.statusCode, 503, 'before its write: the add answers 503', { found: response.body })
    expectErrorShape(t, response, 'before its write: the add')
    t.same(await cartItems(app, token), before, 'before its write: the cart is unchanged')
    // A write under the cart's lock (a cart changed since its read, or a caller without a read) is a transaction:
    // cut on its COMMIT, it stores nothing, not even the row it made to hold the lock.
    const onCommit = proxy.cutOnceWhen((bytes) => bytes.toString('latin1').includes('COMMIT'))
    await t.rejects(storage.updateCart('outage-locked-write', () => ({ data: { lines: [], coupons: ['x'] }, result: null })), 'on COMMIT: the write fails')
    await onCommit
    await waitFor(async () => (await storage.getCart('outage-locked-write').then(() => true, () => false)), { timeoutMs: 10_000, intervalMs: 25, what: 'the database answering again' })
    t.equal(await storage.getCart('outage-locked-write'), null, 'on COMMIT: nothing stored')
    const retry = await addItem(app, token, 102, 3)
    t.equal(retry.statusCode, 201, 'the same add succeeds once the connection is back')
    t.same((await cartItems(app, token))?.map(({ id, quantity }) => [id, quantity]), [[101, 2], [102, 3]], 'and is stored once')
  })

  report('postgres outages', {
    faults: 2 + 2,
    worstResetMs: worst.reset ?? -1,
    worstBlackholeMs: worst.blackhole ?? -1,
    recoveryResetMs: recovery.reset ?? -1,
    recoveryBlackholeMs: recovery.blackhole ?? -1,
    connectionsBroken: proxy.connectionsBroken
  })
})
