/**
 * `npm run test:chaos`: two app processes (`tsx server.ts`) on PostgreSQL and on a Redis of this run's own, under a
 * mixed load of shoppers (adds, quantity changes, checkouts), while faults follow one another: Redis killed and
 * started again empty, Redis frozen (SIGSTOP) and thawed, PostgreSQL restarted (when this machine's cluster can be
 * restarted: `pg_ctlcluster`), and one instance killed (SIGKILL) and started again. Every write carries an
 * `Idempotency-Key` and is sent again with it, to either instance, until it is answered, as the drawer's script does.
 *
 * Before the faults, a phase without any (the shoppers leave the stocked product alone until it ends, so no answer
 * is a refusal of the shop's): every answer then, read or write, is a 2xx.
 *
 * Afterwards: every shopper's cart is what its last answered write said (every acknowledged write stored, nothing
 * unacknowledged), each answered checkout is one order (none twice), no product's stock went below zero or lost
 * track of what was sold, and the writes during the Redis faults succeeded at the first attempt (at least 99 %).
 * `CHAOS_FAULT_SECONDS` (default 10) is each fault's length; the run prints its figures.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import tap, { test } from 'tap'
import { createPostgresClient } from '../../storage/postgres/index.ts'
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.ts'
import { waitFor } from '../helper.ts'

const STORE_API = '/wp-json/wc/store/v1'
const SECRET = randomBytes(32).toString('base64url')
const FAULT_MS = Number(process.env.CHAOS_FAULT_SECONDS ?? 10) * 1000
const SHOPPERS = 8
/** Sold with stock kept (25 in the demo catalog): checkouts must never take more than there is. */
const STOCKED = 107
const UNSTOCKED = [101, 102, 103, 104]
const PRODUCTS = [...UNSTOCKED, STOCKED]
const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Analytical Row', address_2: '', city: 'London', state: '', postcode: 'N1 9GU', country: 'GB', phone: '' }
tap.setTimeout(30 * 60_000)

function databaseUrl (): string {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === '') throw new Error('DATABASE_URL is not set: the chaos test needs PostgreSQL')
  return url
}

function inSchema (url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('options', `-c search_path=${schema}`)
  return parsed.toString()
}

/** A Redis of this run's own (so killing it disturbs nothing else), without persistence: a restart starts empty. */
class OwnRedis {
  process: ChildProcess | null = null
  constructor (readonly port: number) {}
  get url (): string { return `redis://127.0.0.1:${this.port}` }
  async start (): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
    await waitFor(() => {
      try {
        return execFileSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).trim() === 'PONG'
      } catch {
        return false
      }
    }, { timeoutMs: 10_000, what: 'redis-server answering' })
  }

  async kill (): Promise<void> {
    const child = this.process
    if (child === null || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }

  signal (name: 'SIGSTOP' | 'SIGCONT'): void { this.process?.kill(name) }
}

/** The command that restarts this machine's PostgreSQL cluster, or null where there is none to restart. */
function postgresRestart (): (() => void) | null {
  if (process.env.CHAOS_RESTART_POSTGRES === '0') return null
  try {
    const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' }).split('\n').find((row) => row.trim() !== '')
    if (line === undefined) return null
    const [version, name] = line.trim().split(/\s+/)
    return () => { execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version!, name!, 'restart', '-m', 'fast'], { stdio: 'ignore' }) }
  } catch {
    return null
  }
}

interface Answer { status: number, json: Record<string, any> | null, retryAfter?: number }

interface Window { name: string, start: number, end: number }

