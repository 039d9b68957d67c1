/** The `MetaStore` contract (values created once) and the `Lifecycle` part every backend has. */
import { contractBackends } from '../helpers/storage-backends.ts'
import { test } from 'tap'
import { contract } from './fixtures/contract.ts'

contract('MetaStore', async (t, storage, backend) => {
  t.test('ping and name', async (t) => {
    await storage.ping()
    t.equal(storage.name, backend.name)
  })

  t.test('meta', async (t) => {
    let created = 0
    const values = await Promise.all(Array.from({ length: 10 }, (_, index) => storage.getOrCreateMeta('secret', () => {
      created++
      return `value-${index}`
    })))
    t.equal(new Set(values).size, 1, 'concurrent callers agree on one value')
    t.ok(created >= 1)
    t.equal(await storage.getOrCreateMeta('secret', () => t.fail('not called again') as never), values[0])
    t.equal(await storage.getOrCreateMeta('other', () => 'x'), 'x')
  })
})

for (const backend of contractBackends()) {
  test(`Lifecycle (${backend.name}): nothing answers after close`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    await storage.ping()
    await storage.dispose()
    await t.rejects(storage.ping(), 'ping rejects')
    await t.rejects(storage.getCart('any'), 'and so does a read')
  })
}
