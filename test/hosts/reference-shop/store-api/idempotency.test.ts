import { randomUUID } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { sweepExpired } from '../../../../hosts/reference-shop/index.ts'
import { StorageUnavailableError, type Storage } from '../../../../storage/contract/index.ts'
import { createPostgresClient, createPostgresStorage } from '../../../../storage/postgres/index.ts'
import { build, createStorage, type Backend } from '../../../helper.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'
import { Shopper } from '../../../helpers/store-api-shopper.ts'
import { twoInstances } from '../../../helpers/two-instances.ts'

/**
 * `Idempotency-Key` on the Store API's cart writes (hosts/reference-shop/store-api/, drawer/plugins/idempotency/): the
 * first request with a key is applied once and its answer kept; a repeat with the same body gets that answer, another
 * body 422; keys belong to the cart and user they were used for, expire after 24 hours, and a 5xx is not kept.
 */

type Json = Record<string, any>
const HOUR = 3_600_000
const quiet = { error: () => {}, info: () => {} }

const keyed = (key: string) => ({ 'idempotency-key': key })
const newKey = () => `key-${randomUUID()}`

function expectReplay (t: Test, first: LightMyRequestResponse, again: LightMyRequestResponse, what: string): void {
  t.equal(again.statusCode, first.statusCode, `${what}: the same status`)
  t.equal(again.body, first.body, `${what}: the same body`)
  t.equal(again.headers['cart-token'], first.headers['cart-token'], `${what}: the same Cart-Token`)
  t.equal(again.headers['content-type'], first.headers['content-type'], `${what}: the same content type`)
  t.equal(first.headers['idempotent-replayed'], undefined, `${what}: the first answer is no replay`)
  t.equal(again.headers['idempotent-replayed'], 'true', `${what}: the repeat says it is one`)
}

function expectRestError (t: Test, response: LightMyRequestResponse, status: number, code: string): void {
  t.equal(response.statusCode, status, `${code}: ${status}`, { body: response.body })
  const body = response.json()
  t.same(Object.keys(body).sort(), ['code', 'data', 'message'], 'the WordPress REST error shape')
  t.equal(body.code, code)
  t.equal(body.data.status, status)
  t.ok(typeof body.message === 'string' && body.message.length > 0, 'a message')
}

async function quantities (shopper: Shopper): Promise<number[]> {
  return ((await shopper.cart()).json() as Json).items.map((item: Json) => item.quantity)
}

