/**
 * The hot reads are one statement each on the SQL backends: `getCartSnapshot` (a guest's `GET svc/v1/cart` that finds
 * its snapshot current sends it as it is) and `readCart` (everything pricing needs). Counted on the client.
 */
import { test } from 'tap'
import type { QueryResult, SqlClient } from '../../storage/sql/client.ts'
import { migrateStorage } from '../../storage/sql/migrations.ts'
import { SqlStorage } from '../../storage/sql/sql-storage.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { line, product } from './fixtures/contract.ts'

/** A client that records every statement sent through it, in transactions too, and the columns it answered. */
function counting (client: SqlClient): { client: SqlClient, statements: Array<{ text: string, columns: string[] }> } {
  const statements: Array<{ text: string, columns: string[] }> = []
  const record = <R>(text: string, result: QueryResult<R>): QueryResult<R> => {
    statements.push({ text, columns: Object.keys(result.rows[0] ?? {}).sort() })
    return result
  }
  return {
    statements,
    client: {
      query: async (text, params, name) => record(text, await client.query(text, params, name)),
      transaction: (fn) => client.transaction((tx) => fn({
        query: async (text, params, name) => record(text, await tx.query(text, params, name)),
        transaction: tx.transaction.bind(tx)
      })),
      close: () => client.close()
    }
  }
}

for (const backend of storageBackends()) {
  test(`one statement for a snapshot read and for a cart read (${backend.name})`, { skip: backend.skip }, async (t) => {
    const bare = await backend.createBareClients()
    t.teardown(() => bare.dispose())
    await migrateStorage(bare.clients[0])
    const { client, statements } = counting(bare.clients[0])
    const storage = new SqlStorage(backend.name, client)
    await storage.upsertProducts([product(1)])
    const { cart, versions } = await storage.updateCart('hot', () => ({ data: { lines: [line(1)], coupons: [] }, result: null }))
    await storage.saveCartSnapshot('hot', cart.version, `k:${versions!.catalogVersion}:${versions!.settingsVersion}`, '{"state":1}')

    statements.length = 0
    t.equal((await storage.getCartSnapshot('hot'))?.snapshot, '{"state":1}')
    t.equal(statements.length, 1, 'getCartSnapshot: one statement')
    t.strictSame(statements[0]?.columns, ['catalog_version', 'settings_version', 'snapshot', 'stamp', 'version'],
      'the snapshot, its stamp, the cart\'s version and the versions: no cart data, products or timestamps')

    statements.length = 0
    t.equal(await storage.getCartSnapshot('not stored'), null)
    t.equal(statements.length, 1, 'a miss too')

    statements.length = 0
    t.equal((await storage.readCart('hot')).products.size, 1)
    t.equal(statements.length, 1, 'readCart: one statement')
  })
}
