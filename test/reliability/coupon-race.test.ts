import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { STORE_API } from '../helpers/app.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { twoInstances } from '../helpers/two-instances.ts'

/**
 * A coupon's minimum spend is held against the cart as it is when the coupon is written, under the cart's write
 * lock. Two instances on one database: `cart/apply-coupon {big50}` (minimum $50) on one and, at the same moment,
 * `cart/remove-item` of the line that keeps the cart above $50 on the other. Whichever lands first, an apply that
 * answers 200 must show a cart the coupon is valid for: never the coupon stored while its answer says the minimum
 * is not met (the subtotal used to be read before the lock).
 */

type Json = Record<string, any>
const ROUNDS = 12

for (const backend of storageBackends()) {
  test(`apply-coupon racing remove-item: the minimum spend is checked under the write lock (${backend.name})`, { skip: backend.skip }, async (t) => {
    const { apps } = await twoInstances(t, backend)
    const [a, b] = apps as [FastifyInstance, FastifyInstance]
    const post = async (app: FastifyInstance, token: string | undefined, path: string, body: unknown) => {
      const response = await app.inject({ method: 'POST', url: `${STORE_API}/${path}`, headers: token ? { 'cart-token': token } : {}, payload: body as Json })
      return { status: response.statusCode, json: response.json() as Json, token: response.headers['cart-token'] as string | undefined }
    }

    const outcomes = { applied: 0, refused: 0 }
    for (let round = 0; round < ROUNDS; round++) {
      // Beanie ($18) and Belt ($55): $73, above big50's $50 minimum; without the Belt, $18.
      const read = await a.inject({ method: 'GET', url: `${STORE_API}/cart` })
      const first = await post(a, String(read.headers['cart-token']), 'cart/add-item', { id: 101, quantity: 1 })
      const token = first.token!
      const both = await post(a, token, 'cart/add-item', { id: 102, quantity: 1 })
      const belt = (both.json.items as Json[]).find((item) => item.id === 102)!.key as string

      const [apply, remove] = await Promise.all([
        post(a, token, 'cart/apply-coupon', { code: 'big50' }),
        post(b, token, 'cart/remove-item', { key: belt })
      ])
      t.equal(remove.status, 200, `round ${round}: the Belt is removed`)
      if (apply.status === 200) {
        outcomes.applied++
        const codes = (apply.json.coupons as Json[]).map((coupon) => coupon.code)
        t.same(codes, ['big50'], `round ${round}: the applied coupon is in the answer`)
        t.same(apply.json.errors, [], `round ${round}: and the answer's cart meets its minimum (no error beside it)`)
        t.ok(Number(apply.json.totals.total_items) >= 5000, `round ${round}: the cart the coupon was applied to was $50 or more`)
      } else {
        outcomes.refused++
        t.equal(apply.status, 400, `round ${round}: else the coupon is refused`)
        t.match(apply.json.message, /minimum spend/i, `round ${round}: for its minimum spend`)
        const cart = await a.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
        t.same(cart.json().coupons, [], `round ${round}: and not stored`)
      }
    }
    t.equal(outcomes.applied + outcomes.refused, ROUNDS, `every round ended one way or the other (${outcomes.applied} applied, ${outcomes.refused} refused)`)
  })
}
