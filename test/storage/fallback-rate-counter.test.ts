import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import { createRedisRateCounter } from '../../storage/redis/index.ts'
import { StorageUnavailableError, type RateCounter, type RateCounting, type RateHit } from '../../storage/contract/index.ts'
import { withFallbackCounter, type FallbackCounterOptions } from '../../storage/fallback-rate-counter.ts'
import { createTestRedisCounter, untilAnswering } from '../helpers/rate-counter-backends.ts'
import { rateCounterContract } from '../helpers/rate-counter-contract.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'
import { startProxyFor } from '../helpers/tcp-proxy.ts'
import { waitFor } from '../helper.ts'

/**
 * `withFallbackCounter` (storage/fallback-rate-counter.ts): counting goes on in this process while the shared store
 * fails or hangs, each instance allowing its share of a limit; once the store answers a probe it counts again.
 */

const minute = 60_000

type Mode = 'up' | 'down' | 'hang'

/** A primary whose store is up, fails at once (`down`) or never answers (`hang`), counting every call it gets. */
function fakePrimary () {
  const store = createMemoryRateCounter()
  const calls = { hit: 0, hitEach: 0, peek: 0, reset: 0, ping: 0 }
  const primary = {
    mode: 'up' as Mode,
    calls,
    closed: false,
    name: 'fake-redis',
    async hit (key: string, windowMs: number): Promise<RateHit> {
      calls.hit++
      await outage(primary.mode)
      return store.hit(key, windowMs)
    },
    async hitEach (keys: readonly string[], windowMs: number): Promise<RateHit[]> {
      calls.hitEach++
      await outage(primary.mode)
      return store.hitEach!(keys, windowMs)
    },
    async peek (key: string, windowMs: number): Promise<RateHit> {
      calls.peek++
      await outage(primary.mode)
      return store.peek(key, windowMs)
    },
    async reset (key: string, windowMs: number): Promise<void> {
      calls.reset++
      await outage(primary.mode)
      return store.reset(key, windowMs)
    },
    async ping (): Promise<void> {
      calls.ping++
      await outage(primary.mode)
    },
    async close (): Promise<void> {
      primary.closed = true
      await store.close()
    }
  } satisfies RateCounter & Record<string, unknown>
  return primary
}

function outage (mode: Mode): Promise<void> {
  if (mode === 'down') return Promise.reject(new StorageUnavailableError('counter store down'))
  if (mode === 'hang') return new Promise<void>(() => {})
  return Promise.resolve()
}

/** A fallback counter over a fake primary, with a clock the test moves and the switches it announced. */
function setUp (t: Test, options: FallbackCounterOptions = {}) {
  const primary = fakePrimary()
  const clock = { time: 1_700_000_000_000 }
  const fallback = createMemoryRateCounter({ now: () => clock.time })
  const counter = withFallbackCounter(primary, fallback, { probeIntervalMs: 1000, timeoutMs: 20, now: () => clock.time, ...options })
  t.teardown(() => counter.close())
  const switches: Array<{ counting: RateCounting, cause?: unknown }> = []
  counter.onCountingChange!((counting, cause) => { switches.push({ counting, cause }) })
  return { primary, counter, clock, switches, fallback }
}

/** Whether `promise` settles before a macrotask runs: it waited for no timer and no I/O. */
async function settlesAtOnce (promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))])
}

/** Resolves at the next switch of `counter` to `counting`. */
function nextSwitch (counter: RateCounter, counting: RateCounting): Promise<void> {
  return new Promise((resolve) => {
    const stop = counter.onCountingChange!((now) => {
      if (now !== counting) return
      stop()
      resolve()
    })
  })
}

t.test('while the primary answers it counts every call, shared', async (t) => {
  const { primary, counter, switches } = setUp(t)
  t.equal(counter.name, 'fake-redis', 'the primary\'s name')
  t.equal(counter.counting!(), 'shared')
  t.same([(await counter.hit('a', minute)).count, (await counter.hit('a', minute)).count], [1, 2])
  t.same((await counter.hitEach!(['a', 'b'], minute)).map((hit) => hit.count), [3, 1])
  t.equal((await counter.peek('a', minute)).count, 3)
  await counter.reset('a', minute)
  t.equal((await counter.hit('a', minute)).count, 1, 'reset in the primary')
  await counter.ping()
  t.same(primary.calls, { hit: 3, hitEach: 1, peek: 1, reset: 1, ping: 1 })
  t.same(switches, [], 'no switch')
})

