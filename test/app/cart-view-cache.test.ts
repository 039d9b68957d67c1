import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { withCartViewCache } from '../../storage/index.ts'
import { StorageUnavailableError } from '../../storage/contract/index.ts'
import { createMemoryStorage } from '../../storage/memory/index.ts'
import { createMemoryViewCache } from '../../storage/memory/index.ts'
import { createRedisViewCache } from '../../storage/redis/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { build, STORE_API, SVC } from '../helper.ts'
import { startPausableProxy } from '../helpers/rate-counter-backends.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'
import { seedDemoShop } from '../../seed/seed.ts'

const READS = [`${SVC}/cart`, `${STORE_API}/cart`, `${SVC}/drawer-data`] as const

/** A storage whose cart reads fail while `down` is set: what still answers then did not read the database. */
function withFailingReads (storage: Storage): { storage: Storage, setDown: (down: boolean) => void, refused: () => number } {
  let down = false
  let refused = 0
  const failing = new Set(['readCart', 'getCart', 'getCartSnapshot', 'getProducts', 'getProduct', 'listProducts', 'getSettings'])
  const proxied = new Proxy(storage, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      if (down && failing.has(String(property))) return async () => { refused++; throw new StorageUnavailableError('database down (test)') }
      return (value as (...args: unknown[]) => unknown).bind(target)
    }
  })
  return { storage: proxied, setDown: (next) => { down = next }, refused: () => refused }
}

async function guestCart (app: FastifyInstance): Promise<string> {
  const first = await app.inject({ method: 'GET', url: `${STORE_API}/cart` })
  const token = first.headers['cart-token'] as string
  for (const id of [101, 103, 104]) {
    const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id, quantity: 1 } })
    if (added.statusCode !== 201) throw new Error(`add ${id}: ${added.statusCode} ${added.body}`)
  }
  return token
}

const read = (app: FastifyInstance, token: string, url: string) => app.inject({ method: 'GET', url, headers: { 'cart-token': token } })

/** What a response's quantities and total say, for each of the three reads. */
function summary (url: string, body: any): { quantities: number[], total: string } {
  if (url.endsWith('drawer-data')) body = body.cart
  if (url.startsWith(SVC)) return { quantities: body.cartItems.map((item: any) => item.quantity), total: String(body.cartTotal) }
  return { quantities: body.items.map((item: any) => item.quantity), total: String(body.totals.total_price) }
}

