/** What the memory storage adds to the contract it shares with the SQL backends (test/storage/*-store.test.ts). */
import { test } from 'tap'
import { createMemoryStorage, isStorageUnavailable, type Storage } from '../../storage/index.ts'
import { line } from './fixtures/contract.ts'

test('a closed memory storage answers as an outage', async (t) => {
  const storage = createMemoryStorage()
  await storage.close()
  for (const call of [() => storage.ping(), () => storage.getCart('a'), () => storage.updateCart('a', () => ({ result: null }))]) {
    const error = await call().then(() => null, (rejection: unknown) => rejection)
    t.ok(isStorageUnavailable(error), 'rejected with an error isStorageUnavailable recognises (the HTTP layer\'s 503)')
  }
})

test('cart times come from the injected clock', async (t) => {
  let now = Date.parse('2025-06-01T12:00:00.000Z')
  const storage: Storage = createMemoryStorage({ now: () => now })
  const { cart } = await storage.updateCart('c', () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
  t.equal(cart.updatedAt, '2025-06-01T12:00:00.000Z')
  now += 1500
  await storage.setCartUser('c', 3)
  t.equal((await storage.getCart('c'))?.updatedAt, '2025-06-01T12:00:01.500Z', 'a binding touches the cart')
})

test('exported by storage/index.ts (the package\'s storage entry) and storage/memory/index.ts', async (t) => {
  const storageIndex = await import('../../storage/index.ts')
  t.type(storageIndex.createMemoryStorage, 'function')
  const memoryIndex = await import('../../storage/memory/index.ts')
  t.equal(memoryIndex.createMemoryStorage, storageIndex.createMemoryStorage)
  t.equal(memoryIndex.MemoryStorage, storageIndex.MemoryStorage)
})
