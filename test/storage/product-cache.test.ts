/**
 * `readCart` on the SQL backends keeps the products it read per catalog version (`ProductCache`): a second read of
 * the same cart is not sent its products again, and a read never answers a product older than the catalog version
 * it saw, also when another instance wrote the product.
 */
import { test } from 'tap'
import type { QueryResult, SqlClient } from '../../storage/sql/client.ts'
import { migrateStorage } from '../../storage/sql/migrations.ts'
import { ProductCache } from '../../storage/sql/product-cache.ts'
import { SqlStorage } from '../../storage/sql/sql-storage.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { line, product } from './fixtures/contract.ts'

/** A client that records how many products each cart read was sent. */
function recording (client: SqlClient): { client: SqlClient, sent: Array<number | null> } {
  const sent: Array<number | null> = []
  const record = <R>(name: string | undefined, result: QueryResult<R>): QueryResult<R> => {
    if (name === 'svc_read_cart') sent.push((result.rows[0] as { products: unknown[] | null }).products?.length ?? null)
    return result
  }
  return {
    sent,
    client: {
      query: async (text, params, name) => record(name, await client.query(text, params, name)),
      transaction: (fn) => client.transaction((tx) => fn({
        query: async (text, params, name) => record(name, await tx.query(text, params, name)),
        transaction: tx.transaction.bind(tx)
      })),
      close: () => client.close()
    }
  }
}

for (const backend of storageBackends()) {
  test(`readCart sends a cart's products once per catalog version (${backend.name})`, { skip: backend.skip }, async (t) => {
    const bare = await backend.createBareClients()
    t.teardown(() => bare.dispose())
    await migrateStorage(bare.clients[0])
    const { client, sent } = recording(bare.clients[0])
    const storage = new SqlStorage(backend.name, client)
    // Another instance on the same database, with a cache of its own.
    const other = new SqlStorage(backend.name, bare.clients[1])
    await storage.upsertProducts([product(1), product(2), product(3)])
    await storage.updateCart('c', () => ({ data: { lines: [line(1), line(2)], coupons: [] }, result: null }))

    const first = await storage.readCart('c')
    const second = await storage.readCart('c')
    t.strictSame(sent, [2, null], 'the second read is sent no product')
    t.strictSame([...second.products.keys()].sort(), [1, 2])
    t.strictSame(second.products.get(1), product(1), 'the held product is answered')
    t.equal(second.products.get(2), first.products.get(2), 'the same object as read the first time')
    t.ok(Object.isFrozen(second.products.get(2)) && Object.isFrozen(second.products.get(2)!.images[0]), 'frozen, deeply: it serves many reads')

    sent.length = 0
    await other.updateCart('d', () => ({ data: { lines: [line(2)], coupons: [] }, result: null }))
    const fresh = await storage.readCart('d')
    t.strictSame(sent, [null], 'a cart this instance never read: the products other carts needed are offered, none is sent')
    t.equal(fresh.products.get(2), first.products.get(2), 'the held product is answered')
    t.strictSame([...fresh.products.keys()], [2], 'only the products the cart has')

    sent.length = 0
    await other.updateCart('c', () => ({ data: { lines: [line(1), line(2), line(3)], coupons: [] }, result: null }))
    const grown = await storage.readCart('c')
    t.strictSame(sent, [1], 'a line added elsewhere: only its product is sent')
    t.strictSame([...grown.products.keys()].sort(), [1, 2, 3])

    sent.length = 0
    await other.upsertProducts([product(2, { name: 'Renamed' })])
    const renamed = await storage.readCart('c')
    t.strictSame(sent, [3], 'a product written on another instance: the catalog moved, every product is sent')
    t.equal(renamed.products.get(2)?.name, 'Renamed', 'never the product as it was before the catalog version the read saw')
    t.equal(renamed.catalogVersion, first.catalogVersion + 1)

    sent.length = 0
    await other.updateCart('c', () => ({ data: { lines: [line(3)], coupons: [] }, result: null }))
    const shrunk = await storage.readCart('c')
    t.strictSame(sent, [null], 'a line removed: nothing sent')
    t.strictSame([...shrunk.products.keys()], [3], 'only the products the cart has now')

    sent.length = 0
    await storage.updateCart('c', async () => {
      const inside = await storage.readCart('c')
      t.strictSame([...inside.products.keys()], [3], 'inside a transaction the read is answered in full')
      return { data: undefined, result: null }
    })
    t.strictSame(sent, [1], 'a read inside a transaction asks the cache nothing')

    const none = await storage.readCart('not stored')
    t.equal(none.cart, null)
    t.equal(none.products.size, 0)
  })
}

test('ProductCache follows the newest catalog version and stays within its bounds', async (t) => {
  const cache = new ProductCache({ maxProducts: 2, maxCarts: 1 })
  const needs = (...ids: number[]) => new Set(ids)
  t.strictSame(cache.hint('a').ids, [], 'nothing held at first')
  cache.complete('a', cache.hint('a'), 5, [product(1), product(2)], needs(1, 2))
  t.strictSame(cache.hint('a'), { version: 5, ids: [1, 2], held: new Map([[1, product(1)], [2, product(2)]]) })
  const hint = cache.hint('a')
  const stale = cache.complete('a', hint, 6, [product(1, { name: 'New' })], needs(1, 2))
  t.strictSame([...stale.keys()], [1], 'read at another version than the hint: the held products are not used')
  t.equal(cache.hint('a').version, 6, 'the cache follows the newer version')
  t.strictSame(cache.hint('a').ids, [1], 'and forgets the older one')
  cache.complete('a', cache.hint('a'), 5, [product(2)], needs(1, 2))
  t.equal(cache.hint('a').version, 6, 'a read that saw an older version teaches nothing')
  t.strictSame(cache.hint('a').ids, [1])
  cache.complete('b', cache.hint('b'), 6, [product(3), product(4)], needs(3, 4))
  t.strictSame(cache.hint('b').ids, [3, 4], 'products beyond the bound are forgotten, oldest first')
  t.strictSame(cache.hint('a').ids, [3, 4], 'a cart beyond the bound is forgotten: it is offered what the last reads needed')
})

test('ProductCache offers a cart it has not read the products other carts needed last, within a bound', async (t) => {
  const cache = new ProductCache({ maxProducts: 10, maxRecent: 2 })
  const needs = (...ids: number[]) => new Set(ids)
  cache.complete('a', cache.hint('a'), 5, [product(1), product(2), product(3)], needs(1, 2, 3))
  t.strictSame(cache.hint('new').ids, [2, 3], 'the most recently needed, up to the bound')
  cache.complete('b', cache.hint('b'), 5, [], needs(1))
  t.strictSame(cache.hint('new').ids, [3, 1], 'a product needed again moves to the young end')
  t.strictSame(cache.hint('a').ids, [1, 2, 3], 'a cart read before is offered its own products')
  cache.complete('c', cache.hint('c'), 6, [product(4)], needs(4))
  t.strictSame(cache.hint('new'), { version: 6, ids: [4], held: new Map([[4, product(4)]]) }, 'only products held at the current version')
})
