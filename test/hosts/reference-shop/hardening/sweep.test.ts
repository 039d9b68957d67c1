import { test } from 'tap'
import { newCartKey } from '../../../../hosts/reference-shop/session/cart-key.ts'
import { DEFAULT_SWEEP, sweepExpired } from '../../../../hosts/reference-shop/index.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { backendSkip, build, createStorage, STORE_API, waitFor, type Backend } from '../../../helper.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'

/**
 * The sweep of expired guest carts and sessions (hosts/reference-shop/maintenance/sweep.ts): called with an injected instant,
 * scheduled by the shop plugin, safe with two instances on one PostgreSQL database.
 */

const HOUR = 3600_000
const EMPTY = { lines: [], coupons: [] }
const quiet = { error: () => {}, info: () => {} }

/** The storage with some methods replaced (the others bound to it: its private fields stay reachable). */
function withOverrides (storage: Storage, overrides: Partial<Storage>): Storage {
  return new Proxy(storage, {
    get (target, name, receiver) {
      if (Object.hasOwn(overrides, name)) return overrides[name as keyof Storage]
      const value = Reflect.get(target, name, receiver) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
}

async function guestCarts (storage: Storage, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, () => newCartKey())
  for (const key of keys) await storage.updateCart(key, () => ({ data: EMPTY, result: null }))
  return keys
}

async function userCart (storage: Storage, email: string): Promise<{ key: string, userId: number }> {
  const user = await storage.ensureUser({ email, displayName: email, passwordHash: 'x', capabilities: [] })
  const [key] = await guestCarts(storage, 1)
  await storage.setCartUser(key!, user.id)
  return { key: key!, userId: user.id }
}

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`a sweep deletes guest carts past the Cart-Token's lifetime and expired sessions, in batches (${backend})`, async (t) => {
    const storage = await createStorage(t, { backend, seed: false })
    const guests = await guestCarts(storage, 7)
    const owned = await userCart(storage, 'shopper@sweep.test')
    const now = Date.now()
    await storage.createSession({ idHash: 'expired-session', userId: owned.userId, capabilities: [], createdAt: new Date(now - 20 * 24 * HOUR).toISOString(), expiresAt: new Date(now - HOUR).toISOString() })
    await storage.createSession({ idHash: 'live-session', userId: owned.userId, capabilities: [], createdAt: new Date(now).toISOString(), expiresAt: new Date(now + 14 * 24 * HOUR).toISOString() })

    t.equal(DEFAULT_SWEEP.cartLifetimeMs, 48 * HOUR, 'a guest cart lives as long as its Cart-Token')
    const early = await sweepExpired(storage, new Date(now + 47 * HOUR), quiet, { batch: 3 })
    t.same(early, { guestCarts: 0, sessions: 1, idempotencyKeys: 0 }, '47 hours on: no cart yet, the expired session')
    t.ok(await storage.getCart(guests[0]!), 'the guest cart is kept')
    t.equal(await storage.getSession('expired-session'), null)
    t.ok(await storage.getSession('live-session'))

    const late = await sweepExpired(storage, new Date(now + 49 * HOUR), quiet, { batch: 3 })
    t.same(late, { guestCarts: 7, sessions: 0, idempotencyKeys: 0 }, '49 hours on: every guest cart, three at a time until fewer than three were left')
    for (const key of guests) t.equal(await storage.getCart(key), null)
    t.ok(await storage.getCart(owned.key), 'a logged-in user\'s cart is never swept')
  })
}

test('a sweep logs a failing purge and goes on; it never throws', async (t) => {
  const errors: string[] = []
  const log = { error: (_fields: object, message: string) => { errors.push(message) }, info: () => {} }
  let sessionCalls = 0
  const failing = {
    purgeGuestCarts: async () => { throw new Error('database gone') },
    purgeExpiredSessions: async () => { sessionCalls++; return 0 },
    purgeIdempotencyKeys: async () => 0
  }
  const result = await sweepExpired(failing, new Date(), log)
  t.same(result, { guestCarts: 0, sessions: 0, idempotencyKeys: 0 })
  t.equal(sessionCalls, 1, 'the sessions were still purged')
  t.same(errors, ['sweep: guest carts could not be purged'])
})

test('the shop schedules the sweep on its own clock; sweep: false turns it off', async (t) => {
  let offset = 0
  const now = () => new Date(Date.now() + offset)
  const storage = await createStorage(t, { backend: 'memory' })
  const calls: string[] = []
  const watched = withOverrides(storage, {
    purgeGuestCarts: (before: string, limit: number) => { calls.push(before); return storage.purgeGuestCarts(before, limit) }
  })
  const app = await build(t, { storage: watched, seed: false, now, sweep: { everyMinutes: 0.0005, firstRunAfterMs: 0 } })
  const token = (await app.inject({ url: `${STORE_API}/cart` })).headers['cart-token'] as string
  const response = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 101, quantity: 1 } })
  t.equal(response.statusCode, 201)
  const key = app.shop.cartTokens.verify(token)!
  await waitFor(() => calls.length >= 2, { what: 'two scheduled sweeps' })
  t.ok(await storage.getCart(key), 'a fresh guest cart outlives the sweeps')
  offset = 49 * HOUR
  await waitFor(async () => await storage.getCart(key) === null, { what: 'the cart swept once the shop\'s clock is 49 hours on' })
  t.ok(Date.parse(calls.at(-1)!) > Date.now(), 'the cutoff follows the shop\'s clock (48 hours before it)')
  await app.close()

  const offStorage = await createStorage(t, { backend: 'memory' })
  let offCalls = 0
  const off = withOverrides(offStorage, {
    purgeGuestCarts: async () => { offCalls++; return 0 }
  })
  const quietApp = await build(t, { storage: off, seed: false, sweep: false })
  await quietApp.inject({ url: `${STORE_API}/cart` })
  t.equal(offCalls, 0, 'no sweep when turned off')
})

for (const backend of storageBackends().filter((candidate) => candidate.name === 'postgres')) {
  test('two instances sweeping one PostgreSQL database at once delete each guest cart once and no user\'s cart', { skip: backend.skip || backendSkip('postgres') }, async (t) => {
    const pair = await backend.createPair()
    t.teardown(() => pair.dispose())
    const [a, b] = pair.storages as [Storage, Storage]
    const guests = await guestCarts(a, 60)
    const owned = [await userCart(a, 'one@sweep.test'), await userCart(b, 'two@sweep.test')]
    const at = new Date(Date.now() + 49 * HOUR)
    const [first, second] = await Promise.all([
      sweepExpired(a, at, quiet, { batch: 4 }),
      sweepExpired(b, at, quiet, { batch: 4 })
    ])
    t.equal(first.guestCarts + second.guestCarts, guests.length, `${first.guestCarts} + ${second.guestCarts}: each guest cart deleted once`)
    for (const key of guests) if (await b.getCart(key) !== null) t.fail(`guest cart ${key} is left`)
    for (const { key } of owned) t.ok(await a.getCart(key), 'the logged-in users\' carts are kept')
    t.same(await sweepExpired(b, at, quiet, { batch: 4 }), { guestCarts: 0, sessions: 0, idempotencyKeys: 0 }, 'a later sweep finds nothing')
  })
}
