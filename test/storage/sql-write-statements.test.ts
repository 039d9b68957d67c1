/**
 * Cart writes on the SQL backends, counted on the client: a write after a read of the cart (`updateCart`'s `seen`)
 * is one statement and no transaction, a new cart one INSERT (no lock of a row that does not exist), the snapshot
 * travels in that statement; a cart changed since the read is written in the locked transaction.
 */
import { test } from 'tap'
import type { SqlClient } from '../../storage/sql/client.ts'
import { migrateStorage } from '../../storage/sql/migrations.ts'
import { SqlStorage } from '../../storage/sql/sql-storage.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { line, product } from './fixtures/contract.ts'

/** A client that records every statement sent through it, and each transaction as `BEGIN`. */
function counting (client: SqlClient): { client: SqlClient, statements: string[] } {
  const statements: string[] = []
  const first = (text: string): string => text.trim().split(/\s+/)[0]!.toUpperCase()
  return {
    statements,
    client: {
      query: async (text, params, name) => { statements.push(first(text)); return client.query(text, params, name) },
      transaction: (fn) => {
        statements.push('BEGIN')
        return client.transaction((tx) => fn({
          query: async (text, params, name) => { statements.push(first(text)); return tx.query(text, params, name) },
          transaction: tx.transaction.bind(tx)
        }))
      },
      close: () => client.close()
    }
  }
}

for (const backend of storageBackends()) {
  test(`a cart write after its read is one statement (${backend.name})`, { skip: backend.skip }, async (t) => {
    const bare = await backend.createBareClients()
    t.teardown(() => bare.dispose())
    await migrateStorage(bare.clients[0])
    const { client, statements } = counting(bare.clients[0])
    const storage = new SqlStorage(backend.name, client)
    await storage.upsertProducts([product(1), product(2)])
    const snapshot = { stamp: 's', snapshot: '{"state":1}' }

    const { cart: none } = await storage.readCart('new')
    statements.length = 0
    await storage.updateCart('new', () => ({ data: { lines: [line(1)], coupons: [] }, result: null, snapshot }), { seen: none })
    t.strictSame(statements, ['INSERT'], 'a new cart: one INSERT, data and snapshot together')
    t.match(await storage.getCartSnapshot('new'), { snapshot: '{"state":1}' })

    const { cart: seen } = await storage.readCart('new')
    statements.length = 0
    const { cart } = await storage.updateCart('new', (current) => ({ data: { ...current.data, lines: [line(2)] }, result: null, snapshot }), { seen })
    t.strictSame(statements, ['UPDATE'], 'a stored cart still as read: one UPDATE')
    t.equal(cart.version, 2)
    t.match(await storage.getCartSnapshot('new'), { snapshot: '{"state":1}' })

    statements.length = 0
    await storage.updateCart('new', (current) => ({ data: { ...current.data, coupons: ['x'] }, result: null }), { seen })
    t.strictSame(statements, ['UPDATE', 'BEGIN', 'SELECT', 'UPDATE'], 'a stale read: the statement stores nothing, then the locked write')
    t.equal((await storage.getCart('new'))?.version, 3)

    statements.length = 0
    await storage.updateCart('locked', () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    t.strictSame(statements, ['BEGIN', 'SELECT', 'INSERT', 'UPDATE'], 'without a read: the locked write, as before')

    // A key made for the write, from products held at a catalog version: one INSERT, no read at all.
    const held = await storage.getProduct(1)
    const known = storage.knownProducts([1])
    t.same(known?.products.get(1), held, 'the product read by getProduct is held, with its catalog version')
    t.equal(known?.catalogVersion, (await storage.getVersions()).catalogVersion)
    statements.length = 0
    await storage.updateCart('made', () => ({ data: { lines: [line(1)], coupons: [] }, result: null, snapshot }), { seen: null, newCartAt: known!.catalogVersion })
    t.strictSame(statements, ['INSERT'], 'a new key at a known catalog version: one INSERT')
    t.match(await storage.getCartSnapshot('made'), { snapshot: '{"state":1}' })
    await storage.upsertProducts([product(2, { regularPrice: 5 })])
    t.equal(storage.knownProducts([1])?.catalogVersion, known!.catalogVersion, 'held at the version it was read at until a read sees a newer one')
    await storage.getProduct(1)
    t.equal(storage.knownProducts([1])?.catalogVersion, known!.catalogVersion + 1, 'a read at the newer version replaces it')
    t.equal(storage.knownProducts([1, 2]), null, 'a product not read at that version is not known')
  })
}
