import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { STORE_API } from '../helpers/app.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { twoInstances } from '../helpers/two-instances.ts'

/**
 * Every rule of a cart write is checked inside the cart's write lock, against the cart as it is then. Four
 * conflicting writes to one cart fired at the same moment through two instances on one database — set the Beanies to
 * 3, remove the Belt, apply `big50` (a $50 minimum), add a Cap — must leave the cart as one of the 24 serial orders of
 * those writes would: never a state no order of them gives (a coupon kept below its minimum, a lost line).
 */

type Json = Record<string, any>
const ROUNDS = 6
const BEANIE = 101
const BELT = 102
const CAP = 103

type Write = 'update' | 'remove' | 'coupon' | 'add'
const WRITES: readonly Write[] = ['update', 'remove', 'coupon', 'add']

function permutations<T> (items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]))
}

/** What a cart's final state is judged by: its lines and quantities, its coupons and its total. */
function signature (cart: Json): string {
  const lines = (cart.items as Json[]).map((item) => `${item.id}x${item.quantity}`).sort().join(',')
  const coupons = (cart.coupons as Json[]).map((coupon) => coupon.code).sort().join(',')
  return `${lines} | ${coupons} | ${cart.totals.total_price}`
}

for (const backend of storageBackends()) {
  test(`conflicting cart writes through two instances end as one of their serial orders (${backend.name})`, { skip: backend.skip }, async (t) => {
    const { apps } = await twoInstances(t, backend)
    let ip = 0
    const call = async (app: FastifyInstance, method: 'GET' | 'POST', path: string, token?: string, body?: Json) => {
      const response = await app.inject({
        method,
        url: `${STORE_API}/${path}`,
        remoteAddress: `10.30.${Math.floor(ip / 200)}.${(ip++ % 200) + 1}`,
        headers: token ? { 'cart-token': token } : {},
        ...(body ? { payload: body } : {})
      })
      return { status: response.statusCode, json: response.json() as Json, token: response.headers['cart-token'] as string | undefined }
    }

    /** A new cart with two Beanies and a Belt ($91 before tax): its token and the item keys. */
    async function startCart (): Promise<{ token: string, beanie: string, belt: string }> {
      const { token } = await call(apps[0]!, 'GET', 'cart')
      await call(apps[0]!, 'POST', 'cart/add-item', token, { id: BEANIE, quantity: 2 })
      const added = await call(apps[0]!, 'POST', 'cart/add-item', token, { id: BELT, quantity: 1 })
      const items = added.json.items as Json[]
      return { token: token!, beanie: items.find((item) => item.id === BEANIE)!.key, belt: items.find((item) => item.id === BELT)!.key }
    }

    function write (name: Write, app: FastifyInstance, cart: { token: string, beanie: string, belt: string }) {
      switch (name) {
        case 'update': return call(app, 'POST', 'cart/update-item', cart.token, { key: cart.beanie, quantity: 3 })
        case 'remove': return call(app, 'POST', 'cart/remove-item', cart.token, { key: cart.belt })
        case 'coupon': return call(app, 'POST', 'cart/apply-coupon', cart.token, { code: 'big50' })
        case 'add': return call(app, 'POST', 'cart/add-item', cart.token, { id: CAP, quantity: 1 })
      }
    }

    // The states the 24 serial orders leave, each replayed one write after another on a cart of its own.
    const serial = new Set<string>()
    for (const order of permutations(WRITES)) {
      const cart = await startCart()
      for (const name of order) await write(name, apps[0]!, cart)
      serial.add(signature((await call(apps[0]!, 'GET', 'cart', cart.token)).json))
    }
    t.ok(serial.size > 1, `the serial orders differ (${serial.size} outcomes)`)

    for (let round = 0; round < ROUNDS; round++) {
      const cart = await startCart()
      const answers = await Promise.all(WRITES.map((name, index) => write(name, apps[index % 2]!, cart)))
      for (const answer of answers) t.ok(answer.status < 500, `round ${round}: no write fails with ${answer.status}`)
      const final = signature((await call(apps[1]!, 'GET', 'cart', cart.token)).json)
      t.ok(serial.has(final), `round ${round}: "${final}" is a serial order's outcome`)
    }
  })
}
