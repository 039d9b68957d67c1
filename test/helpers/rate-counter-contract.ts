import type { Test } from 'tap'
import type { RateCounterBackend } from './rate-counter-backends.ts'

const minute = 60_000

/**
 * The rate counter's contract, run by test/storage/rate-counter-contract.test.ts for every backend and by the Redis
 * Cluster test against a cluster: what any `RateCounter` must do, whatever stores the counts.
 */
export function rateCounterContract (t: Test, backend: RateCounterBackend): void {
  const fixture = (): ReturnType<typeof backend.create> => {
    const created = backend.create()
    t.teardown(() => created.counter.close())
    return created
  }

  t.test('counts 1, 2, 3 within a window', async t => {
    const { counter } = fixture()
    t.equal(counter.name, backend.name)
    const counts = []
    for (let i = 0; i < 3; i++) counts.push((await counter.hit('client-a', minute)).count)
    t.same(counts, [1, 2, 3])
  })

  t.test('keys and window lengths have separate counters', async t => {
    const { counter } = fixture()
    await counter.hit('client-a', minute)
    t.equal((await counter.hit('client-a', minute)).count, 2)
    t.equal((await counter.hit('client-b', minute)).count, 1)
    t.equal((await counter.hit('client-a', 30_000)).count, 1)
    t.equal((await counter.hit('client-a', minute)).count, 3)
  })

  t.test('resetInMs counts down within (0, windowMs]', async t => {
    const { counter, elapse } = fixture()
    const first = await counter.hit('client-a', minute)
    t.ok(first.resetInMs > 0 && first.resetInMs <= minute, `first resetInMs ${first.resetInMs}`)
    await elapse(20)
    const second = await counter.hit('client-a', minute)
    t.ok(second.resetInMs > 0 && second.resetInMs < first.resetInMs, `second resetInMs ${second.resetInMs}`)
  })

  t.test('the count restarts at 1 once the window has passed', async t => {
    const { counter, elapse } = fixture()
    const windowMs = backend.shortWindowMs
    await counter.ping() // connected first, so that both hits below fall in one short window
    await counter.hit('client-a', windowMs)
    t.equal((await counter.hit('client-a', windowMs)).count, 2)
    await elapse(windowMs + 20)
    const next = await counter.hit('client-a', windowMs)
    t.equal(next.count, 1)
    t.ok(next.resetInMs > 0 && next.resetInMs <= windowMs, `resetInMs ${next.resetInMs}`)
    t.equal((await counter.hit('client-a', windowMs)).count, 2)
  })

  t.test('hitEach counts each key as hit does (a cluster has none: its keys live on different nodes)', async t => {
    const { counter, elapse } = fixture()
    if (backend.cluster === true) {
      t.equal(counter.hitEach, undefined, 'a cluster\'s counter hits each key on its own')
      return
    }
    t.type(counter.hitEach, 'function')
    const hitEach = (keys: readonly string[], windowMs: number) => counter.hitEach!(keys, windowMs)
    await counter.hit('client-a', minute)
    const [a, b] = await hitEach(['client-a', 'client-b'], minute)
    t.equal(a?.count, 2, 'the key hit before counts on')
    t.equal(b?.count, 1, 'a new key starts at 1')
    t.ok(b !== undefined && b.resetInMs > 0 && b.resetInMs <= minute, `resetInMs ${b?.resetInMs}`)
    t.equal((await counter.hit('client-b', minute)).count, 2, 'hit sees what hitEach counted')
    t.same((await hitEach(['client-a', 'client-a'], minute)).map((hit) => hit.count), [3, 4], 'a key named twice counts twice')
    const windowMs = backend.shortWindowMs
    await hitEach(['client-c'], windowMs)
    await elapse(windowMs + 20)
    t.equal((await hitEach(['client-c'], windowMs))[0]?.count, 1, 'its windows end as hit\'s do')
    const all = await Promise.all(Array.from({ length: 100 }, () => hitEach(['client-d', 'client-e'], minute)))
    t.same(all.map(([d]) => d!.count).sort((x, y) => x - y), Array.from({ length: 100 }, (_, i) => i + 1), 'concurrent calls get every count once')
  })

  t.test('200 concurrent hits on one key get every count from 1 to 200 once', async t => {
    const { counter } = fixture()
    const hits = await Promise.all(Array.from({ length: 200 }, () => counter.hit('client-a', minute)))
    t.same(hits.map(hit => hit.count).sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1))
  })

  t.test('peek reads the current window without counting', async t => {
    const { counter, elapse } = fixture()
    t.same(await counter.peek('client-a', minute), { count: 0, resetInMs: 0 }, 'no window yet')
    await counter.hit('client-a', minute)
    await counter.hit('client-a', minute)
    const peeked = await counter.peek('client-a', minute)
    t.equal(peeked.count, 2, 'the hits so far')
    t.ok(peeked.resetInMs > 0 && peeked.resetInMs <= minute, `resetInMs ${peeked.resetInMs}`)
    t.equal((await counter.peek('client-a', minute)).count, 2, 'peeking counted nothing')
    t.equal((await counter.hit('client-a', minute)).count, 3, 'the next hit follows on')
    t.same(await counter.peek('client-a', 30_000), { count: 0, resetInMs: 0 }, 'another window length is another counter')
    t.same(await counter.peek('client-b', minute), { count: 0, resetInMs: 0 }, 'another key is another counter')

    const windowMs = backend.shortWindowMs
    await counter.hit('client-c', windowMs)
    await elapse(windowMs + 20)
    t.same(await counter.peek('client-c', windowMs), { count: 0, resetInMs: 0 }, 'a window that has passed reads as none')
  })

  t.test('reset closes the window: the next hit counts 1', async t => {
    const { counter } = fixture()
    for (let i = 0; i < 3; i++) await counter.hit('client-a', minute)
    await counter.hit('client-a', 30_000)
    await counter.reset('client-a', minute)
    t.same(await counter.peek('client-a', minute), { count: 0, resetInMs: 0 }, 'nothing left')
    t.equal((await counter.hit('client-a', minute)).count, 1, 'counting starts over')
    t.equal((await counter.peek('client-a', 30_000)).count, 1, 'the other window length is untouched')
    await t.resolves(counter.reset('client-never-hit', minute), 'resetting a key never hit is fine')
  })

  t.test('rejects a window that is not a positive integer', async t => {
    const { counter } = fixture()
    await t.rejects(counter.hit('client-a', 0), RangeError)
    await t.rejects(counter.hit('client-a', 1.5), RangeError)
    await t.rejects(counter.peek('client-a', 0), RangeError)
    await t.rejects(counter.reset('client-a', -1), RangeError)
  })

  t.test('ping resolves while open; hit and ping reject after close', async t => {
    const { counter } = fixture()
    await t.resolves(counter.ping())
    await counter.hit('client-a', minute)
    await counter.close()
    await t.rejects(counter.hit('client-a', minute))
    await t.rejects(counter.peek('client-a', minute))
    await t.rejects(counter.reset('client-a', minute))
    await t.rejects(counter.ping())
    await t.resolves(counter.close(), 'close twice')
  })
}
