/**
 * `DATABASE_URL=… REDIS_URL=… npx tsx bench/write-round-trips.ts`: every PostgreSQL statement and Redis command of
 * one `POST svc/v1/cart/remove-items` (a one-line cart seeded by SQL, as the bench seeds its pool) and of one
 * `POST /?wc-ajax=add_to_cart` without a cookie (a new cart), in the order they were sent. A development aid beside
 * `npm run bench`: what a write costs in round trips, independent of the machine's load. As `npm run bench` runs the
 * app on Redis, the cart views are kept in Redis (`withCartViewCache`); `VIEW_CACHE=off` leaves them out.
 */
import { randomBytes } from 'node:crypto'
import type { InjectOptions } from 'fastify'
import { Redis } from 'ioredis'
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { createCartTokenSigner } from '../hosts/reference-shop/index.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createRedisRateCounter, createRedisViewCache, withCartViewCache } from '../storage/index.ts'
import { openPostgresClient } from '../storage/postgres/index.ts'
import type { SqlClient, SqlSession } from '../storage/index.ts'
import { migrateStorage } from '../storage/index.ts'
import { SqlStorage } from '../storage/index.ts'

const databaseUrl = process.env.DATABASE_URL
const redisUrl = process.env.REDIS_URL
if (!databaseUrl || !redisUrl) throw new Error('DATABASE_URL and REDIS_URL are both needed')

const log: string[] = []
let recording = false
const note = (line: string): void => { if (recording) log.push(line) }
const short = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 110)

/** The client with every statement noted; a transaction's BEGIN and COMMIT are round trips too. */
function traced (client: SqlClient): SqlClient {
  const session = (inner: SqlSession, depth: number): SqlSession => ({
    query: async (text, params, name) => {
      note(`pg   ${'  '.repeat(depth)}${name === undefined ? '' : `[${name}] `}${short(text)}`)
      return inner.query(text, params, name)
    },
    transaction: async (fn) => {
      note(`pg   ${'  '.repeat(depth)}BEGIN`)
      try {
        const result = await inner.transaction((tx) => fn(session(tx, depth + 1)))
        note(`pg   ${'  '.repeat(depth)}COMMIT`)
        return result
      } catch (error) {
        note(`pg   ${'  '.repeat(depth)}ROLLBACK`)
        throw error
      }
    }
  })
  return { ...session(client, 0), close: () => client.close() }
}

const schema = `svc_trace_${randomBytes(4).toString('hex')}`
const client = traced(await openPostgresClient({ connectionString: databaseUrl, searchPath: schema }))
await migrateStorage(client)
const sql = new SqlStorage('postgres', client)
const prefix = `svc:trace:${randomBytes(4).toString('hex')}:`
const views = process.env.VIEW_CACHE === 'off' ? null : createRedisViewCache({ url: redisUrl, keyPrefix: `${prefix}view:` })
const storage = views === null ? sql : withCartViewCache(sql, views)
const rateCounter = createRedisRateCounter({ url: redisUrl, keyPrefix: prefix })
const monitored = new Redis(redisUrl)
const monitor = await monitored.monitor()
monitor.on('monitor', (_time: string, args: string[]) => {
  if (args.some((arg) => arg.includes(prefix))) note(`redis ${args.map((arg) => arg.length > 40 ? `${arg.slice(0, 37)}…` : arg).join(' ')}`)
})
const secret = randomBytes(32).toString('base64url')
await seedDemoShop(storage, DEFAULT_SITE_URL)
const app = await buildApp({ storage, rateCounter, secrets: [secret], siteUrl: DEFAULT_SITE_URL, shop: demoShopConfig, logger: false, rateLimitMultiplier: 1e6 })

/** Runs one request with the log on; prints its status and what it sent. */
async function trace (name: string, request: InjectOptions): Promise<void> {
  log.length = 0
  recording = true
  const response = await app.inject(request)
  // MONITOR's lines arrive on their own connection, after the commands ran.
  await new Promise((resolve) => setTimeout(resolve, 200))
  recording = false
  const pg = log.filter((line) => line.startsWith('pg')).length
  const redis = log.filter((line) => line.startsWith('redis')).length
  console.log(`\n${name}: ${response.statusCode}, ${pg} PostgreSQL round trips, ${redis} Redis commands`)
  for (const line of log) console.log(`  ${line}`)
}

try {
  // A one-line cart stored by SQL (no snapshot), as the bench's pool of carts.
  const first = await app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart' })
  const added = await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers: { 'cart-token': first.headers['cart-token'] as string }, payload: { id: 101, quantity: 1 } })
  const model = (added.json() as { items: Array<{ key: string }> }).items[0]!.key
  const { rows } = await client.query<{ data: unknown }>('SELECT data FROM svc_carts ORDER BY touch_seq DESC LIMIT 1')
  const key = `t_${randomBytes(15).toString('hex')}`
  await client.query('INSERT INTO svc_carts (key, data, version) VALUES ($1, $2::jsonb, 1)', [key, JSON.stringify(rows[0]!.data)])
  const token = createCartTokenSigner({ secrets: [secret] }).sign(key)
  for (let round = 1; round <= 2; round++) {
    // The second round runs with the statements prepared and the connections open, as under load. The line is put
    // back by SQL, behind the view cache, as any write that bypasses the app: the version moves on.
    if (round === 2) await client.query('UPDATE svc_carts SET data = $2::jsonb, version = version + 1, snapshot = NULL WHERE key = $1', [key, JSON.stringify(rows[0]!.data)])
    await trace(`POST svc/v1/cart/remove-items (round ${round})`, {
      method: 'POST', url: '/wp-json/svc/v1/cart/remove-items', headers: { 'cart-token': token, 'content-type': 'application/json' }, payload: { keys: [model] }
    })
    await trace(`POST /?wc-ajax=add_to_cart, no cookie (round ${round})`, {
      method: 'POST', url: '/?wc-ajax=add_to_cart', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'product_id=101&quantity=1'
    })
  }
} finally {
  await app.close()
  await storage.close().catch(() => {})
  monitor.disconnect()
  monitored.disconnect()
  await rateCounter.close()
  const { createPostgresClient } = await import('../storage/postgres/index.ts')
  const admin = createPostgresClient({ connectionString: databaseUrl })
  await admin.query(`DROP SCHEMA "${schema}" CASCADE`)
  await admin.close()
}