t.test('a primary that fails: the call and every later one count in the fallback, without asking the primary', async (t) => {
  const { primary, counter, switches } = setUp(t)
  t.equal((await counter.hit('a', minute)).count, 1, 'counted by the primary')
  primary.mode = 'down'
  const hits = []
  for (let i = 0; i < 5; i++) hits.push((await counter.hit('a', minute)).count)
  t.same(hits, [1, 2, 3, 4, 5], 'the fallback counts from its own first hit (one instance: counts as they are)')
  t.equal(primary.calls.hit, 2, 'the primary was asked once after it failed, then no more')
  t.equal(counter.counting!(), 'per_instance')
  t.equal(switches.length, 1, 'one switch announced')
  t.equal(switches[0]!.counting, 'per_instance')
  t.type(switches[0]!.cause, StorageUnavailableError, 'with the failure that caused it')
  t.equal((await counter.peek('a', minute)).count, 5, 'peek reads the fallback')
  await counter.reset('a', minute)
  t.equal((await counter.hit('a', minute)).count, 1, 'reset in the fallback')
  t.same({ peek: primary.calls.peek, reset: primary.calls.reset }, { peek: 0, reset: 0 }, 'peek and reset did not ask the primary')
})

t.test('a primary that hangs: the call is counted in the fallback after the timeout, later calls without waiting', async (t) => {
  const { primary, counter, switches } = setUp(t, { timeoutMs: 30 })
  primary.mode = 'hang'
  t.equal((await counter.hit('a', minute)).count, 1, 'the hung call answered from the fallback')
  t.equal(counter.counting!(), 'per_instance')
  t.match(String(switches[0]?.cause), /did not answer within 30 ms/, 'the timeout is the cause')
  for (let i = 2; i <= 20; i++) {
    t.ok(await settlesAtOnce(counter.hit('a', minute)), `hit ${i} answered without waiting for a timer`)
  }
  t.ok(await settlesAtOnce(counter.hitEach!(['a', 'b'], minute)), 'hitEach too')
  t.ok(await settlesAtOnce(counter.ping()), 'and ping')
  t.equal(primary.calls.hit, 1, 'the hung primary was asked once')
  t.equal(primary.calls.hitEach, 0)
  t.equal(switches.length, 1)
})

t.test('concurrent calls that all fail announce one switch', async (t) => {
  const { primary, counter, switches } = setUp(t)
  primary.mode = 'down'
  const counts = (await Promise.all(Array.from({ length: 10 }, () => counter.hit('a', minute)))).map((hit) => hit.count)
  t.same(counts.sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'each counted once in the fallback')
  t.equal(switches.length, 1)
})

t.test('while degraded each instance allows ceil(limit / instances) of every limit', async (t) => {
  for (const instances of [1, 2, 3, 4, 7]) {
    const { primary, counter } = setUp(t, { instances })
    primary.mode = 'down'
    for (const max of [1, 2, 3, 5, 10, 20, 30, 60]) {
      const share = Math.ceil(max / instances)
      // hit, then `count > max` refuses (the svc/v1 and Store API limits).
      let allowed = 0
      while ((await counter.hit(`hit:${max}`, minute)).count <= max) allowed++
      t.equal(allowed, share, `${instances} instances, limit ${max}: hit allows ${share}`)
      // hitEach counts each key as hit does.
      let allowedEach = 0
      while ((await counter.hitEach!([`each:${max}`, `other:${max}`], minute)).every((hit) => hit.count <= max)) allowedEach++
      t.equal(allowedEach, share, `${instances} instances, limit ${max}: hitEach allows ${share}`)
      // peek, then `count >= max` refuses before the attempt is counted (the login's failures per account).
      let admitted = 0
      while ((await counter.peek(`peek:${max}`, minute)).count < max) {
        admitted++
        await counter.hit(`peek:${max}`, minute)
      }
      t.equal(admitted, share, `${instances} instances, limit ${max}: peek admits ${share}`)
    }
    t.equal((await counter.peek('never-hit', minute)).count, 0, 'a window never opened reads 0')
    t.equal((await counter.hit('first', minute)).count, 1, 'a first hit reads 1')
  }
})