test('chaos: two instances under load through Redis, PostgreSQL and instance faults', async (t) => {
  const url = databaseUrl()
  const schema = `svc_c_${randomBytes(6).toString('hex')}`
  const admin = createPostgresClient({ connectionString: url })
  await admin.query(`CREATE SCHEMA "${schema}"`)
  t.teardown(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})
    await admin.close()
  })
  const redis = new OwnRedis(await freePort())
  await redis.start()
  t.teardown(async () => {
    redis.signal('SIGCONT')
    await redis.kill()
  })
  const env = { SVC_SECRET: SECRET, REDIS_URL: redis.url, SVC_TRUSTED_PROXY_CIDRS: '127.0.0.1/32', SVC_INSTANCES: '2', DATABASE_URL: inSchema(url, schema) }
  const servers: Array<ServerProcess | null> = [await startServerProcess(env), null]
  servers[1] = await startServerProcess(env)
  t.teardown(async () => { await Promise.all(servers.map((server) => server?.stop())) })

  /** One request to an instance; a network error (the instance gone) answers status 0. */
  async function call (server: ServerProcess | null, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const sentAt = Date.now()
    const answer = await send(server, method, path, headers, body)
    countCalm(sentAt, method, path, answer)
    return answer
  }

  async function send (server: ServerProcess | null, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    if (server === null) return { status: 0, json: null }
    try {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000)
      })
      const text = await response.text()
      let json: Record<string, any> | null = null
      try { json = JSON.parse(text) as Record<string, any> } catch {}
      const retryAfter = Number(response.headers.get('retry-after'))
      return { status: response.status, json, ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}) }
    } catch {
      return { status: 0, json: null }
    }
  }

  const windows: Window[] = []
  const run = { going: true, stoppedAt: 0 }
  const stats = { writes: 0, firstTry: 0, retried: 0, checkouts: 0, refused: 0, limited: 0, unanswered: [] as string[] }
  const duringRedisFaults = { writes: 0, firstTry: 0, failures: new Map<string, number>() }
  const inRedisFault = (at: number) => windows.some((w) => w.name.startsWith('redis') && at >= w.start && at <= w.end)
  /** The phase without faults: every answer sent in it, by status and code. */
  const calm = { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY, answers: 0, reads: 0, statuses: new Map<string, number>() }
  const inCalm = (at: number) => at >= calm.start && at <= calm.end
  function countCalm (sentAt: number, method: string, path: string, answer: Answer): void {
    if (!inCalm(sentAt)) return
    calm.answers++
    if (method === 'GET') calm.reads++
    if (answer.status >= 200 && answer.status < 300) return
    const what = `${method} ${path.replace(STORE_API, '')} ${answer.status} ${String(answer.json?.code ?? '')}`
    calm.statuses.set(what, (calm.statuses.get(what) ?? 0) + 1)
  }

  /** A write sent with one Idempotency-Key to either instance until it is answered (2xx or 4xx). */
  async function write (ip: string, token: string, path: string, body: unknown): Promise<Answer> {
    const key = randomUUID()
    const sentAt = Date.now()
    // Answered at the first attempt, if only by a rate limit's 429: the outage did not fail it.
    let firstAnswered = false
    for (let attempt = 0; ; attempt++) {
      const server = servers[Math.floor(Math.random() * 2)] ?? servers.find((s) => s !== null) ?? null
      const answer = await call(server, 'POST', `${STORE_API}/${path}`, { 'cart-token': token, 'idempotency-key': key, 'x-forwarded-for': ip }, body)
      // A 429 is a limit at work (counted per instance while Redis is away), not an outage: sent again like a 503.
      if (attempt === 0 && inRedisFault(sentAt) && !(answer.status >= 200 && answer.status < 500)) {
        const what = `${path} ${answer.status} ${String(answer.json?.code ?? '')}`
        duringRedisFaults.failures.set(what, (duringRedisFaults.failures.get(what) ?? 0) + 1)
      }
      if (attempt === 0 && answer.status === 429) {
        stats.limited++
        firstAnswered = true
      }
      if (answer.status >= 200 && answer.status < 500 && answer.status !== 429) {
        stats.writes++
        if (attempt === 0) stats.firstTry++
        else stats.retried++
        if (inRedisFault(sentAt)) {
          duringRedisFaults.writes++
          if (attempt === 0 || firstAnswered) duringRedisFaults.firstTry++
        }
        return answer
      }
      if (!run.going && Date.now() > run.stoppedAt + 120_000) {
        stats.unanswered.push(`${path}: ${answer.status} ${String(answer.json?.code ?? '')}`)
        return answer
      }
      // A limit's 429 is waited out as its Retry-After says; anything else is sent again soon.
      await sleep(answer.status === 429 ? 1000 * (answer.retryAfter ?? 5) : Math.min(2000, 100 * 2 ** Math.min(attempt, 4)))
    }
  }

  interface Shopper { ip: string, token: string, expected: Map<number, number>, orders: number[] }

  async function newToken (ip: string): Promise<string> {
    const answer = await waitFor(async () => {
      for (const server of servers) {
        if (server === null) continue
        const response = await fetch(`${server.url}${STORE_API}/cart`, { headers: { 'x-forwarded-for': ip } }).catch(() => null)
        const token = response?.headers.get('cart-token')
        if (response?.status === 200 && token) return token
      }
      return null
    }, { timeoutMs: 60_000, what: 'a Cart-Token' })
    return answer
  }

  const itemsOf = (json: Record<string, any> | null): Map<number, number> =>
    new Map(((json?.items ?? []) as Array<{ id: number, quantity: number }>).map((item) => [item.id, item.quantity]))

  async function shop (index: number): Promise<Shopper> {
    // Each cart is a visitor of its own (a new client address after each order), as a shop's limits expect.
    const address = (round: number) => `198.51.${100 + (round % 150)}.${10 + index}`
    let round = 0
    const shopper: Shopper = { ip: address(round), token: await newToken(address(round)), expected: new Map(), orders: [] }
    let step = 0
    while (run.going) {
      step++
      const products = Date.now() <= calm.end ? UNSTOCKED : PRODUCTS
      const id = products[(index + step) % products.length]!
      let answer: Answer
      if (step % 20 === 0 && shopper.expected.size > 0) {
        answer = await write(shopper.ip, shopper.token, 'checkout', { billing_address: { ...ADDRESS, email: `shopper${index}@example.com` }, payment_method: 'cod' })
        if (answer.status === 200 && typeof answer.json?.order_id === 'number') {
          stats.checkouts++
          shopper.orders.push(answer.json.order_id as number)
          shopper.expected = new Map()
          // A placed order empties the cart; the next visitor starts a new one.
          shopper.ip = address(++round)
          shopper.token = await newToken(shopper.ip)
          continue
        }
      } else if (step % 3 === 0 && shopper.expected.has(id)) {
        const item = ((await call(servers[0] ?? servers[1] ?? null, 'GET', `${STORE_API}/cart`, { 'cart-token': shopper.token, 'x-forwarded-for': shopper.ip })).json?.items ?? [])
          .find((line: { id: number }) => line.id === id) as { key: string } | undefined
        if (item === undefined) continue
        answer = await write(shopper.ip, shopper.token, 'cart/update-item', { key: item.key, quantity: 1 + (step % 3) })
      } else {
        answer = await write(shopper.ip, shopper.token, 'cart/add-item', { id, quantity: 1 })
      }
      if (answer.status >= 400) { stats.refused++; continue }
      if (answer.json?.items !== undefined) shopper.expected = itemsOf(answer.json)
    }
    return shopper
  }

  const load = Array.from({ length: SHOPPERS }, (_, index) => shop(index))
  const fault = async (name: string, begin: () => Promise<void> | void, end: () => Promise<void> | void) => {
    await sleep(FAULT_MS / 2)
    const window: Window = { name, start: Date.now(), end: Number.POSITIVE_INFINITY }
    windows.push(window)
    t.comment(`${name}: begins`)
    await begin()
    await sleep(FAULT_MS)
    await end()
    window.end = Date.now()
    t.comment(`${name}: over`)
  }

  // A phase without faults first: two instances, mixed reads and writes.
  await sleep(2000)
  calm.start = Date.now()
  t.comment('no fault: begins')
  await sleep(FAULT_MS)
  calm.end = Date.now()
  t.comment('no fault: over')
  await fault('redis killed', () => redis.kill(), () => redis.start())
  await fault('redis frozen', () => redis.signal('SIGSTOP'), () => redis.signal('SIGCONT'))
  const restartPostgres = postgresRestart()
  if (restartPostgres !== null) await fault('postgres restarted', () => restartPostgres(), () => {})
  await fault('instance killed', async () => {
    const killed = servers[1]!
    servers[1] = null
    killed.child.kill('SIGKILL')
    await killed.exited
  }, async () => { servers[1] = await startServerProcess(env) })
  await sleep(FAULT_MS / 2)
  run.going = false
  run.stoppedAt = Date.now()
  t.comment('load stopping')
  const shoppers = await Promise.all(load)

  t.same(stats.unanswered, [], 'every write was answered in the end (sent again with its key until it was)')
  // Every shopper's cart is what its last answered write said.
  const mismatched: string[] = []
  for (const shopper of shoppers) {
    const stored = await waitFor(async () => {
      const answer = await call(servers[0] ?? null, 'GET', `${STORE_API}/cart`, { 'cart-token': shopper.token, 'x-forwarded-for': shopper.ip })
      return answer.status === 200 ? itemsOf(answer.json) : null
    }, { timeoutMs: 30_000, what: 'the cart read' })
    if (JSON.stringify([...stored].sort()) !== JSON.stringify([...shopper.expected].sort())) {
      mismatched.push(`${shopper.ip}: stored ${JSON.stringify([...stored])}, answered ${JSON.stringify([...shopper.expected])}`)
    }
  }
  t.same(mismatched, [], `each of the ${SHOPPERS} carts is what its last answered write said`)

  // Each answered checkout is one order, and no order was placed that was not answered.
  const answered = shoppers.flatMap((shopper) => shopper.orders).sort((a, b) => a - b)
  const { rows: orders } = await admin.query<{ id: number }>(`SELECT id FROM "${schema}".svc_orders ORDER BY id`)
  t.same(orders.map((row) => row.id), answered, `${answered.length} answered checkouts, ${orders.length} orders stored: the same ones`)

  // Stock: never below zero, and what is left is what was there less what the orders took.
  const { rows: [stock] } = await admin.query<{ left: number }>(`SELECT (data->>'stockQuantity')::int AS left FROM "${schema}".svc_products WHERE id = $1`, [STOCKED])
  const { rows: [sold] } = await admin.query<{ units: number }>(
    `SELECT coalesce(sum((line->>'quantity')::int), 0)::int AS units FROM "${schema}".svc_orders, jsonb_array_elements(data->'lines') AS line WHERE (line->>'productId')::int = $1`, [STOCKED])
  t.ok(stock!.left >= 0, `the stocked product's stock did not go below zero (${stock!.left})`)
  t.equal(stock!.left + sold!.units, 25, `what is left (${stock!.left}) and what the orders took (${sold!.units}) make the 25 there were`)

  t.ok(calm.answers > 0 && calm.reads > 0, `requests were answered in the phase without faults (${calm.answers}, of which ${calm.reads} reads)`)
  t.same([...calm.statuses], [], `without faults every answer of the ${calm.answers} was a 2xx`)

  const share = duringRedisFaults.writes === 0 ? 1 : duringRedisFaults.firstTry / duringRedisFaults.writes
  t.ok(duringRedisFaults.writes > 0, `writes were made during the Redis faults (${duringRedisFaults.writes})`)
  t.ok(share >= 0.99, `${(share * 100).toFixed(1)} % of the writes made during the Redis faults were answered at the first attempt (no 5xx, no lost connection)`)
  t.comment(`faults of ${FAULT_MS / 1000} s: ${windows.map((w) => w.name).join(', ')}; writes answered ${stats.writes} (${stats.firstTry} at the first attempt, ${stats.retried} after retries), refused ${stats.refused}, limited (429, then sent again) ${stats.limited}, orders ${stats.checkouts}; during the Redis faults ${duringRedisFaults.firstTry} of ${duringRedisFaults.writes} at the first attempt (the others: ${JSON.stringify([...duringRedisFaults.failures])})`)
})
