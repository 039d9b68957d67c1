/**
 * What the bench measures. A scenario is one request against the app, with whatever state it needs made by
 * `prepare()` on the freshly seeded demo shop. Its baselines are derived from it: the app's answer to that exact
 * request, recorded once, is what bare and the floors send back (`floors.ts` picks the floors from `floors` and
 * `answersStoredSnapshot`). Add a scenario to `scenarios` at the end.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Product } from '../kernel/domain/types.ts'
import { product } from '../seed/demo-catalog.ts'
import type { FloorTarget } from './report-types.ts'
import { expectStatus, type BenchRequest, type ProbeResponse } from './http.ts'

const STORE_API = '/wp-json/wc/store/v1'
const SVC = '/wp-json/svc/v1'

/** The bench's own simple products beside the demo shop's, enough for the 100-line cart. */
const FIRST_BENCH_PRODUCT = 90_001

export function benchProducts (homeUrl: string): Product[] {
  return Array.from({ length: 100 }, (_, index) => product({
    id: FIRST_BENCH_PRODUCT + index,
    name: `Bench product ${index + 1}`,
    slug: `bench-product-${index + 1}`,
    sku: `BENCH-${FIRST_BENCH_PRODUCT + index}`,
    shortDescription: 'A product of the benchmark catalog.',
    regularPrice: 1000 + index * 10,
    salePrice: index % 3 === 0 ? 900 + index * 10 : null
  }, homeUrl.replace(/\/+$/, '')))
}

export type Sql = <Row = Record<string, unknown>>(statement: string, params?: unknown[]) => Promise<Row[]>
type Send = (request: BenchRequest) => Promise<ProbeResponse>

/**
 * What `prepare` gets: `send` to the scenario's app, `sql` on the app's database (seeding), Cart-Tokens signed with the
 * app's secret, and how many carts a write scenario seeds (`writePool`, one per request it will send).
 */
export interface PrepareContext { send: Send, sql: Sql, signCartToken: (cartKey: string) => string, writePool: number }

export interface PreparedRequest extends Partial<Pick<BenchRequest, 'headers' | 'body'>> {
  /** The headers of request number `index` under load (a write takes a fresh cart each time; 0 is `headers`). */
  perRequestHeaders?: (index: number) => Record<string, string>
  /**
   * Run just before the scenario is measured, on its own after the others: what must be fresh then (carts written
   * through the app, whose copies in the view cache live ten minutes after their last write).
   */
  beforeMeasure?: () => Promise<void>
}

/** Which app a scenario runs on: the app as configured, or the same app with the rate limiter off. */
export type AppTarget = 'app' | 'unlimited'

export interface Scenario extends BenchRequest {
  name: string
  description: string
  target?: AppTarget
  /** Makes the state the request needs; returns headers to add to it (a Cart-Token, say) or its body. */
  prepare: (context: PrepareContext) => Promise<PreparedRequest>
  /** Checks the app's recorded answer, so the bench measures the response it means to (throws if not). */
  check?: (response: ProbeResponse) => void
  /** Whether every answer under load must be the recorded one, byte for byte (default true; false for a write). */
  stableBody?: boolean
  /** The app answers the cart's stored snapshot (`svc_carts.snapshot`) as it is: on PostgreSQL, bare+pg too. */
  answersStoredSnapshot?: boolean
  /** More floors: bare+redis (with REDIS_URL) for a read, bare+tx (on PostgreSQL) for a write. */
  floors?: ReadonlyArray<Exclude<FloorTarget, 'bare+pg'>>
}

interface CartLine { id: number, variation?: Array<{ attribute: string, value: string }> }

/** The cart key inside a Cart-Token (its `user_id` claim). */
export function cartKeyOf (token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { user_id?: unknown }
  if (typeof payload.user_id !== 'string') throw new Error('a Cart-Token without a cart key')
  return payload.user_id
}

/** The Cart-Token an answer carries, after checking its status. */
function cartToken (response: ProbeResponse, status: number, what: string): string {
  expectStatus(response, status, what)
  const token = response.headers.get('cart-token')
  if (token === null || token === '') throw new Error(`${what}: no Cart-Token header`)
  return token
}

/** Adds one unit of `line` to the cart of `token` through the Store API; returns the cart's new Cart-Token. */
async function addItem (send: Send, token: string, line: CartLine): Promise<string> {
  return cartToken(await send({
    method: 'POST',
    path: `${STORE_API}/cart/add-item`,
    headers: { 'Cart-Token': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: line.id, quantity: 1, ...(line.variation ? { variation: line.variation } : {}) })
  }), 201, `add-item ${line.id}`)
}

/** Makes a cart holding `lines`, one add-item call per line after the GET that starts it; returns its Cart-Token. */
async function makeCart (send: Send, lines: readonly CartLine[]): Promise<string> {
  let token = cartToken(await send({ method: 'GET', path: `${STORE_API}/cart`, headers: {} }), 200, 'GET cart')
  for (const line of lines) token = await addItem(send, token, line)
  return token
}

/** The cart of svc-cart-3-lines, store-cart-3-lines and drawer-data (a variation among its lines), so the three compare. */
const THREE_LINES: CartLine[] = [
  { id: 101 },
  { id: 105 },
  { id: 106, variation: [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }] }
]
const benchLines = (count: number): CartLine[] => Array.from({ length: count }, (_, index) => ({ id: FIRST_BENCH_PRODUCT + index }))

/**
 * An invalid Cart-Token is answered with a new, empty cart: make sure the answer is the cart made for it, whose lines
 * are at `path` in the answer.
 */
