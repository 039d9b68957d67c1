import fc from 'fast-check'
import { test } from 'tap'
import type { Storage } from '../../storage/contract/index.ts'
import { STORE_API } from '../helpers/app.ts'
import { buildSecurityApp, createSecurityStorage, login, newCartToken, SVC, USERS } from '../helpers/security.ts'

/**
 * fast-check's scheduler decides in which order the storage reads of concurrent requests come back, so that every
 * interleaving of the service's read-then-write steps is tried: adds to one cart are never lost, and two settings
 * saves against one version give exactly one 409, whatever the order.
 */

type Scheduler = fc.Scheduler

/** The reads a request makes before it writes (names the storage may or may not have). */
const SCHEDULED = new Set<string | symbol>(['readCart', 'getCart', 'getProducts', 'getProduct', 'getCoupons', 'getCoupon', 'getSettings', 'findUserCart'])

/** The storage, with the answers of its reads delivered in the order the current scheduler picks. */
function scheduledStorage (inner: Storage, current: { scheduler: Scheduler | null }): Storage {
  return new Proxy(inner, {
    get (target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      const bound = value.bind(target) as (...args: unknown[]) => Promise<unknown>
      if (!SCHEDULED.has(property)) return bound
      return (...args: unknown[]) => current.scheduler === null
        ? bound(...args)
        : current.scheduler.schedule(bound(...args), String(property))
    }
  })
}

test('interleavings chosen by fast-check\'s scheduler', { timeout: 110_000 }, async (t) => {
  const inner = await createSecurityStorage(t)
  const current: { scheduler: Scheduler | null } = { scheduler: null }
  const { app } = await buildSecurityApp(t, { storage: scheduledStorage(inner, current) })
  const admin = await login(app, USERS.admin)
  let runs = 0

  await fc.assert(fc.asyncProperty(fc.scheduler(), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 5 }), async (s, quantities) => {
    runs++
    const token = await newCartToken(app)
    current.scheduler = s
    try {
      const adds = quantities.map((quantity) =>
        app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { 'cart-token': token }, payload: { id: 105, quantity } }))
      const coupon = app.inject({ method: 'POST', url: `${SVC}/coupon`, headers: { 'cart-token': token }, payload: { code: 'save10' } })
      const all = Promise.all([...adds, coupon])
      await s.waitFor(all)
      const answers = await all
      current.scheduler = null
      const succeeded = quantities.filter((_, index) => answers[index]!.statusCode === 201)
      const cart = (await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })).json()
      const quantity = cart.items.filter((item: { id: number }) => item.id === 105).reduce((sum: number, item: { quantity: number }) => sum + item.quantity, 0)
      return quantity === succeeded.reduce((sum, q) => sum + q, 0) && cart.items.length <= 1
    } finally {
      current.scheduler = null
    }
  }), { numRuns: 12, seed: 1122 })
  t.pass('adds to one cart are never lost, in any order of their reads')

  await fc.assert(fc.asyncProperty(fc.scheduler(), async (s) => {
    runs++
    const headers = { cookie: admin.cookie, 'x-wp-nonce': admin.nonce }
    const { version } = (await app.inject({ method: 'GET', url: `${SVC}/settings`, headers })).json() as { version: number }
    current.scheduler = s
    try {
      const saves = Promise.all(['left', 'right'].map((position) =>
        app.inject({ method: 'POST', url: `${SVC}/settings`, headers, payload: { settings: { drawer_config: { position } }, version } })))
      await s.waitFor(saves)
      const statuses = (await saves).map((response) => response.statusCode).sort()
      return statuses[0] === 200 && statuses[1] === 409
    } finally {
      current.scheduler = null
    }
  }), { numRuns: 8, seed: 1122 })
  t.pass('two saves against one version: exactly one 409, in any order')
  t.comment(`${runs} scheduled runs`)
})
