/**
 * Two app processes (`tsx server.ts`, as `npm start` runs it) on one PostgreSQL and one Redis, as behind a load
 * balancer: a rate limit is shared, a settings change made on one is seen by the other within a second, a cart
 * written on one is read on the other; and a process told to stop (SIGTERM) finishes the requests in flight first.
 * Run by `npm run test:instances` (and by .ci/run); it needs DATABASE_URL and REDIS_URL.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import tap, { test } from 'tap'
import { createPostgresClient } from '../../storage/postgres/index.ts'
import { serviceUrl } from '../helpers/services.ts'
import { report } from '../helpers/reliability-report.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts'
import { startProxyFor } from '../helpers/tcp-proxy.ts'
import { waitFor } from '../helper.ts'

const STORE_API = '/wp-json/wc/store/v1'
const SVC = '/wp-json/svc/v1'
const SECRET = randomBytes(32).toString('base64url')
const ADMIN = { email: 'admin@shop.test', password: 'admin-demo-password' }
// Run directly (not by the tap runner), the whole file would otherwise have tap's default 30 s.
tap.setTimeout(300_000)

function databaseUrl (): string {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === '') throw new Error('DATABASE_URL is not set: the two-instance test needs PostgreSQL')
  return url
}

/** The URL with `search_path` set to `schema`, so the processes work in a schema of their own. */
function inSchema (url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
}

