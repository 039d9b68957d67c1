/**
 * `tsx bench/cpu-per-write.ts`: the app's own CPU time per cart write (process.cpuUsage over `inject`ed requests),
 * beside `bench/cpu-per-request.ts`, which measures the reads. Two writes, as `npm run bench` sends them:
 * `POST svc/v1/cart/remove-items` removing the one line of a cart of its own (cold: written straight into the database,
 * as the bench's SQL-seeded pool; warm, with a view cache: written through it, so the write finds its cart there), and
 * `POST /?wc-ajax=add_to_cart` without a cookie (a new cart each time). PGlite in memory by default; with
 * `DATABASE_URL` PostgreSQL (a throw-away schema), with `REDIS_URL` the Redis rate counter and the cart view cache
 * (`VIEW_CACHE=off`: without it). `N` requests each (default 2000), 20 at a time, after every case has run `N` times
 * unmeasured. The figure includes the driver's work in this process; where `/proc` shows the local PostgreSQL and
 * Redis servers, their CPU per request is printed beside it (`server-cpu.ts`). With `DATABASE_URL`,
 * the bench's write floor is measured the same way after the app: a bare Fastify route running bare+tx's transaction
 * (`floor-tx.ts`), so the app's and the floor's CPU per write are compared within one run.
 * `PROFILE=<dir>` also writes a CPU profile of each measured run (not of the set-up) to `<dir>/<case>.cpuprofile`.
 */
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify'
import { writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { createCartTokenSigner } from '../hosts/reference-shop/index.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createMemoryRateCounter, createPgliteStorage, createPostgresStorage, createRedisRateCounter, createRedisViewCache, withCartViewCache } from '../storage/index.ts'
import { DEFAULT_POOL_SIZE } from '../storage/postgres/index.ts'
import { openTransactionFloor } from './floor-tx.ts'
import { serverCpu } from './server-cpu.ts'

const schema = `svc_cpuw_${randomBytes(4).toString('hex')}`
const databaseUrl = process.env.DATABASE_URL
const redisUrl = process.env.REDIS_URL
const database = databaseUrl
  ? await createPostgresStorage({ connectionString: databaseUrl, searchPath: schema })
  : await createPgliteStorage({ dataDir: 'memory://' })
// As `npm run bench` runs the app on Redis, guest carts' views are kept there (VIEW_CACHE=off leaves them out).
const storage = redisUrl && process.env.VIEW_CACHE !== 'off'
  ? withCartViewCache(database, createRedisViewCache({ url: redisUrl, keyPrefix: `svc:cpuw:${randomBytes(4).toString('hex')}:view:` }))
  : database
const rateCounter = redisUrl
  ? createRedisRateCounter({ url: redisUrl, keyPrefix: `svc:cpuw:${randomBytes(4).toString('hex')}:` })
  : createMemoryRateCounter()
await seedDemoShop(storage, DEFAULT_SITE_URL)
const secret = randomBytes(32).toString('base64url')
const app = await buildApp({ storage, rateCounter, secrets: [secret], siteUrl: DEFAULT_SITE_URL, shop: demoShopConfig, logger: false, rateLimitMultiplier: 1e6 })
const n = Number(process.env.N ?? 2000)
const batch = 20
const warmup = 200

type Request = InjectOptions

type Case = readonly [name: string, requests: (count: number) => Promise<Request[]>]

async function send (name: string, list: Request[], target: FastifyInstance): Promise<void> {
  for (let i = 0; i < list.length; i += batch) {
    const answers = await Promise.all(list.slice(i, i + batch).map((request) => target.inject(request)))
    const failed = answers.find((answer) => answer.statusCode !== 200)
    if (failed !== undefined) throw new Error(`${name}: ${failed.statusCode} ${failed.body.slice(0, 200)}`)
  }
}

/**
 * Every case run `n` times before any is measured: the first case measured would otherwise pay for the compiling of
 * the code all of them share (V8's compiler threads count in `process.cpuUsage`).
 */
async function warmUp (cases: readonly Case[]): Promise<void> {
  for (const [name, requests] of cases) await send(name, await requests(n), app)
}

async function measure (name: string, requests: (count: number) => Promise<Request[]>, target: FastifyInstance = app): Promise<void> {
  const run = (list: Request[]): Promise<void> => send(name, list, target)
  await run(await requests(warmup))
  const list = await requests(n)
  // The servers' CPU is read outside the profiled window: the scan of /proc is not the app's work.
  const serversBefore = serverCpu()
  const profiler = process.env.PROFILE === undefined ? null : new Session()
  if (profiler !== null) {
    profiler.connect()
    await profiler.post('Profiler.enable')
    await profiler.post('Profiler.start')
  }
  const before = process.cpuUsage()
  const started = performance.now()
  await run(list)
  const used = process.cpuUsage(before)
  if (profiler !== null) {
    const { profile } = await profiler.post('Profiler.stop')
    await writeFile(`${process.env.PROFILE}/${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile))
    profiler.disconnect()
  }
  const serversAfter = serverCpu()
  const cpu = (used.user + used.system) / 1000 / n
  const perRequest = (from: number, to: number): string => ((to - from) / n).toFixed(3)
  const shares = serversBefore === null || serversAfter === null
    ? ''
    : `; PostgreSQL ${perRequest(serversBefore.postgresMs, serversAfter.postgresMs)} ms, Redis ${perRequest(serversBefore.redisMs, serversAfter.redisMs)} ms of their CPU/request`
  console.log(`${name.padEnd(26)} ${cpu.toFixed(3)} ms CPU/request, ${((performance.now() - started) / n).toFixed(3)} ms wall/request${shares}`)
}

try {
  // The model cart: one line of product 101, as the bench's pool.
  const first = await app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart' })
  const added = await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers: { 'cart-token': first.headers['cart-token'] as string }, payload: { id: 101, quantity: 1 } })
  const lineKey = (added.json() as { items: Array<{ key: string }> }).items[0]!.key
  const model = await storage.getCart((JSON.parse(Buffer.from((added.headers['cart-token'] as string).split('.')[1]!, 'base64url').toString()) as { user_id: string }).user_id)
  const signer = createCartTokenSigner({ secrets: [secret] })
  let seeded = 0
  // Cold: the carts written straight into the database, as the bench's SQL-seeded pool (the write reads its cart
  // from PostgreSQL). Warm, with a view cache: written through it, as a cart whose last write was the app's (the
  // write reads nothing from PostgreSQL before its one statement).
  const removeItems = (through: typeof storage) => async (count: number) => {
    const tokens: string[] = []
    for (let i = 0; i < count; i++) {
      const key = `t_${(seeded++).toString(16).padStart(30, '0')}`
      // Through the storage, not SQL: the memory backend is measured too. One write each, version 1 and no snapshot.
      await through.updateCart(key, () => ({ data: model!.data, result: null }))
      tokens.push(signer.sign(key))
    }
    return tokens.map((token) => ({ method: 'POST' as const, url: '/wp-json/svc/v1/cart/remove-items', headers: { 'cart-token': token, 'content-type': 'application/json' }, payload: { keys: [lineKey] } }))
  }
  const cases: Case[] = [
    ['remove-items (cold)', removeItems(database)],
    ...(storage === database ? [] : [['remove-items (warm)', removeItems(storage)] as const]),
    ['wc-ajax add_to_cart (new)', async (count) => Array.from({ length: count }, () => ({
      method: 'POST' as const, url: '/?wc-ajax=add_to_cart', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'product_id=101&quantity=1'
    }))]
  ]
  await warmUp(cases)
  for (const [name, requests] of cases) await measure(name, requests)
  if (databaseUrl) {
    // The floor sends what the app answered to a remove-items, as the bench's bare+tx does.
    const key = `t_${(seeded++).toString(16).padStart(30, '0')}`
    await storage.updateCart(key, () => ({ data: model!.data, result: null }))
    const answer = await app.inject({ method: 'POST', url: '/wp-json/svc/v1/cart/remove-items', headers: { 'cart-token': signer.sign(key), 'content-type': 'application/json' }, payload: { keys: [lineKey] } })
    const floor = await openTransactionFloor({ connectionString: databaseUrl, schema, poolSize: DEFAULT_POOL_SIZE, transactionCarts: warmup + n })
    const bare = Fastify()
    try {
      bare.post('/floor', floor.handler({
        name: 'floor', method: 'POST', path: '/floor', statusCode: answer.statusCode, contentType: String(answer.headers['content-type']), body: answer.body
      }))
      await measure('bare+tx floor', async (count) => Array.from({ length: count }, () => ({ method: 'POST', url: '/floor' })), bare)
    } finally {
      await bare.close()
      await floor.close()
    }
  }
} finally {
  await app.close()
  await storage.close().catch(() => {})
  await rateCounter.close()
  if (databaseUrl) {
    const { createPostgresClient } = await import('../storage/postgres/index.ts')
    const admin = createPostgresClient({ connectionString: databaseUrl })
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`)
    await admin.close()
  }
}
