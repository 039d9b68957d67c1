import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { SITE_URL, STORE_API, TEST_PASSWORD_HASHING } from '../helpers/app.ts'
import { proxiedPostgres } from '../helpers/fault-backends.ts'
import { serviceUrl, skipWithout } from '../helpers/services.ts'
import { asGuest, buildSecurityApp, newCartToken, SVC, USERS } from '../helpers/security.ts'
import { waitFor } from '../helper.ts'

/**
 * Once a cart write has committed, nothing can turn its answer into a failure: the database goes away between the
 * commit and the answer (the connection cut as the write's transaction returns), and the write still answers 2xx
 * with the cart as it is stored. What the answer would have read afterwards (the cart's cross-sells, the drawer's
 * recommendations) is left out rather than answered with a 503.
 */

interface Item { key: string, id: number, quantity: number }

/** The storage, with the database cut off as soon as a cart write has committed, while `armed`. */
function cutAfterCommit (storage: Storage, cut: () => void): { storage: Storage, arm: () => void } {
  let armed = false
  const after = <T>(result: T): T => {
    if (armed) {
      armed = false
      cut()
    }
    return result
  }
  const wrapped = new Proxy(storage, {
    get (target, property) {
      const value: unknown = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      const method = (value as (...args: unknown[]) => unknown).bind(target)
      if (property !== 'updateCart' && property !== 'removeCartLines') return method
      return async (...args: unknown[]) => after(await method(...args))
    }
  })
  return { storage: wrapped, arm: () => { armed = true } }
}

const drawerItems = (body: unknown): Item[] =>
  (body as { cartItems: Array<{ key: string, product_id: number, quantity: number }> }).cartItems.map((item) => ({ key: item.key, id: item.product_id, quantity: item.quantity }))

/** The cart as stored, once the database answers again (the cut connections are replaced on the next tries). */
async function storedItems (app: FastifyInstance, token: string): Promise<Item[]> {
  const response = await waitFor(async () => {
    const answer = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
    return answer.statusCode === 200 ? answer : null
  }, { timeoutMs: 20_000, what: 'the cart read to succeed again' })
  return (response.json() as { items: Item[] }).items.map(({ key, id, quantity }) => ({ key, id, quantity }))
}

test('a write that committed answers 2xx with the stored cart when the database goes away before the answer', { timeout: 60_000, skip: skipWithout('DATABASE_URL') }, async (t) => {
  const url = serviceUrl('DATABASE_URL')
  const pg = await proxiedPostgres(url, { connectionTimeoutMillis: 1000, queryTimeoutMillis: 1500 })
  t.teardown(() => pg.dispose())
  await seedDemoShop(pg.storage, SITE_URL)
  await seedDemoUsers(pg.storage, USERS, TEST_PASSWORD_HASHING)
  const { storage, arm } = cutAfterCommit(pg.storage, () => pg.proxy.cut())
  const { app } = await buildSecurityApp(t, { storage })

  const writes: Array<[string, (token: string, items: Item[]) => Promise<LightMyRequestResponse>, (body: unknown) => Item[]]> = [
    ['Store API add-item', (token) => app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 104, quantity: 2 } }),
      (body) => (body as { items: Item[] }).items],
    ['Store API update-item', (token, items) => app.inject({ method: 'POST', url: `${STORE_API}/cart/update-item`, headers: { 'cart-token': token }, payload: { key: items[0]!.key, quantity: 3 } }),
      (body) => (body as { items: Item[] }).items],
    ['Store API remove-item', (token, items) => app.inject({ method: 'POST', url: `${STORE_API}/cart/remove-item`, headers: { 'cart-token': token }, payload: { key: items[0]!.key } }),
      (body) => (body as { items: Item[] }).items],
    ['svc/v1 cart/remove-items', (token, items) => app.inject({ method: 'POST', url: `${SVC}/cart/remove-items`, headers: asGuest(token), payload: { keys: [items[0]!.key] } }),
      drawerItems],
    ['svc/v1 coupon', (token) => app.inject({ method: 'POST', url: `${SVC}/coupon`, headers: asGuest(token), payload: { code: 'save10' } }),
      drawerItems]
  ]
  for (const [name, write, itemsOf] of writes) {
    await t.test(name, async (t) => {
      pg.proxy.restore()
      const token = await newCartToken(app)
      // Two lines whose products have cross-sells: the answer would read them after the write.
      for (const id of [101, 102]) {
        t.equal((await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id, quantity: 1 } })).statusCode, 201)
      }
      const before = await storedItems(app, token)
      arm()
      const response = await write(token, before)
      t.ok(response.statusCode >= 200 && response.statusCode < 300, `answered ${response.statusCode}: ${response.body.slice(0, 200)}`)
      pg.proxy.restore()
      const stored = await storedItems(app, token)
      if (!name.endsWith('coupon')) t.not(JSON.stringify(stored), JSON.stringify(before), 'the write was stored')
      if (response.statusCode < 300) {
        const answered = itemsOf(response.json())
        t.same(answered.map(({ id, quantity }) => ({ id, quantity })), stored.map(({ id, quantity }) => ({ id, quantity })), 'the answer is the cart as stored')
      }
    })
  }
})