test('two instances on one PostgreSQL and one Redis', { timeout: 240_000 }, async (t) => {
  const url = databaseUrl()
  const redisUrl = serviceUrl('REDIS_URL')
  const schema = `svc_i_${randomBytes(6).toString('hex')}`
  const admin = createPostgresClient({ connectionString: url })
  await admin.query(`CREATE SCHEMA "${schema}"`)
  t.teardown(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.close()
  })
  // Instance B reaches PostgreSQL through a proxy, so that the shutdown test can hold its queries.
  const proxy = await startProxyFor(url)
  t.teardown(() => proxy.close())
  const env = { SVC_SECRET: SECRET, REDIS_URL: redisUrl, SVC_TRUSTED_PROXY_CIDRS: '127.0.0.1/32' }
  // One after the other: the first migrates and seeds, the second finds the shop ready (both would be fine too).
  const a = await startServerProcess({ ...env, DATABASE_URL: inSchema(url, schema) })
  const b = await startServerProcess({ ...env, DATABASE_URL: inSchema(proxy.urlFor(url), schema) })
  const running = [a, b]
  t.teardown(async () => { await Promise.all(running.map((server) => server.stop())) })
  // Every run is a client of its own (through the trusted proxy), so counters left by an earlier run do not count.
  const clientIp = `198.51.100.${1 + Math.floor(Math.random() * 250)}`
  const visitor = { 'x-forwarded-for': clientIp }

  async function call (server: ServerProcess, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...visitor, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const text = await response.text()
    let json: unknown = null
    try { json = JSON.parse(text) } catch {}
    return { status: response.status, headers: response.headers, json: json as Record<string, any>, text }
  }

  const cart = await call(a, 'GET', `${STORE_API}/cart`)
  const token = cart.headers.get('cart-token')!
  t.ok(token, 'a Cart-Token from instance A')

  await t.test('a cart written on one instance is read on the other', async (t) => {
    const added = await call(a, 'POST', `${STORE_API}/cart/add-item`, { 'cart-token': token }, { id: 101, quantity: 2 })
    t.equal(added.status, 201, 'added on A')
    const onB = await call(b, 'GET', `${SVC}/cart`, { 'cart-token': token })
    t.equal(onB.status, 200, 'read on B')
    t.same(onB.json.cartItems?.map((item: { product_id: number, quantity: number }) => [item.product_id, item.quantity]), [[101, 2]], 'B sees the line A wrote')
    const more = await call(b, 'POST', `${STORE_API}/cart/update-item`, { 'cart-token': token }, { key: onB.json.cartItems[0].key, quantity: 5 })
    t.equal(more.status, 200, 'updated on B')
    const onA = await call(a, 'GET', `${STORE_API}/cart`, { 'cart-token': token })
    t.same(onA.json.items.map((item: { quantity: number }) => item.quantity), [5], 'A sees B\'s change')
  })

  // The reads a drawer makes, and the lines each answers (the drawer's shape or the Store API's).
  const reads = [`${SVC}/cart`, `${STORE_API}/cart`, `${SVC}/drawer-data`]
  const itemsOf = (response: { json: Record<string, any> }, path: string): Array<Record<string, unknown>> => path.endsWith('drawer-data')
    ? response.json.cart.cartItems
    : path.startsWith(SVC) ? response.json.cartItems : response.json.items

  await t.test('1,000 writes, each through one instance and read at once through the other: never a stale cart', async (t) => {
    // The reads a drawer makes (its cart, the Store API cart, the drawer data), each twice: the first may compute and
    // keep the view, the second is answered from the kept one without a database round trip.
    const quantities = (response: { json: Record<string, any> }, path: string): number[] =>
      itemsOf(response, path).map((item) => item.quantity as number)
    const first = await call(a, 'GET', `${STORE_API}/cart`, { 'cart-token': token })
    const itemKey = first.json.items[0].key as string
    const stale: string[] = []
    let readsMade = 0
    for (let i = 0; i < 1000; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a]
      const quantity = 1 + (i % 4)
      const written = await call(writer, 'POST', `${STORE_API}/cart/update-item`, { 'cart-token': token }, { key: itemKey, quantity })
      if (written.status !== 200) { stale.push(`write ${i}: ${written.status} ${written.text.slice(0, 200)}`); break }
      for (const path of reads) {
        for (let n = 0; n < 2; n++) {
          const read = await call(reader, 'GET', path, { 'cart-token': token })
          readsMade++
          const seen = read.status === 200 ? quantities(read, path) : []
          if (seen.length !== 1 || seen[0] !== quantity) stale.push(`write ${i} of ${quantity}, read ${n + 1} of ${path}: ${read.status} ${JSON.stringify(seen)}`)
        }
      }
    }
    t.same(stale.slice(0, 5), [], `${readsMade} reads after 1,000 writes saw every write (${stale.length} did not)`)
    t.equal(readsMade, 6000)
  })

  await t.test('300 removals without a read (the drawer\'s remove-items), each read at once through the other instance', async (t) => {
    // Each round adds a line through one instance (the Store API) and removes it through the other, whose removal
    // reads nothing first: its version is known only after its statement, and no instance may answer a view from before.
    const linesOf = (response: { json: Record<string, any> }, path: string): number[] =>
      itemsOf(response, path).map((item) => (item.product_id ?? item.id) as number)
    const stale: string[] = []
    let readsMade = 0
    for (let i = 0; i < 300 && stale.length === 0; i++) {
      const [adder, remover] = i % 2 === 0 ? [a, b] : [b, a]
      // A visitor and a cart of their own per round: the routes' rate limits (per client and per cart) stay far away.
      const client = { 'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(i / 250)}.${1 + (i % 250)}` }
      const own = { ...client, 'cart-token': (await call(adder, 'GET', `${STORE_API}/cart`, client)).headers.get('cart-token')! }
      const added = await call(adder, 'POST', `${STORE_API}/cart/add-item`, own, { id: 103, quantity: 1 })
      if (added.status !== 201) { stale.push(`add ${i}: ${added.status} ${added.text.slice(0, 200)}`); break }
      for (const path of reads) {
        const read = await call(remover, 'GET', path, own)
        if (read.status !== 200 || !linesOf(read, path).includes(103)) stale.push(`add ${i}, read of ${path} on the other: ${read.status}`)
      }
      const key = (added.json.items as Array<{ id: number, key: string }>).find((item) => item.id === 103)!.key
      const removed = await call(remover, 'POST', `${SVC}/cart/remove-items`, own, { keys: [key] })
      if (removed.status !== 200) { stale.push(`remove ${i}: ${removed.status} ${removed.text.slice(0, 200)}`); break }
      for (const path of reads) {
        for (let n = 0; n < 2; n++) {
          const read = await call(adder, 'GET', path, own)
          readsMade++
          if (read.status !== 200 || linesOf(read, path).length !== 0) stale.push(`remove ${i}, read ${n + 1} of ${path}: ${read.status} ${JSON.stringify(linesOf(read, path))}`)
        }
      }
    }
    t.same(stale.slice(0, 5), [], `${readsMade} reads after 300 removals saw every removal (${stale.length} did not)`)
    t.equal(readsMade, 1800)
  })

  await t.test('a rate limit is shared: requests to both instances count against one window', async (t) => {
    // POST /coupon: 10 per minute per client IP and per visitor (specification §4.2).
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      const server = i % 2 === 0 ? a : b
      const response = await call(server, 'POST', `${SVC}/coupon`, { 'cart-token': token }, { code: `nope-${i}` })
      statuses.push(response.status)
      if (i === 9) t.equal(response.headers.get('x-ratelimit-remaining'), '0', 'the tenth request, on B, leaves nothing')
    }
    t.same(statuses.slice(10), [429, 429], 'the eleventh and twelfth are refused, whichever instance answers')
    t.ok(statuses.slice(0, 10).every((status) => status !== 429), 'the first ten went through')
  })

  await t.test('a settings change on one instance is seen by the other within a second', async (t) => {
    const login = await fetch(`${a.url}/account/login`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...visitor }, body: JSON.stringify(ADMIN)
    })
    t.equal(login.status, 200, 'the admin logs in on A')
    const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
    const { nonce } = await login.json() as { nonce: string }
    const asAdmin = { cookie, 'x-wp-nonce': nonce }
    const position = (await call(b, 'GET', `${SVC}/settings`, asAdmin)).json.settings.drawer_config.position as string
    const next = position === 'left' ? 'right' : 'left'
    const saved = await call(a, 'POST', `${SVC}/settings`, asAdmin, { settings: { drawer_config: { position: next } } })
    t.equal(saved.status, 200, 'saved on A')
    const savedAt = performance.now()
    let seenMs = Infinity
    await waitFor(async () => {
      const onB = await call(b, 'GET', `${STORE_API}/cart`, { 'cart-token': token })
      return onB.json.extensions?.svc?.drawer_config?.position === next
    }, { timeoutMs: 5000, what: "B's Store API cart showing the new drawer position" })
      .then(() => { seenMs = performance.now() - savedAt }, () => {})
    t.ok(seenMs <= 1000, `B's Store API cart shows the new drawer position ${seenMs.toFixed(0)} ms after A saved it`)
    const adminView = await call(b, 'GET', `${SVC}/settings`, asAdmin)
    t.equal(adminView.json.settings.drawer_config.position, next, 'and so do B\'s settings')
    report('two instances', { settingsSeenMs: Math.round(seenMs) })
  })

  await t.test('SIGTERM: requests in flight are finished, then the process exits 0', async (t) => {
    proxy.blackhole()
    // Requests that need the database, held while B's database connection delivers nothing (a product read: an
    // unchanged cart's read is answered from the views kept in Redis, without the database).
    const inFlight = Array.from({ length: 5 }, (_, i) =>
      call(b, 'GET', `${STORE_API}/products/${101 + i}`, { 'x-request': randomUUID(), 'x-n': String(i) }))
    // Fixed waits: the requests reaching B cannot be seen from here (the proxy holds them unread), and that B does
    // NOT exit early can only be seen over a window.
    await sleep(500)
    b.child.kill('SIGTERM')
    await sleep(300)
    t.equal(b.child.exitCode, null, 'B waits for its requests in flight')
    const refused = await fetch(`${b.url}/healthz`).then((response) => response.status, () => 'refused')
    t.ok(refused === 'refused' || refused === 503, `B takes no new requests while it drains (${refused})`)
    proxy.restore()
    const answers = await Promise.all(inFlight)
    const answeredAt = performance.now()
    t.same(answers.map((answer) => answer.status), [200, 200, 200, 200, 200], 'every request in flight was answered 200')
    t.equal(await b.exited, 0, 'then B exits 0')
    const exitMs = performance.now() - answeredAt
    t.ok(exitMs < 5000, `B exited ${exitMs.toFixed(0)} ms after its last answer (keep-alive connections closed, not waited out)`)
    report('graceful shutdown', { inFlight: answers.length, exitAfterLastAnswerMs: Math.round(exitMs) })
    running.splice(running.indexOf(b), 1)
    const stillA = await call(a, 'GET', `${SVC}/cart`, { 'cart-token': token })
    t.equal(stillA.status, 200, 'A keeps serving the cart')
  })
})