function expectLines (name: string, count: number, path: string[]) {
  return (response: ProbeResponse): void => {
    const found = path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], JSON.parse(response.body)) as unknown[] | undefined
    if (found?.length !== count) throw new Error(`${name}: the cart has ${found?.length ?? 'no'} lines, expected ${count}`)
  }
}

/** A read of a cart holding `lines`: `GET path` with its Cart-Token. */
function cartRead (name: string, description: string, path: string, lines: CartLine[], items: string[], more: Partial<Scenario> = {}): Scenario {
  return {
    name,
    description,
    method: 'GET',
    path,
    headers: {},
    async prepare ({ send }) { return { headers: { 'Cart-Token': await makeCart(send, lines) } } },
    check: expectLines(name, lines.length, items),
    ...more
  }
}

const storeCart = (name: string, lines: CartLine[], floors?: Scenario['floors']): Scenario =>
  cartRead(name, `GET ${STORE_API}/cart with extensions.svc, ${lines.length}-line cart`, `${STORE_API}/cart`, lines,
    ['items'], floors === undefined ? {} : { floors })

/**
 * `POST svc/v1/cart/remove-items`: every request removes the one line of a cart of its own, from a pool of carts
 * seeded with one SQL statement, so every answer is a 200, every request a real write and a new visitor for the limiter.
 */
function removeItemsScenario (name: string, target: AppTarget, warm = false): Scenario {
  return {
    name,
    description: `POST ${SVC}/cart/remove-items, 1 line of a fresh cart each time, rate limiter ${target === 'app' ? 'on' : 'off'}` +
      (warm ? ', each cart last written through the app (an add of its line, just before the measurement)' : ''),
    target,
    method: 'POST',
    path: `${SVC}/cart/remove-items`,
    headers: { 'Content-Type': 'application/json' },
    stableBody: false,
    floors: ['bare+tx'],
    async prepare ({ send, sql, signCartToken, writePool }) {
      const model = cartKeyOf(await makeCart(send, [{ id: 101 }]))
      const [row] = await sql<{ data: { lines: Array<{ key: string }> } }>('SELECT data FROM svc_carts WHERE key = $1', [model])
      const lineKey = row?.data.lines[0]?.key
      if (lineKey === undefined) throw new Error(`${name}: the model cart has no line`)
      const salt = `${name}:${randomBytes(6).toString('hex')}:`
      // Keys as the platform makes them (`t_` and 30 hex digits), the same function on both sides.
      await sql(`INSERT INTO svc_carts (key, data, version)
        SELECT 't_' || substr(md5($1 || i::text), 1, 30), $2::jsonb, 1 FROM generate_series(1, $3::int) AS i`,
      [salt, JSON.stringify(row!.data), writePool + 1])
      const tokens = Array.from({ length: writePool + 1 }, (_, index) =>
        signCartToken(`t_${createHash('md5').update(`${salt}${index + 1}`).digest('hex').slice(0, 30)}`))
      return {
        headers: { 'Cart-Token': tokens[0]! },
        body: JSON.stringify({ keys: [lineKey] }),
        // Past the pool's end the carts are empty again: answers become 409 and the bench says so.
        perRequestHeaders: (index) => ({ 'Cart-Token': tokens[index % tokens.length]! }),
        ...(warm ? { beforeMeasure: () => writeThroughApp(send, tokens.slice(1)) } : {})
      }
    },
    check: expectLines(name, 0, ['cartItems'])
  }
}

/** One add of each cart's line through the app, 50 at a time: its view cache then holds the cart as a shopper's. */
async function writeThroughApp (send: Send, tokens: readonly string[]): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => { while (next < tokens.length) await addItem(send, tokens[next++]!, { id: 101 }) }
  await Promise.all(Array.from({ length: 50 }, worker))
}

export const scenarios: Scenario[] = [
  // A guest cart's read sends the snapshot its last write (here the last add-item) stored.
  cartRead('svc-cart-3-lines', `GET ${SVC}/cart, 3-line cart`, `${SVC}/cart`, THREE_LINES, ['cartItems'],
    { answersStoredSnapshot: true, floors: ['bare+redis'] }),
  storeCart('store-cart-1-line', benchLines(1)),
  storeCart('store-cart-3-lines', THREE_LINES, ['bare+redis']),
  storeCart('store-cart-20-lines', benchLines(20), ['bare+redis']),
  storeCart('store-cart-100-lines', benchLines(100)),
  cartRead('drawer-data', `GET ${SVC}/drawer-data (cart and recommendations), 3-line cart`, `${SVC}/drawer-data`, THREE_LINES,
    ['cart', 'cartItems'], { floors: ['bare+redis'] }),
  removeItemsScenario('remove-items', 'app'),
  removeItemsScenario('remove-items-limiter-off', 'unlimited'),
  removeItemsScenario('remove-items-warm', 'app', true),
  {
    name: 'wc-ajax-add-to-cart',
    description: 'POST /?wc-ajax=add_to_cart (a new cart each time), fragments with .svc-cart-json',
    method: 'POST',
    path: '/?wc-ajax=add_to_cart',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'product_id=101&quantity=1',
    stableBody: false,
    floors: ['bare+tx'],
    async prepare () { return {} },
    check (response) {
      const body = JSON.parse(response.body) as { fragments?: Record<string, string> }
      if (typeof body.fragments?.['.svc-cart-json'] !== 'string') throw new Error('wc-ajax-add-to-cart: no .svc-cart-json fragment')
    }
  }
]