t.test('an unchanged guest cart is answered from the kept views, with no database read', async (t) => {
  const base = createMemoryStorage()
  await seedDemoShop(base, 'http://shop.test')
  const failing = withFailingReads(base)
  const storage = withCartViewCache(failing.storage, createMemoryViewCache())
  t.teardown(() => storage.close())
  const app = await build(t, { storage, seed: false })
  const token = await guestCart(app)

  for (const url of READS) {
    const computed = await read(app, token, url)
    t.equal(computed.statusCode, 200, `${url} computed`)
    failing.setDown(true)
    const before = failing.refused()
    const kept = await read(app, token, url)
    // Work a handler might still do after answering would show here.
    await new Promise((resolve) => setTimeout(resolve, 20))
    failing.setDown(false)
    t.equal(kept.statusCode, 200, `${url} answered while the database fails`)
    t.equal(failing.refused() - before, 0, `${url}: no database read was even tried`)
    t.equal(kept.body, computed.body, `${url}: the kept view is the computed body, byte for byte`)
    t.equal(kept.headers['content-type'], computed.headers['content-type'])
    for (const header of ['cart-hash', 'cart-token', 'nonce', 'user-id', 'cache-control']) {
      t.equal(typeof kept.headers[header], typeof computed.headers[header], `${url}: ${header} sent alike`)
    }
    if (url.startsWith(STORE_API)) t.equal(kept.headers['cart-hash'], computed.headers['cart-hash'])
  }

  t.test('a write is seen by the next read of every view', async (t) => {
    const cart = JSON.parse((await read(app, token, `${STORE_API}/cart`)).body)
    const changed = await app.inject({
      method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: cart.items[0].key, quantity: 3 }
    })
    t.equal(changed.statusCode, 200)
    for (const url of READS) {
      t.same(summary(url, JSON.parse((await read(app, token, url)).body)).quantities, [3, 1, 1], `${url} after the write`)
    }
  })

  t.test('a price change is seen by the next read of every view', async (t) => {
    const before = Object.fromEntries(await Promise.all(READS.map(async (url) => [url, summary(url, JSON.parse((await read(app, token, url)).body)).total])))
    const beanie = (await storage.getProduct(103))!
    await storage.upsertProducts([{ ...beanie, regularPrice: beanie.regularPrice! + 1000 }])
    for (const url of READS) {
      const after = summary(url, JSON.parse((await read(app, token, url)).body)).total
      t.not(after, before[url], `${url}: the total moved (${before[url]} → ${after})`)
    }
  })

  t.test('drawer data that may list best sellers (counted from orders, which no version tells) is not kept', async (t) => {
    const stored = await storage.getSettings()
    await storage.saveSettings({ ...stored?.document, recommendations: { source: 'cross_sells', fallbacks: ['best_sellers'] } })
    const url = `${SVC}/drawer-data`
    t.equal((await read(app, token, url)).statusCode, 200, 'computed')
    t.equal((await read(app, token, url)).statusCode, 200, 'computed again')
    failing.setDown(true)
    const again = await read(app, token, url)
    failing.setDown(false)
    t.equal(again.statusCode, 503, 'with the database failing it cannot be answered: nothing was kept')
    const cart = await read(app, token, `${SVC}/cart`)
    t.equal(cart.statusCode, 200, 'while the drawer\'s cart view still is')
  })

  t.test('a cart bound to a user is not answered from a guest\'s view', async (t) => {
    await read(app, token, `${SVC}/cart`)
    const key = app.commerce.cartKeyOfToken(token)!
    await storage.setCartUser(key, 1)
    for (const url of READS) {
      const response = await read(app, token, url)
      const bodyText = response.body
      t.notOk(response.statusCode === 200 && url.startsWith(SVC), `${url}: the token alone no longer reads the cart (${response.statusCode})`)
      if (url.startsWith(STORE_API)) t.same(JSON.parse(bodyText).items, [], 'the Store API starts a new, empty cart instead')
    }
  })
})

t.test('views kept in Redis: with Redis cut, reads answer from the database and writes go on', { skip: skipWithout('REDIS_URL'), timeout: 60_000 }, async (t) => {
  const proxy = await startPausableProxy(serviceUrl('REDIS_URL'))
  t.teardown(() => proxy.close())
  const base = createMemoryStorage()
  await seedDemoShop(base, 'http://shop.test')
  // Generous time limits: a loaded machine must not turn a slow healthy answer into a refused write.
  const cache = createRedisViewCache({ url: proxy.url, keyPrefix: `svc:test:${randomUUID()}:`, commandTimeoutMs: 2000, connectTimeoutMs: 5000, onError: () => {} })
  const storage = withCartViewCache(base, cache)
  t.teardown(() => storage.close())
  const app = await build(t, { storage, seed: false })
  const token = await guestCart(app)
  const bodies = new Map<string, string>()
  for (const url of READS) {
    await read(app, token, url)
    bodies.set(url, (await read(app, token, url)).body)
  }

  await proxy.close()
  for (const url of READS) {
    const response = await read(app, token, url)
    t.equal(response.statusCode, 200, `${url} still answers`)
    t.equal(response.body, bodies.get(url), `${url}: the same cart, from the database`)
  }
  const cart = JSON.parse(bodies.get(`${STORE_API}/cart`)!)
  const written = await app.inject({
    method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: cart.items[0].key, quantity: 2 }
  })
  t.equal(written.statusCode, 200, 'a write goes on, the cache bypassed')
  t.equal(storage.viewCache!().state, 'bypassed', 'the cache is bypassed')
  for (const url of READS) {
    t.same(summary(url, JSON.parse((await read(app, token, url)).body)).quantities, [2, 1, 1], `${url}: the write is seen`)
  }
})
