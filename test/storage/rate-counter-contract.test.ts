import { Redis } from 'ioredis'
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { randomUUID } from 'node:crypto'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import {
  createTestRedisCounter,
  rateCounterBackends,
  startPausableProxy,
  startSilentServer
} from '../helpers/rate-counter-backends.ts'
import { rateCounterContract } from '../helpers/rate-counter-contract.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'

const minute = 60_000
const unavailable = { name: 'StorageUnavailableError' }

for (const backend of rateCounterBackends()) {
  t.test(`${backend.name} rate counter`, { skip: backend.skip }, async t => rateCounterContract(t, backend))
}

t.test('memory window boundary follows the injected clock exactly', async t => {
  let time = 0
  const counter = createMemoryRateCounter({ now: () => time })
  t.teardown(() => counter.close())
  t.same(await counter.hit('client-a', 1000), { count: 1, resetInMs: 1000 })
  time += 999
  t.same(await counter.hit('client-a', 1000), { count: 2, resetInMs: 1 })
  time += 1
  t.same(await counter.hit('client-a', 1000), { count: 1, resetInMs: 1000 })
})

// These need no Redis server: they check how the client behaves when the server is missing or hung.
t.test('redis counter on an unreachable port rejects instead of hanging', { timeout: 4000 }, async t => {
  const errors: Error[] = []
  const counter = createTestRedisCounter('redis://127.0.0.1:1', { commandTimeoutMs: 250, onError: error => errors.push(error) })
  t.teardown(() => counter.close())
  await t.rejects(counter.hit('client-a', minute), unavailable)
  await t.rejects(counter.peek('client-a', minute), unavailable)
  await t.rejects(counter.reset('client-a', minute), unavailable)
  await t.rejects(counter.ping(), unavailable)
  await sleep(300) // let it retry in the background: errors go to onError, never crash the process
  await t.rejects(counter.hit('client-a', minute), unavailable)
  t.ok(errors.length >= 2, `reconnection keeps trying (${errors.length} errors reported)`)
  t.ok(errors.every(error => (error as NodeJS.ErrnoException).code === 'ECONNREFUSED'))
})

t.test('redis counter on a server that never answers rejects instead of hanging', { timeout: 4000 }, async t => {
  const server = await startSilentServer()
  const counter = createTestRedisCounter(server.url, { commandTimeoutMs: 250, onError: () => {} })
  t.teardown(async () => { await counter.close(); await server.close() })
  await t.rejects(counter.hit('client-a', minute), unavailable)
  await t.rejects(counter.hit('client-a', minute), unavailable)
})

t.test('redis counter after a lost connection', { skip: skipWithout('REDIS_URL') }, async t => {
  const redisUrl = serviceUrl('REDIS_URL')

  t.test('stops answering: hit rejects, then the counter reconnects by itself', { timeout: 8000 }, async t => {
    const proxy = await startPausableProxy(redisUrl)
    const counter = createTestRedisCounter(proxy.url, { commandTimeoutMs: 500, onError: () => {} })
    t.teardown(async () => { await counter.close(); await proxy.close() })
    t.equal((await counter.hit('client-a', minute)).count, 1)
    proxy.pause()
    await t.rejects(counter.hit('client-a', minute), unavailable)
    t.equal((await eventually(() => counter.hit('client-a', minute))).count, 2)
  })

  t.test('killed by CLIENT KILL: the counter reconnects by itself', { timeout: 8000 }, async t => {
    const connectionName = `rate-counter-test-${randomUUID()}`
    const counter = createTestRedisCounter(redisUrl, { connectionName, onError: () => {} })
    const admin = new Redis(redisUrl)
    t.teardown(async () => { await counter.close(); await admin.quit() })
    t.equal((await counter.hit('client-a', minute)).count, 1)
    t.equal(await killClient(admin, connectionName), 1)
    t.equal((await eventually(() => counter.hit('client-a', minute))).count, 2)
    await t.resolves(counter.ping())
  })
})

async function eventually<T> (attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt()
    } catch {
      await sleep(50)
    }
  }
}

async function killClient (admin: Redis, name: string): Promise<number> {
  const list = String(await admin.client('LIST'))
  const ids = list.split('\n').filter(line => line.includes(` name=${name} `)).map(line => /\bid=(\d+)/.exec(line)?.[1])
  let killed = 0
  for (const id of ids) if (id !== undefined) killed += Number(await admin.client('KILL', 'ID', id))
  return killed
}
