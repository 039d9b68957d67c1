import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { withCartViewCache } from '../../../storage/index.ts'
import { createMemoryStorage, createMemoryViewCache } from '../../../storage/memory/index.ts'
import type { CartViewCache, ViewCacheState } from '../../../storage/contract/index.ts'
import { seedDemoShop } from '../../../seed/seed.ts'
import { build, STORE_API, SVC, waitFor } from '../../helper.ts'
import { asGuest } from '../../helpers/security.ts'

/**
 * `withCartViewCache` while its cache fails (a cache that throws while `down`, in front of the memory cache): writes
 * go on, the cache is bypassed (no request calls it), and once it answers again it is told every write made meanwhile
 * before it is used again: no view older than those writes is answered or stored afterwards.
 */

const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Analytical Row', address_2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '', email: 'ada@example.com' }

function faulty (cache: CartViewCache) {
  const fault = { down: false, calls: 0 }
  const wrapped = new Proxy(cache, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      return async (...args: unknown[]) => {
        if (property !== 'ping' && property !== 'close') fault.calls++
        if (fault.down && property !== 'close') throw new Error('view cache down (test)')
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    }
  })
  return { cache: wrapped, fault }
}

async function setup (t: Test, maxOwedCarts?: number) {
  const base = createMemoryStorage()
  await seedDemoShop(base, 'http://shop.test')
  const raw = createMemoryViewCache()
  const { cache, fault } = faulty(raw)
  const storage = withCartViewCache(base, cache, { probeIntervalMs: 20, ...(maxOwedCarts === undefined ? {} : { maxOwedCarts }) })
  t.teardown(() => storage.close())
  const changes: ViewCacheState[] = []
  storage.onViewCacheChange!((state) => changes.push(state))
  const app = await build(t, { storage, seed: false })
  return { base, raw, fault, storage, changes, app }
}

async function newCart (app: FastifyInstance, id = 101): Promise<string> {
  const first = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
  const token = first.headers['cart-token'] as string
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id, quantity: 1 } })
  if (added.statusCode !== 201) throw new Error(`add: ${added.statusCode} ${added.body}`)
  return token
}

const drawerQuantities = async (app: FastifyInstance, token: string): Promise<number[]> => {
  const response = await app.inject({ method: 'GET', url: `${SVC}/cart`, headers: asGuest(token) })
  return (response.json() as { cartItems: Array<{ quantity: number }> }).cartItems.map((item) => item.quantity)
}
const storeQuantities = async (app: FastifyInstance, token: string): Promise<number[]> => {
  const response = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  return (response.json() as { items: Array<{ quantity: number }> }).items.map((item) => item.quantity)
}

t.test('a cache that fails: writes go on, no request calls it, and it is told every write before it is used again', async (t) => {
  const { raw, fault, storage, changes, app } = await setup(t)
  const token = await newCart(app)
  const key = app.commerce.cartKeyOfToken(token)!
  const itemKey = ((await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json() as { items: Array<{ key: string }> }).items[0]!.key
  await drawerQuantities(app, token)
  t.same(await drawerQuantities(app, token), [1], 'the drawer\'s view is kept')
  const kept = await raw.read(key, 'svc')
  t.ok(kept.view !== null, 'in the cache')

  fault.down = true
  const updated = await app.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: itemKey, quantity: 2 } })
  t.equal(updated.statusCode, 200, 'a Store API write goes on')
  t.equal(storage.viewCache!().state, 'bypassed', 'the cache is bypassed')
  t.same(changes, ['bypassed'], 'the change was reported once')
  const ready = await app.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 200, '/readyz stays 200')
  t.same(ready.json().checks.view_cache, { backend: 'memory', status: 'degraded', state: 'bypassed' }, '/readyz says the view cache is degraded')

  const callsWhileBypassed = fault.calls
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 103, quantity: 1 } })
  t.equal(added.statusCode, 201, 'another write goes on')
  const removed = await app.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: asGuest(token), payload: { keys: [itemKey] } })
  t.equal(removed.statusCode, 200, 'a svc/v1 write goes on')
  t.same(await drawerQuantities(app, token), [1], 'the reads answer the writes, from the database')
  t.same(await storeQuantities(app, token), [1], 'the Store API too')
  t.equal(fault.calls, callsWhileBypassed, 'no request called the cache while it is bypassed')
  t.ok((await raw.read(key, 'svc')).view !== null, 'the cache still holds the view from before the writes')

  fault.down = false
  await waitFor(() => storage.viewCache!().state === 'shared', { timeoutMs: 10_000, what: 'the cache used again' })
  t.same(changes, ['bypassed', 'shared'], 'the recovery was reported once')
  t.equal((await raw.read(key, 'svc')).view, null, 'the view from before the writes is gone from the cache')
  await raw.fill(key, 'svc', { ...kept.view!, version: kept.view!.version })
  t.equal((await raw.read(key, 'svc')).view, null, 'and a late fill of it is refused')
  for (let i = 0; i < 2; i++) {
    t.same(await drawerQuantities(app, token), [1], `read ${i + 1}: the drawer answers the latest write`)
    t.same(await storeQuantities(app, token), [1], `read ${i + 1}: the Store API answers the latest write`)
  }
  t.ok((await raw.read(key, 'svc')).view !== null, 'the cache is filled again')
  t.same((await app.inject({ method: 'GET', url: '/readyz' })).json().checks.view_cache, { backend: 'memory', status: 'ok', state: 'shared' }, '/readyz says ok again')
})

t.test('a checkout while the cache fails goes on; the versions are published once it answers', async (t) => {
  const { base, raw, fault, storage, app } = await setup(t)
  const token = await newCart(app)
  fault.down = true
  const checkout = await app.inject({
    method: 'POST', url: `${STORE_API}/checkout`, headers: { 'cart-token': token }, payload: { billing_address: ADDRESS, payment_method: 'cod' }
  })
  t.equal(checkout.statusCode, 200, `the checkout places an order (${checkout.body.slice(0, 200)})`)
  fault.down = false
  await waitFor(() => storage.viewCache!().state === 'shared', { timeoutMs: 10_000, what: 'the cache used again' })
  t.same((await raw.read('any', 'svc')).versions, await base.getVersions(), 'the cache knows the versions the database holds')
})

t.test('past the owed carts\' bound, a write of one more cart is refused until the cache answers', async (t) => {
  const { fault, storage, app } = await setup(t, 1)
  const first = await newCart(app)
  const second = await newCart(app)
  const itemOf = async (token: string) => ((await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json() as { items: Array<{ key: string }> }).items[0]!.key
  const [firstItem, secondItem] = [await itemOf(first), await itemOf(second)]
  fault.down = true
  const update = (token: string, key: string, quantity: number) =>
    app.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key, quantity } })
  t.equal((await update(first, firstItem, 2)).statusCode, 200, 'the first cart is written')
  t.equal((await update(first, firstItem, 3)).statusCode, 200, 'and again (one cart owed)')
  const refused = await update(second, secondItem, 2)
  t.equal(refused.statusCode, 503, 'a second cart is refused')
  t.equal(refused.json().code, 'svc_storage_unavailable')
  fault.down = false
  await waitFor(() => storage.viewCache!().state === 'shared', { timeoutMs: 10_000, what: 'the cache used again' })
  t.equal((await update(second, secondItem, 2)).statusCode, 200, 'once told, the second cart is written')
  t.same(await storeQuantities(app, first), [3], 'the first cart as written')
})
