/**
 * The drawer's `remove-items` for a guest reads nothing first: one statement removes the lines inside the database
 * (`Storage.removeCartLines`), the answer is priced from the products this instance holds, and the drawer's snapshot
 * goes to the view cache. What the statement cannot check (an owner, a locked line, gifts, the reconcilers) still holds.
 */
import t from 'tap'
import { withCartViewCache } from '../../storage/index.ts'
import { createMemoryViewCache } from '../../storage/memory/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { build } from '../helper.ts'
import { createTestPgliteStorage } from '../helpers/pglite.ts'
import { cartKeyOf } from '../helpers/security.ts'
import { Shopper, type Json } from '../helpers/shopper.ts'

/** Cart methods that reach the database; what the view cache answers itself never does. */
const CART_CALLS = new Set(['readCart', 'getCart', 'updateCart', 'removeCartLines', 'getProducts', 'getProduct', 'getCoupons', 'saveCartSnapshot', 'getCartSnapshot', 'setCartUser'])

/** The database storage with its cart calls recorded, by name. */
function recording (storage: Storage): { storage: Storage, calls: string[] } {
  const calls: string[] = []
  const recorded = new Proxy(storage, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      const bound = (value as (...args: unknown[]) => unknown).bind(target)
      if (typeof property !== 'string' || !CART_CALLS.has(property)) return bound
      return (...args: unknown[]) => {
        calls.push(property)
        return bound(...args)
      }
    }
  })
  return { storage: recorded, calls }
}

async function setUp (t: Parameters<typeof build>[0], edition: 'free' | 'pro' = 'free') {
  const database = await createTestPgliteStorage()
  const { storage: recorded, calls } = recording(database)
  const storage = withCartViewCache(recorded, createMemoryViewCache())
  t.teardown(() => storage.close())
  const app = await build(t, { storage, edition })
  return { app, database, calls }
}

/** A guest whose cart holds product 101: its drawer state and its key. */
async function guestCart (t: Parameters<typeof build>[0]) {
  const { app, database } = await setUp(t)
  const shopper = await Shopper.guest(app)
  await shopper.add(101)
  return { database, shopper, cart: await shopper.drawerCart(), key: cartKeyOf(shopper.token) }
}

const skus = (cart: Json): string[] => cart.cartItems.map((item: Json) => item.sku)
const lineOf = (cart: Json, sku: string): Json => cart.cartItems.find((item: Json) => item.sku === sku)

t.test('a guest\'s removal is one database call, and every read after it sees it', async (t) => {
  const { app, calls } = await setUp(t)
  const shopper = await Shopper.guest(app)
  await shopper.add(101)
  await shopper.add(103)
  await shopper.add(105, 2)
  const cart = await shopper.drawerCart()

  calls.length = 0
  const written = await shopper.ok('POST', 'cart/remove-items', { keys: [lineOf(cart, 'SKU-101').key, lineOf(cart, 'SKU-105').key] })
  t.same(calls, ['removeCartLines'], 'the removal\'s only database call: no read before it, no snapshot statement after it')
  t.same(skus(written), ['SKU-103'], 'the answer is the cart as written')
  t.equal(written.cartCount, 1)

  calls.length = 0
  t.strictSame(await shopper.drawerCart(), written, 'the drawer\'s next read answers what the write answered')
  t.same(calls, [], 'from the snapshot the write kept in the view cache')
  const { cart: storeCart } = await shopper.storeCart()
  t.same(storeCart.items.map((item: Json) => item.id), [103], 'the Store API cart sees the removal too')
  t.equal(storeCart.totals.total_price, written.cartTotal, 'with the same total')
})

t.test('a key the cart does not hold refuses the whole change (409), through the usual path', async (t) => {
  const { database, shopper, cart, key } = await guestCart(t)
  const before = await database.getCart(key)
  const refused = await shopper.svc('POST', 'cart/remove-items', { keys: [lineOf(cart, 'SKU-101').key, 'a'.repeat(32)] })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'svc_cart_invalid_key')
  t.strictSame(await database.getCart(key), before, 'nothing was written')
})

t.test('a cart bound to a user is refused to a guest\'s token, unchanged', async (t) => {
  const { database, shopper, cart, key } = await guestCart(t)
  await database.setCartUser(key, 1)
  const before = await database.getCart(key)
  const refused = await shopper.svc('POST', 'cart/remove-items', { keys: [lineOf(cart, 'SKU-101').key] })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'svc_invalid_cart_token')
  t.strictSame(await database.getCart(key), before, 'the user\'s cart is as it was')
})

t.test('a cart with a coupon is changed the usual way (its usage count is read fresh)', async (t) => {
  const { app, database, calls } = await setUp(t)
  await database.upsertCoupons([{
    code: 'unread10', discountType: 'percent', amount: 10, freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: ''
  }])
  const shopper = await Shopper.guest(app)
  await shopper.add(101)
  await shopper.add(103)
  await shopper.coupon('unread10')
  const cart = await shopper.drawerCart()
  calls.length = 0
  const written = await shopper.ok('POST', 'cart/remove-items', { keys: [lineOf(cart, 'SKU-101').key] })
  t.ok(calls.includes('removeCartLines') && calls.includes('updateCart'), 'the statement refused it; the usual write made it')
  t.same(skus(written), ['SKU-103'])
  t.ok(JSON.stringify(written).includes('unread10'), 'the coupon stays')
})
