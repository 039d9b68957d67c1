import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { test, type Test } from 'tap'
import { createRedisViewCache, withCartViewCache } from '../../storage/index.ts'
import type { CartViewCache } from '../../storage/contract/index.ts'
import { build, STORE_API, SVC, waitFor } from '../helper.ts'
import { asGuest } from '../helpers/security.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { startProxyFor } from '../helpers/tcp-proxy.ts'

/**
 * The cart view cache in Redis goes away from one instance (its connection cut or black-holed; Redis keeps its data):
 * that instance's cart writes and checkouts go on, the cache bypassed, and once it reaches Redis again no instance,
 * it or a second one sharing the Redis and the PostgreSQL database, answers a view from before those writes.
 */

const skip = skipWithout('REDIS_URL') || skipWithout('DATABASE_URL')
const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Analytical Row', address_2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '', email: 'ada@example.com' }
const READS = [`${SVC}/cart`, `${STORE_API}/cart`, `${SVC}/drawer-data`] as const

const quantities = async (app: FastifyInstance, token: string): Promise<number[][]> => Promise.all(READS.map(async (url) => {
  const response = await app.inject({ method: 'GET', url, headers: url.startsWith(SVC) ? asGuest(token) : { 'cart-token': token } })
  if (response.statusCode !== 200) return [-response.statusCode]
  let body = response.json() as any
  if (url.endsWith('drawer-data')) body = body.cart
  return url.startsWith(SVC) ? body.cartItems.map((item: any) => item.quantity) : body.items.map((item: any) => item.quantity)
}))

/** Two app instances on one PostgreSQL database and one Redis; the first reaches Redis through `proxy`. */
async function twoApps (t: Test) {
  const redisUrl = serviceUrl('REDIS_URL')
  const proxy = await startProxyFor(redisUrl)
  t.teardown(() => proxy.close())
  const pair = await storageBackends()[1]!.createPair()
  t.teardown(() => pair.dispose())
  const keyPrefix = `svc:test:${randomUUID()}:`
  const calls = { count: 0 }
  const cacheOf = (url: string, counted: boolean): CartViewCache => {
    const cache = createRedisViewCache({ url, keyPrefix, commandTimeoutMs: 500, connectTimeoutMs: 2000, onError: () => {} })
    // The storages are closed by the pair: the caches here.
    t.teardown(() => cache.close())
    if (!counted) return cache
    return new Proxy(cache, {
      get (target, property) {
        const value: unknown = Reflect.get(target, property, target)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (property !== 'ping' && property !== 'close') calls.count++
          return (value as (...args: unknown[]) => unknown).apply(target, args)
        }
      }
    })
  }
  const first = withCartViewCache(pair.storages[0], cacheOf(proxy.urlFor(redisUrl), true), { probeIntervalMs: 100, onError: () => {} })
  const second = withCartViewCache(pair.storages[1], cacheOf(redisUrl, false), { onError: () => {} })
  const a = await build(t, { storage: first, seed: true })
  const b = await build(t, { storage: second, seed: false })
  return { proxy, a, b, first, calls }
}

async function guestCart (app: FastifyInstance): Promise<{ token: string, itemKey: string }> {
  const token = (await app.inject({ method: 'GET', url: `${STORE_API}/cart` })).headers['cart-token'] as string
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 101, quantity: 1 } })
  if (added.statusCode !== 201) throw new Error(`add: ${added.statusCode} ${added.body}`)
  return { token, itemKey: (added.json() as { items: Array<{ key: string }> }).items[0]!.key }
}

async function outage (t: Test, fault: 'cut' | 'blackhole') {
  const { proxy, a, b, first, calls } = await twoApps(t)
  const { token, itemKey } = await guestCart(a)
  for (const app of [a, b, a, b]) await quantities(app, token)
  t.same(await quantities(b, token), [[1], [1], [1]], 'both instances answer the cart, from the kept views')

  if (fault === 'cut') proxy.cut()
  else proxy.blackhole()
  const updated = await a.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: itemKey, quantity: 2 } })
  t.equal(updated.statusCode, 200, `${fault}: a Store API update-item goes on`)
  await waitFor(() => first.viewCache!().state === 'bypassed', { timeoutMs: 10_000, what: 'the cache bypassed' })
  const before = calls.count
  const added = await a.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 103, quantity: 1 } })
  t.equal(added.statusCode, 201, `${fault}: a Store API add-item goes on`)
  const removed = await a.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: asGuest(token), payload: { keys: [itemKey] } })
  t.equal(removed.statusCode, 200, `${fault}: a svc/v1 write goes on`)
  t.same(await quantities(a, token), [[1], [1], [1]], `${fault}: the writing instance answers its writes, from the database`)
  const buyer = await guestCart(a)
  const checkout = await a.inject({
    method: 'POST', url: `${STORE_API}/checkout`, headers: { 'cart-token': buyer.token }, payload: { billing_address: ADDRESS, payment_method: 'cod' }
  })
  t.equal(checkout.statusCode, 200, `${fault}: a checkout places an order`)
  t.equal(calls.count, before, `${fault}: no request waited on the cache once it was bypassed`)
  const ready = await a.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 200, `${fault}: /readyz answers 200`)
  t.match(ready.json().checks.view_cache, { backend: 'redis', status: 'degraded', state: 'bypassed' }, `${fault}: and says the view cache is degraded`)

  proxy.restore()
  await waitFor(() => first.viewCache!().state === 'shared', { timeoutMs: 20_000, what: 'the cache used again' })
  for (const [name, app] of [['the writing instance', a], ['the other instance', b], ['the writing instance', a], ['the other instance', b]] as const) {
    t.same(await quantities(app, token), [[1], [1], [1]], `${fault}: ${name} answers the writes made during the outage`)
  }
}

test('Redis connection cut (Redis keeps its data): writes and checkout go on; afterwards no instance answers a view from before them', { skip, timeout: 90_000 }, async (t) => {
  await outage(t, 'cut')
})

test('Redis black-holed: writes and checkout go on without each waiting for Redis; afterwards no view from before them', { skip, timeout: 90_000 }, async (t) => {
  await outage(t, 'blackhole')
})
