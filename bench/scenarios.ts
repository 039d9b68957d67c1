/**
 * What the bench measures. A scenario is one request against the app, with whatever state it needs made by
 * `prepare()` on the freshly seeded demo shop. Its baseline is derived from it: the app's answer to that exact
 * request, recorded once, is what a bare Fastify route sends back. A scenario the app answers with a cart's stored
 * snapshot (`answersStoredSnapshot`) gets a second baseline on PostgreSQL, bare+pg: a bare route that reads that
 * snapshot by primary key on every request; `floors` names the other floors it runs against where the run allows
 * (bare+redis for the drawer's reads, bare+tx for the writes; see `floors.ts`). Add a scenario to `scenarios` below.
 */
import { createHash, randomBytes } from 'node:crypto'
import { BENCH_PRODUCT_FIRST_ID } from './catalog.ts'
import type { FloorTarget } from './report-types.ts'
import { expectStatus, send, type BenchRequest, type ProbeResponse } from './http.ts'

export const STORE_API = '/wp-json/wc/store/v1'
export const SVC = '/wp-json/svc/v1'

/** Which app a scenario runs on: the app as configured, or the same app with the rate limiter off. */
export type AppTarget = 'app' | 'unlimited'

export interface PrepareContext {
  /** The scenario's app. */
  app: AppClient
  /** Runs a statement on the app's database (seeding). */
  sql: <Row = Record<string, unknown>>(statement: string, params?: unknown[]) => Promise<Row[]>
  /** A Cart-Token for a cart key, signed with the app's secret. */
  signCartToken: (cartKey: string) => string
  /** How many carts a write scenario seeds: one per request it will send. */
  writePool: number
}

export interface PreparedRequest extends Partial<Pick<BenchRequest, 'headers' | 'body'>> {
  /** The headers of request number `index` under load (a write takes a fresh cart each time; 0 is `headers`). */
  perRequestHeaders?: (index: number) => Record<string, string>
  /**
   * Run just before the scenario is measured, not with the others: what must be fresh then (carts written through the
   * app, whose copies in the view cache live ten minutes after their last write). Such a scenario is measured on its
   * own, after the others.
   */
  beforeMeasure?: () => Promise<void>
}

export interface Scenario extends BenchRequest {
  name: string
  description: string
  /** Default 'app'. */
  target?: AppTarget
  /** Makes the state the request needs; returns headers to add to it (a Cart-Token, say) or its body. */
  prepare: (context: PrepareContext) => Promise<PreparedRequest>
  /** Checks the app's recorded answer, so the bench measures the response it means to (throws if not). */
  check?: (response: ProbeResponse) => void
  /**
   * Whether every answer under load must equal the recorded one byte for byte (default true; a mismatch fails
   * the bench). False for a request whose answer changes from one call to the next, such as a write.
   */
  stableBody?: boolean
  /**
   * Whether the app's answer is the stored drawer snapshot of the request's cart (its Cart-Token's cart key), the
   * `snapshot` column of `svc_carts`, as it is. On PostgreSQL such a scenario is also measured against bare+pg.
   */
  answersStoredSnapshot?: boolean
  /**
   * More floors to measure it against: bare+redis (only when REDIS_URL is set) for a read, bare+tx (only on
   * PostgreSQL) for a write. bare+pg follows `answersStoredSnapshot` instead.
   */
  floors?: ReadonlyArray<Exclude<FloorTarget, 'bare+pg'>>
}

export interface AppClient {
  origin: string
  send: (request: BenchRequest) => Promise<ProbeResponse>
}

export function appClient (origin: string): AppClient {
  return { origin, send: (request) => send(origin, request) }
}

export interface CartLine {
  id: number
  quantity?: number
  variation?: Array<{ attribute: string, value: string }>
}

function cartToken (response: ProbeResponse, what: string): string {
  const token = response.headers.get('cart-token')
  if (token === null || token === '') throw new Error(`${what}: no Cart-Token header`)
  return token
}

/** The cart key inside a Cart-Token (its `user_id` claim). */
export function cartKeyOf (token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { user_id?: unknown }
  if (typeof payload.user_id !== 'string') throw new Error('a Cart-Token without a cart key')
  return payload.user_id
}

/** Makes a cart holding `lines` through the Store API, one add-item call per line; returns its Cart-Token. */
async function makeCart (app: AppClient, lines: readonly CartLine[]): Promise<string> {
  const empty = await app.send({ method: 'GET', path: `${STORE_API}/cart`, headers: {} })
  expectStatus(empty, 200, 'GET cart')
  let token = cartToken(empty, 'GET cart')
  for (const line of lines) {
    const added = await app.send({
      method: 'POST',
      path: `${STORE_API}/cart/add-item`,
      headers: { 'Cart-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: line.id, quantity: line.quantity ?? 1, ...(line.variation ? { variation: line.variation } : {}) })
    })
    expectStatus(added, 201, `add-item ${line.id}`)
    token = cartToken(added, `add-item ${line.id}`)
  }
  return token
}

const THREE_LINES: CartLine[] = [
  { id: 101 },
  { id: 105 },
  { id: 106, variation: [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }] }
]

function benchLines (count: number): CartLine[] {
  return Array.from({ length: count }, (_, index) => ({ id: BENCH_PRODUCT_FIRST_ID + index }))
}

