import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import type { SvcRouteSpec } from '../../../../drawer/plugins/security/index.ts'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import { createTestRedisCounter, rateCounterBackends, untilAnswering } from '../../../helpers/rate-counter-backends.ts'
import { serviceUrl, skipWithout } from '../../../helpers/services.ts'
import {
  asAdmin, asGuest, buildSecurityApp, createSecurityStorage, expectError, expectExhausted, expectRateHeaders,
  expectRetryAfter, expectThrough, label, login, MINUTE, newCartToken, seedAdmins, svcInject, USERS, type Visitor
} from '../../../helpers/security.ts'

const LIMITED = SVC_ROUTES.filter((spec) => spec.rateLimit !== null)
const maxOf = (access: SvcRouteSpec['access']) => Math.max(...LIMITED.filter((spec) => spec.access === access).map((spec) => spec.rateLimit!.max))

const windowName = (spec: SvcRouteSpec) => spec.rateLimit!.windowMs === MINUTE ? 'minute' : `${spec.rateLimit!.windowMs / MINUTE} minutes`

/** The i-th of many client addresses, IPv4 and IPv6 in turn (each IPv6 address in a /64 of its own: limits count /64s). */
const clientAddress = (i: number) => i % 2 === 1 ? `203.0.113.${i}` : `2001:db8:2:${i.toString(16)}::1`