/** The storage with some methods replaced (the others bound to it). */
function withOverrides (storage: Storage, overrides: Partial<Storage>): Storage {
  return new Proxy(storage, {
    get (target, name, receiver) {
      if (Object.hasOwn(overrides, name)) return overrides[name as keyof Storage]
      const value = Reflect.get(target, name, receiver) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
}

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`Store API cart writes with an Idempotency-Key (${backend})`, async (t) => {
    let offset = 0
    const app = await build(t, { backend, sweep: false, now: () => new Date(Date.now() + offset) })

    t.test('the same key twice: added once, the same answer', async (t) => {
      const shopper = await Shopper.start(app)
      const key = newKey()
      const first = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      t.equal(first.statusCode, 201)
      const again = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      expectReplay(t, first, again, 'add-item')
      t.same(await quantities(shopper), [1], 'one line of one: the repeat changed nothing')
      const fresh = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(newKey()))
      t.equal(fresh.statusCode, 201)
      t.same(await quantities(shopper), [2], 'a new key is a new change')
      const plain = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 })
      t.equal(plain.statusCode, 201, 'without a key, as before')
      t.same(await quantities(shopper), [3])
    })

    t.test('the same key with another body: 422, nothing changed', async (t) => {
      const shopper = await Shopper.start(app)
      const key = newKey()
      t.equal((await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))).statusCode, 201)
      const other = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 2 }, keyed(key))
      expectRestError(t, other, 422, 'svc_idempotency_key_reused')
      const elsewhere = await shopper.request('POST', 'cart/apply-coupon', { code: 'save10' }, keyed(key))
      expectRestError(t, elsewhere, 422, 'svc_idempotency_key_reused')
      t.same(await quantities(shopper), [1])
      t.same((await shopper.cart()).json().coupons, [], 'the coupon was not applied')
    })

    t.test('a key is scoped to its cart: another shopper with the same key gets an answer of their own', async (t) => {
      const [ann, bob] = [await Shopper.start(app), await Shopper.start(app)]
      const key = newKey()
      const first = await ann.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      const second = await bob.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      t.equal(second.statusCode, 201)
      t.equal(second.headers['idempotent-replayed'], undefined, 'not Ann\'s answer')
      t.not(second.headers['cart-token'], first.headers['cart-token'], 'Bob\'s own cart')
      t.same(await quantities(ann), [1])
      t.same(await quantities(bob), [1])
    })

    t.test('a key must be 1 to 255 visible ASCII characters: else 400, nothing changed', async (t) => {
      const shopper = await Shopper.start(app)
      for (const [what, key] of [['empty', ''], ['256 characters', 'k'.repeat(256)], ['a space', 'two words'], ['not ASCII', 'clé-1'], ['a control character', 'a\tb']]) {
        const response = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key!))
        t.test(what!, async (t) => expectRestError(t, response, 400, 'svc_idempotency_key_invalid'))
      }
      t.same(await quantities(shopper), [], 'no line added')
      const longest = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed('~'.repeat(255)))
      t.equal(longest.statusCode, 201, '255 characters are a key')
    })

    t.test('a 4xx answer is kept: the repeat is refused as the first was, though it would pass now', async (t) => {
      const shopper = await Shopper.start(app)
      await shopper.add(103)
      const key = newKey()
      const refused = await shopper.request('POST', 'cart/apply-coupon', { code: 'later5' }, keyed(key))
      t.equal(refused.statusCode, 400, 'no such coupon yet')
      await app.shop.storage.upsertCoupons([{ code: 'later5', discountType: 'fixed_cart', amount: 500, freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '' }])
      const again = await shopper.request('POST', 'cart/apply-coupon', { code: 'later5' }, keyed(key))
      expectReplay(t, refused, again, 'apply-coupon')
      t.same((await shopper.cart()).json().coupons, [], 'still not applied')
      t.equal((await shopper.request('POST', 'cart/apply-coupon', { code: 'later5' }, keyed(newKey()))).statusCode, 200, 'a new key applies it')
    })

    t.test('the other cart writes take a key too: update-item, remove-item, update-customer, PUT checkout, batch', async (t) => {
      const shopper = await Shopper.start(app)
      const { key: line } = (await shopper.add(101, 1)).json().items[0]
      const writes: Array<[string, 'POST' | 'PUT' | 'DELETE', string, Json]> = [
        ['update-item', 'POST', 'cart/update-item', { key: line, quantity: 4 }],
        ['update-customer', 'POST', 'cart/update-customer', { billing_address: { first_name: 'Ada' } }],
        ['select-shipping-rate', 'POST', 'cart/select-shipping-rate', { package_id: 0, rate_id: 'flat_rate:1' }],
        ['PUT checkout', 'PUT', 'checkout', { customer_note: 'ring twice' }],
        ['batch', 'POST', 'batch', { requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: 103, quantity: 1 } }] }],
        ['remove-item', 'POST', 'cart/remove-item', { key: line }]
      ]
      for (const [what, method, path, body] of writes) {
        const key = newKey()
        const first = await shopper.request(method, path, body, keyed(key))
        t.ok(first.statusCode < 300, `${what}: ${first.statusCode}`, { body: first.body })
        expectReplay(t, first, await shopper.request(method, path, body, keyed(key)), what)
      }
      t.same(await quantities(shopper), [1], 'the batch added Cap once; the line of Beanie was removed once')
    })

    t.test('a 5xx is not kept: the retry with the key runs again', async (t) => {
      const storage = await createStorage(t, { backend })
      let failures = 1
      const failing = withOverrides(storage, {
        updateCart: ((...args: Parameters<Storage['updateCart']>) => {
          if (failures-- > 0) return Promise.reject(new StorageUnavailableError('the database went away'))
          return storage.updateCart(...args)
        }) as Storage['updateCart']
      })
      const flaky = await build(t, { storage: failing, seed: false, sweep: false })
      const shopper = await Shopper.start(flaky)
      const key = newKey()
      const failed = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      t.equal(failed.statusCode, 503, 'the first attempt fails')
      const retried = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      t.equal(retried.statusCode, 201, 'the retry runs')
      t.equal(retried.headers['idempotent-replayed'], undefined)
      expectReplay(t, retried, await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key)), 'after the retry')
      t.same(await quantities(shopper), [1])
    })

    t.test('a key expires 24 hours after its first request', async (t) => {
      const shopper = await Shopper.start(app)
      const key = newKey()
      const first = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      offset = 24 * HOUR - 60_000
      expectReplay(t, first, await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key)), 'a minute before')
      t.same(await quantities(shopper), [1])
      offset = 24 * HOUR + 1000
      const swept = await sweepExpired(app.shop.storage, new Date(Date.now() + offset), quiet)
      t.ok(swept.idempotencyKeys >= 1, `the sweep deletes expired keys (${swept.idempotencyKeys})`)
      const later = await shopper.request('POST', 'cart/add-item', { id: 101, quantity: 1 }, keyed(key))
      t.equal(later.statusCode, 201)
      t.equal(later.headers['idempotent-replayed'], undefined, 'a day on, the key is new again')
      t.same(await quantities(shopper), [2])
      offset = 0
    })
  })
}

// ---------------------------------------------------------------------------------------------- checkout

const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Analytical Row', address_2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '' }
const ORDER = { billing_address: { ...ADDRESS, email: 'ada@example.com' }, payment_method: 'cod' }

/** A shopper on `app` with one Beanie in the cart. */
async function shopperWithCart (app: FastifyInstance): Promise<Shopper> {
  const shopper = await Shopper.start(app)
  await shopper.add(101, 1)
  return shopper
}

function placeOrder (app: FastifyInstance, shopper: Shopper, key: string, body: Json = ORDER): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/checkout', remoteAddress: shopper.ip, headers: { 'cart-token': shopper.token!, ...keyed(key) }, payload: body })
}