t.test('probes: at most one per interval, in the background; the first that answers brings the primary back', async (t) => {
  const { primary, counter, clock, switches } = setUp(t, { probeIntervalMs: 1000 })
  await counter.hit('a', minute)
  await counter.hit('a', minute)
  primary.mode = 'down'
  t.equal((await counter.hit('a', minute)).count, 1, 'the fallback counts')
  for (let i = 0; i < 10; i++) await counter.hit('a', minute)
  clock.time += 999
  await counter.hit('a', minute)
  t.equal(primary.calls.ping, 0, 'no probe within the interval')
  clock.time += 1
  await counter.hit('a', minute)
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(primary.calls.ping, 1, 'one probe once the interval has passed')
  t.equal(counter.counting!(), 'per_instance', 'a probe that fails changes nothing')
  for (let i = 0; i < 10; i++) await counter.hit('a', minute)
  t.equal(primary.calls.ping, 1, 'the next probe waits for a whole interval again')

  primary.mode = 'hang'
  clock.time += 1000
  const hung = counter.hit('a', minute)
  t.ok(await settlesAtOnce(hung), 'a call that starts a probe does not wait for it')
  t.equal(primary.calls.ping, 2)
  for (let i = 0; i < 5; i++) t.ok(await settlesAtOnce(counter.hit('a', minute)), `call ${i + 1} during a hung probe answers at once`)
  t.equal(primary.calls.ping, 2, 'one probe at a time')
  t.equal(primary.calls.hit, 3, 'no call went to the primary while degraded')

  primary.mode = 'up'
  const back = nextSwitch(counter, 'shared')
  // The hung probe gives up after the timeout; the next one due finds the primary up.
  await waitFor(async () => {
    clock.time += 1000
    await counter.ping()
    return counter.counting!() === 'shared'
  }, { what: 'the primary counting again' })
  await back
  t.same(switches.map((entry) => entry.counting), ['per_instance', 'shared'], 'one switch each way')
  const hitsBefore = primary.calls.hit
  t.equal((await counter.hit('a', minute)).count, 3, 'the primary counts again, on from its own count')
  t.equal(primary.calls.hit, hitsBefore + 1)
})

t.test('ping resolves while either counts, and probes when one is due', async (t) => {
  const { primary, counter, clock } = setUp(t)
  await t.resolves(counter.ping(), 'the primary answers')
  primary.mode = 'down'
  await t.resolves(counter.ping(), 'the primary down: the fallback stands in')
  t.equal(counter.counting!(), 'per_instance', 'a failed ping switches to the fallback')
  primary.mode = 'up'
  await counter.ping()
  t.equal(counter.counting!(), 'per_instance', 'no probe before the interval')
  clock.time += 1000
  await counter.ping()
  t.equal(counter.counting!(), 'shared', 'a due probe is awaited by ping: the readiness check sees the primary back')
})

t.test('what neither can count still rejects', async (t) => {
  const { primary, counter } = setUp(t)
  await t.rejects(counter.hit('a', 0), RangeError, 'an invalid window')
  t.equal(primary.calls.hit, 0, 'the primary was not asked')
  t.equal(counter.counting!(), 'shared', 'and is not taken for down')
  t.throws(() => withFallbackCounter(primary, createMemoryRateCounter(), { instances: 0 }), RangeError, 'instances below 1')
  t.throws(() => withFallbackCounter(primary, createMemoryRateCounter(), { instances: 1.5 }), RangeError, 'instances not whole')
})

t.test('close closes both and stops the announcements', async (t) => {
  const { primary, counter, switches, fallback } = setUp(t)
  await counter.close()
  t.ok(primary.closed, 'the primary is closed')
  await t.rejects(fallback.ping(), /closed/, 'the fallback is closed')
  await t.rejects(counter.hit('a', minute), /closed/, 'a call after close rejects')
  t.same(switches, [], 'nothing announced after close')
})

