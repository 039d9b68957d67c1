import { test, type Test } from 'tap'
import { Api } from '../../../drawer/client/api.ts'
import { ApiError } from '../../../drawer/client/errors.ts'
import type { DrawerPageConfig } from '../../../drawer/schemas/drawer-page-config.ts'

/**
 * The drawer's client (drawer/client/api.ts) runs on Node as in the browser (fetch, crypto, timers): every write it
 * sends carries a fresh Idempotency-Key, and a write that fails on the way or answers 503 is sent again with the same
 * key, twice at most, after a short wait; a read is sent once.
 */

const CONFIG = { restRoot: '/wp-json/', loggedIn: false, nonce: '', storeApi: 'host', nonceUrl: '/account/rest-nonce' } as unknown as DrawerPageConfig

interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: string | undefined
}

type Answer = Response | 'network'

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/**
 * `fetch` answering from `script` (the last answer repeats), recording every request; timers that fire at once,
 * recording their delays. Both put back when the test ends.
 */
function stubNetwork (t: Test, script: Answer[]): { sent: Sent[], waits: number[] } {
  const sent: Sent[] = []
  const waits: number[] = []
  const realFetch = globalThis.fetch
  const realSetTimeout = globalThis.setTimeout
  let next = 0
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) }, body: init.body as string | undefined })
    const answer = script[Math.min(next++, script.length - 1)]!
    if (answer === 'network') throw new TypeError('Failed to fetch')
    return answer.clone()
  }) as typeof fetch
  globalThis.setTimeout = ((callback: () => void, ms: number) => {
    waits.push(ms)
    return realSetTimeout(callback, 0)
  }) as typeof setTimeout
  t.teardown(() => {
    globalThis.fetch = realFetch
    globalThis.setTimeout = realSetTimeout
  })
  return { sent, waits }
}

const CART = json(200, { items_count: 0 }, { 'Cart-Token': 'token-1' })
const STATE = { cartItems: [], cartCount: 0 }

test('every write carries a fresh Idempotency-Key of 128 random bits; a read carries none', async (t) => {
  const { sent } = stubNetwork(t, [CART, json(200, STATE)])
  const api = new Api(CONFIG)
  await api.svc('POST', 'coupon', { code: 'save10' })
  await api.svc('POST', 'coupon', { code: 'save10' })
  await api.store('POST', 'cart/update-item', { key: 'a', quantity: 2 })
  await api.svc('GET', 'cart')
  const [read, first, second, store, get] = sent
  t.equal(read!.headers['Idempotency-Key'], undefined, 'the Cart-Token read has none')
  const keys = [first, second, store].map((request) => request!.headers['Idempotency-Key'])
  for (const key of keys) t.match(key, /^\d{1,10}(-\d{1,10}){3}$/, 'four random 32-bit numbers')
  t.equal(new Set(keys).size, 3, 'a new key for each write, the same request twice included')
  t.equal(store!.url, '/wp-json/wc/store/v1/cart/update-item', 'the Store API write has one too')
  t.equal(get!.headers['Idempotency-Key'], undefined, 'a GET has none')
})

test('a write that fails on the way is sent again with the same key', async (t) => {
  const { sent, waits } = stubNetwork(t, [CART, 'network', json(200, STATE)])
  const state = await new Api(CONFIG).svc('POST', 'cart/remove-items', { keys: ['a'] })
  t.same(state, STATE, 'the answer of the retry')
  const writes = sent.slice(1)
  t.equal(writes.length, 2)
  t.equal(writes[0]!.headers['Idempotency-Key'], writes[1]!.headers['Idempotency-Key'], 'the same key')
  t.equal(writes[0]!.body, writes[1]!.body, 'the same body')
  t.same(waits, [750], 'after a short wait')
})

test('a 503 is retried twice with the same key, waiting longer each time, then answered as the error', async (t) => {
  const unavailable = json(503, { code: 'svc_storage_unavailable', message: 'The shop is temporarily unavailable.', data: { status: 503 } }, { 'Retry-After': '1' })
  const { sent, waits } = stubNetwork(t, [CART, unavailable])
  const error = await new Api(CONFIG).svc('POST', 'coupon', { code: 'save10' }).catch((caught: unknown) => caught)
  t.ok(error instanceof ApiError)
  t.same([(error as ApiError).status, (error as ApiError).code], [503, 'svc_storage_unavailable'])
  const writes = sent.slice(1)
  t.equal(writes.length, 3, 'three attempts, no more')
  t.equal(new Set(writes.map((request) => request.headers['Idempotency-Key'])).size, 1, 'one key')
  t.same(waits, [750, 1500], 'bounded, with a growing wait')
})

test('a write still unreachable after its retries is a network error (status 0)', async (t) => {
  const { sent } = stubNetwork(t, [CART, 'network'])
  const error = await new Api(CONFIG).store('POST', 'cart/add-item', { id: 1, quantity: 1 }).catch((caught: unknown) => caught)
  t.same([(error as ApiError).status, (error as ApiError).code], [0, 'network'])
  t.equal(sent.length, 4, 'the read, then three attempts')
})

test('a refusal is not retried, nor is a read', async (t) => {
  const { sent, waits } = stubNetwork(t, [CART, json(409, { code: 'svc_coupon_already_applied', message: 'Already.', data: { status: 409 } })])
  const api = new Api(CONFIG)
  const refused = await api.svc('POST', 'coupon', { code: 'save10' }).catch((caught: unknown) => caught)
  t.equal((refused as ApiError).status, 409)
  t.equal(sent.length, 2, 'a 409 is an answer')
  const reads = stubNetwork(t, ['network'])
  const offline = await new Api(CONFIG).loadToken().catch((caught: unknown) => caught)
  t.equal((offline as ApiError).status, 0)
  t.equal(reads.sent.length, 1, 'a read that fails is not sent again')
  t.same([...waits, ...reads.waits], [])
})
