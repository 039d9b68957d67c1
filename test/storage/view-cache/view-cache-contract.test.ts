import { randomUUID } from 'node:crypto'
import t from 'tap'
import { createMemoryViewCache } from '../../../storage/memory/view-cache.ts'
import { createRedisViewCache } from '../../../storage/redis/view-cache.ts'
import type { CartViewCache } from '../../../storage/types.ts'
import { view, viewCacheContract } from '../../helpers/view-cache-contract.ts'
import { serviceUrl, skipWithout } from '../../helpers/services.ts'

interface Backend {
  name: string
  skip: string | false
  create: () => CartViewCache
}

const backends: Backend[] = [
  { name: 'memory', skip: false, create: () => createMemoryViewCache({ maxCarts: 100 }) },
  {
    name: 'redis',
    skip: skipWithout('REDIS_URL'),
    // A prefix of its own per cache: runs never see each other's versions.
    create: () => createRedisViewCache({ url: serviceUrl('REDIS_URL'), keyPrefix: `svc:test:${randomUUID()}:` })
  }
]

for (const backend of backends) {
  t.test(`${backend.name} view cache`, { skip: backend.skip }, async (t) => viewCacheContract(t, backend.create))
}

t.test('the memory cache keeps at most maxCarts carts, the least recently filled going first', async (t) => {
  const cache = createMemoryViewCache({ maxCarts: 2 })
  await cache.fill('one', 'a', view(1))
  await cache.fill('two', 'a', view(1))
  await cache.fill('three', 'a', view(1))
  t.same((await cache.read('one', 'a')).view, null)
  t.same((await cache.read('three', 'a')).view, view(1))
})

t.test('a redis view cache that cannot be reached rejects writes\' first step, fast', { timeout: 5000 }, async (t) => {
  const cache = createRedisViewCache({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 200, onError: () => {} })
  t.teardown(() => cache.close())
  await t.rejects(cache.beginCartWrite('cart', 2))
  await t.rejects(cache.beginVersionsWrite())
  await t.rejects(cache.read('cart', 'a'))
})
