import { test, type Test } from 'tap'
import type { SvcRouteSpec } from '../../../../drawer/plugins/security/index.ts'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import { createMemoryRateCounter } from '../../../../storage/memory/index.ts'
import { createRateCounter, withFallbackCounter } from '../../../../storage/index.ts'
import { startSilentServer } from '../../../helpers/rate-counter-backends.ts'
import {
  asAdmin, asGuest, breakableCounter, buildSecurityApp, createSecurityStorage, credentialsFor, expectError,
  expectExhausted, expectRateHeaders, expectThrough, label, login, newCartToken, seedAdmins, svcInject, USERS, type Visitor
} from '../../../helpers/security.ts'

const LIMITED = SVC_ROUTES.filter((spec) => spec.rateLimit !== null)
const UNLIMITED = SVC_ROUTES.filter((spec) => spec.rateLimit === null)

/** A 503 of a rate limiter that cannot work, with a `Retry-After`. */
function expectLimiterUnavailable (t: Test, response: Awaited<ReturnType<typeof svcInject>>, what: string): void {
  expectError(t, response, 503, 'svc_rate_limit_unavailable', what)
  t.match(response.headers['retry-after'], /^[1-9]\d*$/, `${what}: Retry-After in whole seconds`)
}

test('trusted proxies, a bad proxy list and a counter store that fails (design §3.5)', async (t) => {
  const storage = await createSecurityStorage(t)
  let time = 1_700_000_000_000
  const counter = createMemoryRateCounter({ now: () => time })
  t.teardown(() => counter.close())
  const { app } = await buildSecurityApp(t, { storage, rateCounter: counter, trustedProxyCidrs: ['10.0.0.0/8', 'fd00::/8'] })
  const admins = await Promise.all((await seedAdmins(storage, 12)).map((who) => login(app, who)))
  const tokens = await Promise.all(Array.from({ length: 12 }, () => newCartToken(app)))
  const admin = await login(app, USERS.admin)
  const cartToken = await newCartToken(app)
  /** A different visitor for every request of a row, so that X-RateLimit-Remaining shows the IP key's count. */
  const visitors = (spec: SvcRouteSpec): Visitor[] => spec.access === 'admin' ? admins.map(asAdmin) : tokens.map(asGuest)

  t.test('behind trusted proxies the right-most untrusted X-Forwarded-For address is the client', async (t) => {
    for (const spec of LIMITED) {
      t.test(label(spec), async (t) => {
        time += 2 * 3_600_000 // fresh windows
        const max = spec.rateLimit!.max
        const pool = visitors(spec)
        let next = 0
        const step = async (peer: string, forwardedFor: string | null, remaining: number, what: string) => {
          const headers = { ...pool[next++]!, ...(forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor }) }
          const response = await svcInject(app, spec, { headers, remoteAddress: peer, payload: {} })
          expectThrough(t, response, spec, what)
          expectRateHeaders(t, response, max, remaining, what)
        }
        await step('10.0.0.5', '198.51.100.7', max - 1, 'client A through proxy 10.0.0.5')
        await step('10.0.0.5', '198.51.100.8', max - 1, 'client B through the same proxy: a limit of its own')
        await step('10.0.0.6', '192.0.2.99, 198.51.100.7', max - 2, 'A prepending a made-up address: still A')
        await step('10.0.0.5', '198.51.100.7, 10.1.2.3', max - 3, 'A through two trusted proxies')
        await step('fd00::1', '2001:db8::7', max - 1, 'IPv6 client C through IPv6 proxy fd00::1')
        await step('fd00::2', '2001:db8::7, fd00::9', max - 2, 'C through two IPv6 proxies')
        await step('fd00::3', '198.51.100.8', max - 2, 'B through an IPv6 proxy')
        await step('192.0.2.1', '198.51.100.7', max - 1, 'an untrusted peer: X-Forwarded-For is ignored')
        await step('192.0.2.1', '198.51.100.9', max - 2, 'the same untrusted peer claiming another client')
        await step('192.0.2.1', null, max - 3, 'the same untrusted peer without X-Forwarded-For')
        await step('2001:db8:0:1::1', '198.51.100.7', max - 1, 'an untrusted IPv6 peer')
        await step('2001:db8::1', '198.51.100.7', max - 3, 'an untrusted IPv6 peer in C\'s /64: counted with C')
      })
    }
  })

  t.test('clients behind one proxy exhaust their own limits, and cannot escape them by spoofing', async (t) => {
    for (const spec of LIMITED.filter((row) => row.access === 'cart' && row.rateLimit!.max <= tokens.length - 2)) {
      t.test(label(spec), async (t) => {
        time += 2 * 3_600_000
        const max = spec.rateLimit!.max
        const pool = visitors(spec)
        const send = (visitor: Visitor, forwardedFor: string, peer = '10.0.0.5') =>
          svcInject(app, spec, { headers: { ...visitor, 'x-forwarded-for': forwardedFor }, remoteAddress: peer, payload: {} })
        for (let i = 1; i <= max; i++) {
          expectThrough(t, await send(pool[i - 1]!, '198.51.100.20', i % 2 === 0 ? '10.0.0.5' : 'fd00::5'), spec, `D's request ${i}`)
        }
        expectExhausted(t, await send(pool[max]!, '198.51.100.20'), spec, `D's request ${max + 1}`)
        expectExhausted(t, await send(pool[max]!, '198.51.100.21, 198.51.100.20'), spec, 'D prepending E\'s address')
        expectExhausted(t, await send(pool[max]!, '10.9.9.9, 198.51.100.20'), spec, 'D prepending a proxy\'s address')
        const other = await send(pool[max + 1]!, '198.51.100.21')
        expectThrough(t, other, spec, 'client E behind the same proxy')
        expectRateHeaders(t, other, max, max - 1, 'E: its own count, untouched by D\'s spoofed requests')
      })
    }
  })

  t.test('a bad trusted-proxy list: 503 on limited rows, other rows work, recovery when fixed', async (t) => {
    const badLists: unknown[][] = [['10.0.0.0/33'], ['not-a-cidr'], ['fd00::/129'], ['10.0.0.0/8', ''], ['10.0.0.0/8', 42]]
    for (const [index, bad] of badLists.entries()) {
      const remove = app.shop.filters.add('svc_rest_trusted_proxy_cidrs', () => bad as string[])
      try {
        // The first list on every row; the others on one limited row each.
        const limited = index === 0 ? LIMITED : [LIMITED[index % LIMITED.length]!]
        for (const spec of limited) {
          const response = await svcInject(app, spec, { headers: credentialsFor(spec, { cartToken, admin }), payload: {} })
          expectLimiterUnavailable(t, response, `${label(spec)} with ${JSON.stringify(bad)}`)
        }
        if (index === 0) {
          for (const spec of UNLIMITED) {
            expectThrough(t, await svcInject(app, spec, { headers: credentialsFor(spec, { cartToken, admin }) }), spec, `${label(spec)} (not limited)`)
          }
          const spec = LIMITED[0]!
          expectError(t, await svcInject(app, spec), 403, 'svc_invalid_cart_token', 'the access check still comes first')
        }
      } finally {
        remove()
      }
    }
    time += 2 * 3_600_000
    for (const spec of LIMITED) {
      const response = await svcInject(app, spec, { headers: credentialsFor(spec, { cartToken, admin }), payload: {} })
      expectThrough(t, response, spec, `${label(spec)} after the filter is removed`)
      expectRateHeaders(t, response, spec.rateLimit!.max, spec.rateLimit!.max - 1, `${label(spec)} counts again`)
    }
  })

  // What server.ts builds from REDIS_URL: the Redis counter with its per-instance fallback (storage's createRateCounter).
  t.test('Redis unreachable (nothing listens on the port): limited rows count per instance, other rows unaffected', { timeout: 60_000 }, async (t) => {
    const dead = createRateCounter({ redisUrl: 'redis://127.0.0.1:1', instances: 2 })
    t.teardown(() => dead.close())
    const { app: down } = await buildSecurityApp(t, { storage, rateCounter: dead, rateCounterTimeoutMs: 250 })
    for (const spec of LIMITED) {
      const headers = credentialsFor(spec, { cartToken, admin })
      for (const what of [label(spec), `${label(spec)} again`]) {
        const response = await svcInject(down, spec, { headers, payload: {} })
        expectThrough(t, response, spec, what)
        t.ok(response.headers['x-ratelimit-limit'] !== undefined, `${what}: counted (X-RateLimit-Limit ${String(response.headers['x-ratelimit-limit'])})`)
      }
    }
    for (const spec of UNLIMITED) {
      expectThrough(t, await svcInject(down, spec, { headers: credentialsFor(spec, { cartToken, admin }) }), spec, `${label(spec)} (not limited)`)
    }
    t.equal(dead.counting!(), 'per_instance', 'counted in this process')
  })

  t.test('Redis that accepts connections and never answers: a limited row counts per instance, not a hang, not a 503', { timeout: 60_000 }, async (t) => {
    const silent = await startSilentServer()
    t.teardown(() => silent.close())
    const hung = createRateCounter({ redisUrl: silent.url })
    t.teardown(() => hung.close())
    // Production's budget for a counter: the fallback's own timeout ends first.
    const { app: stalled } = await buildSecurityApp(t, { storage, rateCounter: hung, rateCounterTimeoutMs: 250 })
    const limited = LIMITED.find((spec) => spec.access === 'cart')!
    const unlimited = UNLIMITED.find((spec) => spec.access === 'cart')!
    const response = await svcInject(stalled, limited, { headers: asGuest(cartToken), payload: {} })
    expectThrough(t, response, limited, label(limited))
    expectRateHeaders(t, response, limited.rateLimit!.max, limited.rateLimit!.max - 1, `${label(limited)}: counted here`)
    expectThrough(t, await svcInject(stalled, unlimited, { headers: asGuest(cartToken) }), unlimited, `${label(unlimited)} (not limited)`)
  })

  t.test('a counter store that fails and comes back: counted per instance meanwhile, shared again without a restart', async (t) => {
    const inner = createMemoryRateCounter()
    const flaky = breakableCounter(inner)
    let now = 0
    const counter = withFallbackCounter(flaky, createMemoryRateCounter(), { probeIntervalMs: 1000, now: () => now })
    t.teardown(() => counter.close())
    const { app: recovering } = await buildSecurityApp(t, { storage, rateCounter: counter })
    for (const spec of LIMITED) {
      const send = () => svcInject(recovering, spec, { headers: credentialsFor(spec, { cartToken, admin }), payload: {} })
      const max = spec.rateLimit!.max
      expectThrough(t, await send(), spec, `${label(spec)} before the outage`)
      flaky.broken = true
      const during = await send()
      expectThrough(t, during, spec, `${label(spec)} during the outage`)
      expectRateHeaders(t, during, max, max - 1, `${label(spec)} during the outage: counted in this process`)
      const unlimited = UNLIMITED.find((row) => row.access === spec.access)!
      expectThrough(t, await svcInject(recovering, unlimited, { headers: credentialsFor(unlimited, { cartToken, admin }) }), unlimited, `${label(unlimited)} during the outage`)
      flaky.broken = false
      now += 1000
      await counter.ping() // the probe: the store answers again
      t.equal(counter.counting!(), 'shared', `${label(spec)}: the store counts again`)
      const after = await send()
      expectThrough(t, after, spec, `${label(spec)} after the outage`)
      expectRateHeaders(t, after, max, max - 2, `${label(spec)}: counted in the store again, which missed the outage's request`)
    }
  })

  // A counter with no fallback (a host passing createRedisRateCounter itself): the limits cannot count, so they refuse.
  t.test('a counter without a fallback whose store fails: 503 on limited rows (fail closed), recovery without a restart', async (t) => {
    const inner = createMemoryRateCounter()
    const flaky = breakableCounter(inner)
    t.teardown(() => flaky.close())
    const { app: recovering } = await buildSecurityApp(t, { storage, rateCounter: flaky })
    for (const spec of LIMITED) {
      const send = () => svcInject(recovering, spec, { headers: credentialsFor(spec, { cartToken, admin }), payload: {} })
      const max = spec.rateLimit!.max
      expectThrough(t, await send(), spec, `${label(spec)} before the outage`)
      flaky.broken = true
      expectLimiterUnavailable(t, await send(), `${label(spec)} during the outage`)
      const unlimited = UNLIMITED.find((row) => row.access === spec.access)!
      expectThrough(t, await svcInject(recovering, unlimited, { headers: credentialsFor(unlimited, { cartToken, admin }) }), unlimited, `${label(unlimited)} during the outage`)
      flaky.broken = false
      const after = await send()
      expectThrough(t, after, spec, `${label(spec)} after the outage`)
      expectRateHeaders(t, after, max, max - 2, `${label(spec)}: requests refused during the outage were not counted`)
    }
  })
})
