import { randomUUID } from 'node:crypto'
import t from 'tap'
import { createMemoryViewCache } from '../../../storage/memory/index.ts'
import { createRedisViewCache } from '../../../storage/redis/index.ts'
import type { CartViewCache } from '../../../storage/contract/index.ts'
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
  await t.rejects(cache.beginPendingCartWrite('cart'))
  await t.rejects(cache.beginVersionsWrite())
  await t.rejects(cache.read('cart', 'a'))
})

t.test('two redis view caches (two instances): a copy one holds is never answered once the other wrote', { skip: skipWithout('REDIS_URL') }, async (t) => {
  const keyPrefix = `svc:test:${randomUUID()}:`
  const [a, b] = [0, 1].map(() => createRedisViewCache({ url: serviceUrl('REDIS_URL'), keyPrefix }))
  t.teardown(async () => { await a!.close(); await b!.close() })
  const cart = `cart-${randomUUID()}`
  await a!.fill(cart, 'a', view(1, 'one'))
  t.same((await b!.read(cart, 'a')).view, view(1, 'one'), 'B reads A\'s view (and keeps a copy)')
  t.same((await b!.read(cart, 'a')).view, view(1, 'one'), 'B answers it again from its copy, checked against Redis')
  await a!.beginCartWrite(cart, 2)
  t.same((await b!.read(cart, 'a')).view, null, 'after A began a write, B\'s copy is not answered')
  await a!.fill(cart, 'a', view(2, 'two'))
  t.same((await b!.read(cart, 'a')).view, view(2, 'two'), 'B gets the new bytes')
  await b!.beginCartWrite(cart, 3)
  await b!.fill(cart, 'a', { body: 'three', stamp: 'stamp-2', version: 3 })
  t.same((await a!.read(cart, 'a')).view, { body: 'three', stamp: 'stamp-2', version: 3 }, 'and A gets B\'s')
})

t.test('the memory cache keeps at most maxBytes characters of views, the least recently filled going first', async (t) => {
  const cache = createMemoryViewCache({ maxBytes: 25 })
  await cache.fill('one', 'a', view(1, 'x'.repeat(10)))
  await cache.fill('two', 'a', view(1, 'y'.repeat(10)))
  await cache.fill('two', 'b', view(1, 'z'.repeat(10)))
  t.same((await cache.read('one', 'a')).view, null, 'the oldest cart went to make room')
  t.same((await cache.read('two', 'b')).view, view(1, 'z'.repeat(10)), 'the newest is kept')
  await cache.fill('three', 'a', view(1, 'w'.repeat(30)))
  t.same((await cache.read('three', 'a')).view, null, 'a view larger than the bound is not kept')
})