function expectLines (name: string, count: number, items: (body: unknown) => unknown[] | undefined) {
  return (response: ProbeResponse): void => {
    // An invalid Cart-Token is answered with a new, empty cart: make sure this is the cart made above.
    const found = items(JSON.parse(response.body))
    if (found?.length !== count) throw new Error(`${name}: the cart has ${found?.length ?? 'no'} lines, expected ${count}`)
  }
}

/** `GET wc/store/v1/cart` (with `extensions.svc`) with the Cart-Token of a cart holding `lines`. */
export function storeCartScenario (name: string, lines: CartLine[], floors?: Scenario['floors']): Scenario {
  return {
    ...(floors === undefined ? {} : { floors }),
    name,
    description: `GET ${STORE_API}/cart with extensions.svc, ${lines.length}-line cart`,
    method: 'GET',
    path: `${STORE_API}/cart`,
    headers: {},
    async prepare ({ app }) {
      return { headers: { 'Cart-Token': await makeCart(app, lines) } }
    },
    check: expectLines(name, lines.length, (body) => (body as { items?: unknown[] }).items)
  }
}

/** `GET svc/v1/cart`: the drawer's cart state of a 3-line (guest) cart, answered from its stored snapshot. */
export function svcCartScenario (name = 'svc-cart-3-lines'): Scenario {
  return {
    name,
    description: `GET ${SVC}/cart, 3-line cart`,
    method: 'GET',
    path: `${SVC}/cart`,
    headers: {},
    async prepare ({ app }) {
      return { headers: { 'Cart-Token': await makeCart(app, THREE_LINES) } }
    },
    check: expectLines(name, THREE_LINES.length, (body) => (body as { cartItems?: unknown[] }).cartItems),
    // A guest cart's read sends the snapshot its last write (here the last add-item) stored.
    answersStoredSnapshot: true,
    floors: ['bare+redis']
  }
}

/**
 * `POST svc/v1/cart/remove-items`, rate limited (limits raised by the bench's `rateLimitMultiplier`): every request
 * removes the one line of a cart of its own, from a pool of carts seeded with one SQL statement, so every answer is
 * a 200 and every request is a real write (and a new visitor for the limiter).
 */
export function removeItemsScenario (name: string, target: AppTarget, warm = false): Scenario {
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
    async prepare ({ app, sql, signCartToken, writePool }) {
      const model = cartKeyOf(await makeCart(app, [{ id: 101 }]))
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
        ...(warm ? { beforeMeasure: () => writeThroughApp(app, tokens.slice(1)) } : {})
      }
    },
    check: expectLines(name, 0, (body) => (body as { cartItems?: unknown[] }).cartItems)
  }
}

/**
 * One write of each cart through the app (its line's quantity raised by one, the line kept), 50 at a time: the app's
 * view cache then holds each cart as that write left it, as it does for a shopper who added to the cart before.
 */
async function writeThroughApp (app: AppClient, tokens: readonly string[]): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < tokens.length) {
      const token = tokens[next++]!
      const added = await app.send({
        method: 'POST',
        path: `${STORE_API}/cart/add-item`,
        headers: { 'Cart-Token': token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 101, quantity: 1 })
      })
      expectStatus(added, 201, 'warming add-item 101')
    }
  }
  await Promise.all(Array.from({ length: 50 }, worker))
}

/** `?wc-ajax=add_to_cart` without a cookie: a first add, a new cart each time, answered with the fragments. */
export function wcAjaxAddToCartScenario (name: string): Scenario {
  return {
    name,
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
      if (typeof body.fragments?.['.svc-cart-json'] !== 'string') throw new Error(`${name}: no .svc-cart-json fragment`)
    }
  }
}

export function drawerDataScenario (name: string): Scenario {
  return {
    name,
    description: `GET ${SVC}/drawer-data (cart and recommendations), 3-line cart`,
    method: 'GET',
    path: `${SVC}/drawer-data`,
    headers: {},
    floors: ['bare+redis'],
    async prepare ({ app }) {
      return { headers: { 'Cart-Token': await makeCart(app, THREE_LINES) } }
    },
    check: expectLines(name, THREE_LINES.length, (body) => (body as { cart?: { cartItems?: unknown[] } }).cart?.cartItems)
  }
}

export const SVC_CART = 'svc-cart-3-lines'
export const REMOVE_ITEMS = 'remove-items'
export const REMOVE_ITEMS_LIMITER_OFF = 'remove-items-limiter-off'
export const REMOVE_ITEMS_WARM = 'remove-items-warm'

export const scenarios: Scenario[] = [
  svcCartScenario(SVC_CART),
  storeCartScenario('store-cart-1-line', benchLines(1)),
  // The cart of svc-cart-3-lines and drawer-data (a variation among its lines), so the three reads compare.
  storeCartScenario('store-cart-3-lines', THREE_LINES, ['bare+redis']),
  storeCartScenario('store-cart-20-lines', benchLines(20), ['bare+redis']),
  storeCartScenario('store-cart-100-lines', benchLines(100)),
  drawerDataScenario('drawer-data'),
  removeItemsScenario(REMOVE_ITEMS, 'app'),
  removeItemsScenario(REMOVE_ITEMS_LIMITER_OFF, 'unlimited'),
  removeItemsScenario(REMOVE_ITEMS_WARM, 'app', true),
  wcAjaxAddToCartScenario('wc-ajax-add-to-cart')
]
