/**
 * A guest cart's data kept beside its views (`withCartViewCache`): a write of a cart that its last write left in the
 * cache reads nothing from the database before its one statement, and a copy that is stale, incomplete or at another
 * catalog version is never trusted.
 */
import t from 'tap'
import type { Coupon } from '../../kernel/domain/types.ts'
import { withCartViewCache } from '../../storage/index.ts'
import { createMemoryViewCache } from '../../storage/memory/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { build } from '../helper.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'
import { cartKeyOf } from '../helpers/security.ts'
import { Shopper, type Json } from '../helpers/shopper.ts'

/** The database storage with its `readCart` calls counted: what the wrapper answers itself never reaches it. */
function countingReads (storage: Storage): { storage: Storage, reads: () => number } {
  let reads = 0
  const counted = new Proxy(storage, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      const bound = (value as (...args: unknown[]) => unknown).bind(target)
      if (property !== 'readCart') return bound
      return (...args: unknown[]) => {
        reads++
        return bound(...args)
      }
    }
  })
  return { storage: counted, reads: () => reads }
}

async function setUp (t: Parameters<typeof build>[0]) {
  const database = await createTestPgliteStorage()
  const counting = countingReads(database)
  const storage = withCartViewCache(counting.storage, createMemoryViewCache())
  t.teardown(() => storage.close())
  const app = await build(t, { storage })
  return { app, database, storage, reads: counting.reads }
}

/** A guest whose cart holds one of each product, and the drawer's state of it. */
async function guestWith (app: Awaited<ReturnType<typeof build>>, ...ids: number[]): Promise<{ shopper: Shopper, cart: Json }> {
  const shopper = await Shopper.guest(app)
  for (const id of ids) await shopper.add(id)
  return { shopper, cart: await shopper.drawerCart() }
}

const lineOf = (cart: Json, sku: string): Json => cart.cartItems.find((item: Json) => item.sku === sku)

t.test('a write of a cart its last write left in the cache reads nothing from the database', async (t) => {
  const { app, reads } = await setUp(t)
  const shopper = await Shopper.guest(app)
  await shopper.add(101)
  await shopper.add(105, 2)
  const cart = await shopper.drawerCart()

  // The Store API's writes read the cart first (the drawer's remove-items reads nothing at all: remove-unread tests).
  const before = reads()
  await shopper.remove(lineOf(cart, 'SKU-105').key)
  t.equal(reads() - before, 0, 'no cart read reached the database')
  const written = await shopper.drawerCart()
  t.equal(written.cartCount, 1, 'the line is gone')
  t.same(written.cartItems.map((item: Json) => item.sku), ['SKU-101'])

  await shopper.update(lineOf(written, 'SKU-101').key, 3)
  t.equal(reads() - before, 0, 'nor for the next write')
  t.equal((await shopper.drawerCart()).cartCount, 3)
})

t.test('a copy older than the stored cart costs a second run of the change, never a lost update', async (t) => {
  const { app, database, reads } = await setUp(t)
  const { shopper, cart } = await guestWith(app, 101, 103)
  // Another program writes the cart behind the cache's back: the cache still holds the version before it.
  const key = cartKeyOf(shopper.token)
  await database.updateCart(key, (current) => ({
    data: { ...current.data, lines: current.data.lines.map((line) => line.productId === 103 ? { ...line, quantity: 5 } : line) },
    result: null
  }))

  await shopper.remove(lineOf(cart, 'SKU-101').key)
  const written = await shopper.drawerCart()
  t.same(written.cartItems.map((item: Json) => [item.sku, item.quantity]), [['SKU-103', 5]], 'both writes stand')
  const after = await database.getCart(key)
  t.same(after?.data.lines.map((line) => [line.productId, line.quantity]), [[103, 5]], 'as stored')
  t.ok(reads() > 0, 'the change ran again from the database')
})

t.test('a change refused on a stale copy is tried again on the stored cart', async (t) => {
  const { app, database } = await setUp(t)
  const { shopper } = await guestWith(app, 101)
  // Another program adds a line behind the cache's back: the cache's copy does not have it.
  const key = cartKeyOf(shopper.token)
  const added = 'f'.repeat(32)
  await database.updateCart(key, (current) => ({
    data: { ...current.data, lines: [...current.data.lines, { ...current.data.lines[0]!, key: added, productId: 103, quantity: 2 }] },
    result: null
  }))

  await shopper.remove(added)
  const written = await shopper.drawerCart()
  t.same(written.cartItems.map((item: Json) => item.sku), ['SKU-101'], 'the line the copy did not know is removed')
  t.same((await database.getCart(key))?.data.lines.map((line) => line.productId), [101], 'as stored')

  const refused = await shopper.svc('POST', 'cart/remove-items', { keys: ['e'.repeat(32)] })
  t.equal(refused.statusCode, 409, 'a key the stored cart does not have either is still refused')
  t.same((await database.getCart(key))?.data.lines.map((line) => line.productId), [101], 'and nothing changed')
})

t.test('a cart with a coupon, or after a catalog change, is read from the database', async (t) => {
  const { app, storage, reads } = await setUp(t)
  const { shopper, cart } = await guestWith(app, 101, 103)
  // The catalog moves through the app: the cache knows the new version, this instance holds the products of the old.
  const [cap] = [...(await storage.getProducts([103])).values()]
  await storage.upsertProducts([{ ...cap!, regularPrice: cap!.regularPrice! + 1000, name: 'Cap, dearer' }])
  const before = reads()
  await shopper.add(105)
  t.ok(reads() > before, 'the catalog moved: an add read the cart and its products from the database')
  const written = await shopper.ok('POST', 'cart/remove-items', { keys: [lineOf(cart, 'SKU-101').key] })
  t.equal(lineOf(written, 'SKU-103').name, 'Cap, dearer', 'priced at the new catalog')
  t.equal(lineOf(written, 'SKU-103').prices.price, String(cap!.regularPrice! + 1000), 'at the new price')

  const coupon: Coupon = {
    code: 'data10', discountType: 'percent', amount: 10, freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: ''
  }
  await storage.upsertCoupons([coupon])
  await shopper.add(101)
  const applied = await shopper.svc('POST', 'coupon', { code: 'data10' })
  t.equal(applied.statusCode, 200, applied.body)
  const withCoupon = applied.json()
  t.ok(withCoupon.coupons?.length > 0 || JSON.stringify(withCoupon).includes('data10'), 'the coupon is applied')
  const readsBefore = reads()
  await shopper.ok('POST', 'cart/remove-items', { keys: [lineOf(withCoupon, 'SKU-101').key] })
  t.ok(reads() > readsBefore, 'a cart with a coupon: read from the database (usage counts are read fresh)')
})