const orderCount = async (storage: Storage) => (await storage.listOrders({})).total

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`a checkout with an Idempotency-Key places one order (${backend})`, async (t) => {
    const storage = await createStorage(t, { backend })
    const app = await build(t, { storage, seed: false, sweep: false })

    t.test('retried: the same order, once', async (t) => {
      const shopper = await shopperWithCart(app)
      const before = await orderCount(storage)
      const key = newKey()
      const placed = await placeOrder(app, shopper, key)
      t.equal(placed.statusCode, 200, 'placed', { body: placed.body })
      expectReplay(t, placed, await placeOrder(app, shopper, key), 'checkout')
      t.equal(await orderCount(storage), before + 1, 'one order')
      expectRestError(t, await placeOrder(app, shopper, key, { ...ORDER, payment_method: 'bacs' }), 422, 'svc_idempotency_key_reused')
      const unkeyed = await placeOrder(app, shopper, newKey())
      t.equal(unkeyed.json().code, 'woocommerce_rest_cart_empty', 'a new key finds the cart emptied by the order')
    })

    t.test('a repeat while the first still runs waits for it and gets its answer', async (t) => {
      const shopper = await shopperWithCart(app)
      const before = await orderCount(storage)
      let release!: () => void
      const gate = new Promise<void>((resolve) => { release = resolve })
      let entered!: () => void
      const inside = new Promise<void>((resolve) => { entered = resolve })
      const remove = app.shop.filters.add('woocommerce_store_api_checkout_order_processed', async (value) => {
        entered()
        await gate
        return value
      })
      t.teardown(remove)
      const key = newKey()
      const first = placeOrder(app, shopper, key)
      await inside
      const repeat = placeOrder(app, shopper, key)
      // The repeat is waiting (it has no answer yet) when the first is let go.
      const early = await Promise.race([repeat.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))])
      t.equal(early, 'waiting', 'the repeat waits while the first runs')
      release()
      const [placed, again] = await Promise.all([first, repeat])
      t.equal(placed.statusCode, 200)
      expectReplay(t, placed, again, 'the waiting repeat')
      t.equal(await orderCount(storage), before + 1, 'one order')
    })

    t.test('the key survives a restart: a new app over the same storage answers the kept order', async (t) => {
      const shopper = await shopperWithCart(app)
      const key = newKey()
      const first = await build(t, { storage, seed: false, sweep: false })
      const placed = await placeOrder(first, shopper, key)
      t.equal(placed.statusCode, 200)
      await first.close()
      const before = await orderCount(storage)
      const restarted = await build(t, { storage, seed: false, sweep: false })
      expectReplay(t, placed, await placeOrder(restarted, shopper, key), 'after the restart')
      t.equal(await orderCount(storage), before, 'no second order')
    })
  })
}

for (const backend of storageBackends()) {
  test(`a checkout retried with one key on two instances over one database places one order (${backend.name})`, { skip: backend.skip }, async (t) => {
    const { apps, storage } = await twoInstances(t, backend)
    const [one, two] = apps
    const before = await orderCount(storage)

    const shopper = await shopperWithCart(one)
    const key = newKey()
    const placed = await placeOrder(one, shopper, key)
    t.equal(placed.statusCode, 200, 'placed on the first instance', { body: placed.body })
    expectReplay(t, placed, await placeOrder(two, shopper, key), 'retried on the second')
    t.equal(await orderCount(storage), before + 1, 'one order')

    // Both at once: whichever claims the key places the order, the other waits for its answer.
    const racer = await shopperWithCart(two)
    const raceKey = newKey()
    const answers = await Promise.all([placeOrder(one, racer, raceKey), placeOrder(two, racer, raceKey)])
    t.same(answers.map((answer) => answer.statusCode), [200, 200], 'both answered with the order')
    t.equal(answers[0]!.body, answers[1]!.body, 'the same order')
    t.equal(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true').length, 1, 'one of them a replay')
    t.equal(await orderCount(storage), before + 2, 'one order for the racing pair')
  })
}

const postgres = storageBackends().find((backend) => backend.name === 'postgres')!
test('a checkout key survives a restart of the app and of its database connections (postgres)', { skip: postgres.skip }, async (t) => {
  const url = process.env.DATABASE_URL!
  const schema = `svc_t_${randomUUID().replace(/-/g, '').slice(0, 12)}`
  t.teardown(async () => {
    const admin = createPostgresClient({ connectionString: url })
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.close()
  })
  const open = () => createPostgresStorage({ connectionString: url, searchPath: schema })

  const before = await open()
  const app = await build(t, { storage: before, sweep: false })
  const shopper = await shopperWithCart(app)
  const key = newKey()
  const placed = await placeOrder(app, shopper, key)
  t.equal(placed.statusCode, 200, { body: placed.body })
  await app.close()
  await before.close()

  const after = await open()
  t.teardown(() => after.close())
  const restarted = await build(t, { storage: after, seed: false, sweep: false })
  expectReplay(t, placed, await placeOrder(restarted, shopper, key), 'after the restart')
  t.equal(await orderCount(after), 1, 'one order')
})