t.test('on Redis', { skip: skipWithout('REDIS_URL') }, async (t) => {
  const redisUrl = serviceUrl('REDIS_URL')

  // Healthy, it is the Redis counter: the contract holds through it (a generous timeout: a loaded test machine must
  // not make a healthy Redis look down).
  t.test('the rate counter contract', async (t) => rateCounterContract(t, {
    name: 'redis',
    skip: false,
    shortWindowMs: 200,
    create: () => ({
      counter: withFallbackCounter(createTestRedisCounter(redisUrl), createMemoryRateCounter(), { timeoutMs: 2000 }),
      elapse: async (ms) => { await new Promise((resolve) => setTimeout(resolve, ms)) }
    })
  }))

  t.test('Redis cut and restored through a TCP proxy: per instance meanwhile, shared again after', { timeout: 30_000 }, async (t) => {
    const proxy = await startProxyFor(redisUrl)
    t.teardown(() => proxy.close())
    const keyPrefix = `test:rl:${randomUUID()}:`
    const redis = createRedisRateCounter({ url: proxy.urlFor(redisUrl), keyPrefix, commandTimeoutMs: 2000, onError: () => {} })
    const counter = withFallbackCounter(redis, createMemoryRateCounter(), { instances: 2, timeoutMs: 1000, probeIntervalMs: 50 })
    t.teardown(() => counter.close())
    // The same keys, read straight from Redis, past the proxy.
    const direct = createRedisRateCounter({ url: redisUrl, keyPrefix, commandTimeoutMs: 2000 })
    t.teardown(() => direct.close())
    const switches: RateCounting[] = []
    counter.onCountingChange!((counting) => { switches.push(counting) })
    await untilAnswering(counter)
    await untilAnswering(direct)

    t.same([(await counter.hit('k', minute)).count, (await counter.hit('k', minute)).count], [1, 2], 'counted in Redis')
    proxy.cut()
    const during = []
    for (let i = 0; i < 4; i++) during.push((await counter.hit('k', minute)).count)
    t.same(during, [1, 3, 5, 7], 'counted here, each hit standing for two instances\' (limit 5: ceil(5 / 2) = 3 allowed)')
    t.equal(counter.counting!(), 'per_instance')
    t.equal((await direct.peek('k', minute)).count, 2, 'nothing reached Redis meanwhile')

    proxy.restore()
    await waitFor(async () => {
      await counter.ping()
      return counter.counting!() === 'shared'
    }, { timeoutMs: 15_000, what: 'Redis counting again' })
    t.equal((await counter.hit('k', minute)).count, 3, 'counted in Redis again, on from its count before the cut')
    t.equal((await direct.peek('k', minute)).count, 3)
    t.same(switches, ['per_instance', 'shared'])
  })

  t.test('Redis black-holed: one call waits for the timeout, the later ones do not; back when it answers', { timeout: 30_000 }, async (t) => {
    const proxy = await startProxyFor(redisUrl)
    t.teardown(() => proxy.close())
    const redis = createRedisRateCounter({ url: proxy.urlFor(redisUrl), keyPrefix: `test:rl:${randomUUID()}:`, commandTimeoutMs: 5000, onError: () => {} })
    const counter = withFallbackCounter(redis, createMemoryRateCounter(), { instances: 3, timeoutMs: 300, probeIntervalMs: 50 })
    t.teardown(() => counter.close())
    await untilAnswering(counter)
    t.equal((await counter.hit('k', minute)).count, 1, 'counted in Redis')

    proxy.blackhole()
    t.equal((await counter.hit('k', minute)).count, 1, 'the call Redis left unanswered is counted here')
    t.equal(counter.counting!(), 'per_instance')
    for (let i = 2; i <= 10; i++) {
      t.ok(await settlesAtOnce(counter.hit('k', minute)), `hit ${i} answered without waiting for Redis`)
    }
    t.equal((await counter.peek('k', minute)).count, 30, '10 hits here stand for 30 of the shop')

    proxy.restore()
    await waitFor(async () => {
      await counter.ping()
      return counter.counting!() === 'shared'
    }, { timeoutMs: 15_000, what: 'Redis counting again' })
    t.ok((await counter.hit('k', minute)).count >= 2, 'counted in Redis again')
  })
})
