import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { createRedisRateCounter } from '../../../storage/redis/index.ts'

// Needs no cluster: how the cluster client behaves when none of its nodes can be reached.
const minute = 60_000
const unavailable = { name: 'StorageUnavailableError' }

t.test('a cluster counter whose nodes are all unreachable rejects instead of hanging, and keeps trying', { timeout: 6000 }, async t => {
  const errors: Error[] = []
  const counter = createRedisRateCounter({ clusterNodes: ['127.0.0.1:1', '127.0.0.1:2'], commandTimeoutMs: 250, onError: error => errors.push(error) })
  t.teardown(() => counter.close())
  await t.rejects(counter.hit('client-a', minute), unavailable)
  await t.rejects(counter.peek('client-a', minute), unavailable)
  await t.rejects(counter.reset('client-a', minute), unavailable)
  await t.rejects(counter.ping(), unavailable)
  await sleep(300) // reconnection goes on in the background: errors go to onError, never crash the process
  await t.rejects(counter.hit('client-a', minute), unavailable)
  t.ok(errors.length >= 2, `reconnection keeps trying (${errors.length} errors reported)`)
  await counter.close()
  await t.rejects(counter.hit('client-a', minute), 'closed: refused')
})