test('rate limits of specification §4.2 and §8, design §3.5: per IP and per visitor, fixed windows', async (t) => {
  const storage = await createSecurityStorage(t)
  // One app for logins and Cart-Tokens; every app below shares its storage and secret, so they accept them.
  const { app: front } = await buildSecurityApp(t, { storage })
  // max + 1 admins for the per-IP tests, and one more that only the Retry-After test uses.
  const adminPool = await Promise.all((await seedAdmins(storage, maxOf('admin') + 2)).map((who) => login(front, who)))
  const tokenPool = await Promise.all(Array.from({ length: maxOf('cart') + 1 }, () => newCartToken(front)))
  const soloAdmin = await login(front, USERS.admin)
  const soloToken = await newCartToken(front)
  /** Distinct visitors of a row's group; `solo` is none of them. */
  const visitorsOf = (spec: SvcRouteSpec): { pool: Visitor[], solo: Visitor } => spec.access === 'admin'
    ? { pool: adminPool.map(asAdmin), solo: asAdmin(soloAdmin) }
    : { pool: tokenPool.map(asGuest), solo: asGuest(soloToken) }

  for (const backend of rateCounterBackends()) {
    t.test(`${backend.name} counter`, { skip: backend.skip }, async (t) => {
      const fixture = backend.create()
      t.teardown(() => fixture.counter.close())
      const { app } = await buildSecurityApp(t, { storage, rateCounter: fixture.counter })
      await untilAnswering(fixture.counter)
      const exactClock = backend.name === 'memory'

      for (const [row, spec] of LIMITED.entries()) {
        const { max, windowMs } = spec.rateLimit!
        t.test(`${label(spec)}: ${max} per ${windowName(spec)}`, async (t) => {
          const { pool, solo } = visitorsOf(spec)
          const send = (visitor: Visitor, remoteAddress: string, payload: string | object = {}) =>
            svcInject(app, spec, { headers: { ...visitor, 'content-type': 'application/json' }, remoteAddress, payload })

          t.test('per IP: different visitors from one IP', async (t) => {
            const ip = row % 2 === 0 ? `198.51.100.${row + 1}` : `2001:db8:1:${row + 1}::1`
            for (let i = 1; i <= max; i++) {
              const response = await send(pool[i - 1]!, ip)
              expectThrough(t, response, spec, `request ${i} of ${max}`)
              expectRateHeaders(t, response, max, max - i, `request ${i}`)
            }
            const refused = await send(pool[max]!, ip)
            expectExhausted(t, refused, spec, `request ${max + 1}, from a visitor new to the route`)
            if (exactClock) t.equal(refused.headers['retry-after'], String(windowMs / 1000), 'Retry-After: the whole window is left')
            expectExhausted(t, await send(pool[0]!, ip), spec, 'the first visitor again from the same IP')
            const elsewhere = await send(pool[max]!, '192.0.2.200')
            expectThrough(t, elsewhere, spec, 'the same visitor from another IP')
            t.equal(elsewhere.headers['x-ratelimit-limit'], String(max))
          })

          t.test('per visitor: one visitor from different IPs', async (t) => {
            for (let i = 1; i <= max; i++) {
              // Request 2 is malformed: an error after the limiter counts and carries the headers.
              const response = i === 2 ? await send(solo, clientAddress(i), '{"broken": ') : await send(solo, clientAddress(i))
              if (i === 2) expectError(t, response, 400, 'svc_invalid_json', 'request 2 (malformed JSON)')
              else expectThrough(t, response, spec, `request ${i} of ${max}`)
              expectRateHeaders(t, response, max, max - i, `request ${i}`)
            }
            const refused = await send(solo, clientAddress(max + 1))
            expectExhausted(t, refused, spec, `request ${max + 1}, from an IP new to the route`)
            expectExhausted(t, await send(solo, '192.0.2.201', '{"broken": '), spec, 'refused before its body is read')
            expectThrough(t, await send(pool[0]!, clientAddress(max + 1)), spec, 'another visitor from the last IP')

            if (!exactClock) return
            // The memory counter's injected clock: the window ends exactly windowMs after its first request.
            await fixture.elapse(windowMs - 1000)
            const lastSecond = await send(solo, '192.0.2.202')
            expectExhausted(t, lastSecond, spec, 'one second before the window ends')
            t.equal(lastSecond.headers['retry-after'], '1', 'Retry-After: 1')
            await fixture.elapse(1000)
            const next = await send(solo, '192.0.2.203')
            expectThrough(t, next, spec, 'the next window')
            expectRateHeaders(t, next, max, max - 1, 'the next window')
          })
        })
      }

      t.test('Retry-After counts down within the window', async (t) => {
        const spec = LIMITED.find((row) => row.rateLimit!.windowMs > MINUTE)!
        const { max, windowMs } = spec.rateLimit!
        const headers = spec.access === 'admin' ? asAdmin(adminPool.at(-1)!) : asGuest(await newCartToken(front))
        for (let i = 1; i <= max; i++) {
          expectThrough(t, await svcInject(app, spec, { headers, remoteAddress: '192.0.2.210' }), spec, `request ${i}`)
        }
        const first = await svcInject(app, spec, { headers, remoteAddress: '192.0.2.210' })
        expectExhausted(t, first, spec, `${label(spec)} exhausted`)
        const before = expectRetryAfter(t, first, windowMs)
        if (!exactClock) return
        await fixture.elapse(10 * MINUTE)
        const later = await svcInject(app, spec, { headers, remoteAddress: '192.0.2.210' })
        expectExhausted(t, later, spec, 'ten minutes later: an hour window is still closed')
        t.equal(expectRetryAfter(t, later, windowMs), before - 600, 'ten minutes less to wait')
      })
    })
  }

  t.test('two app instances sharing one Redis counter (same key prefix) enforce one limit', { skip: skipWithout('REDIS_URL') }, async (t) => {
    const url = serviceUrl('REDIS_URL')
    const keyPrefix = `test:rl:${randomUUID()}:`
    const counters = [createTestRedisCounter(url, { keyPrefix }), createTestRedisCounter(url, { keyPrefix })]
    t.teardown(() => Promise.all(counters.map((counter) => counter.close())))
    const apps: FastifyInstance[] = []
    for (const rateCounter of counters) apps.push((await buildSecurityApp(t, { storage, rateCounter })).app)
    const other = createTestRedisCounter(url)
    t.teardown(() => other.close())
    const separate = (await buildSecurityApp(t, { storage, rateCounter: other })).app
    await Promise.all([...counters, other].map((counter) => untilAnswering(counter)))

    for (const [row, spec] of LIMITED.entries()) {
      t.test(label(spec), async (t) => {
        const { max } = spec.rateLimit!
        const { solo } = visitorsOf(spec)
        // An address per row: the solo cart is never stored, so each write also counts as a new cart (60 an hour).
        const send = (app: FastifyInstance) => svcInject(app, spec, { headers: solo, remoteAddress: `192.0.2.${50 + row}`, payload: {} })
        for (let i = 1; i <= max; i++) {
          const response = await send(apps[i % 2]!)
          expectThrough(t, response, spec, `request ${i} on instance ${i % 2}`)
          expectRateHeaders(t, response, max, max - i, `request ${i} on instance ${i % 2}`)
        }
        expectExhausted(t, await send(apps[(max + 1) % 2]!), spec, `request ${max + 1}`)
        expectExhausted(t, await send(apps[max % 2]!), spec, 'and on the other instance')
        const elsewhere = await send(separate)
        expectThrough(t, elsewhere, spec, 'an instance with another key prefix counts apart')
        expectRateHeaders(t, elsewhere, max, max - 1, 'another key prefix')
      })
    }
  })
})
