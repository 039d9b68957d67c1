/**
 * Child process: the app under test, the real `buildApp` stack on the bench's storage (PGlite, or PostgreSQL in the
 * run's schema, with Redis where given), seeded with the demo shop and the bench's products, logger off, on 127.0.0.1.
 * Two apps share the one storage: the app as configured, and the same app with a rate counter that counts nothing
 * (the limiter off). Calls: `start`, and `sql`, through which the orchestrator seeds carts (PGlite lives in here).
 */
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createMemoryRateCounter, createMemoryViewCache, createRedisRateCounter, createRedisViewCache, migrateStorage, SqlStorage, withCartViewCache, type SqlClient } from '../storage/index.ts'
import type { RateCounter } from '../storage/contract/index.ts'
import { createPgliteClient } from '../storage/pglite/index.ts'
import { openPostgresClient } from '../storage/postgres/index.ts'
import { serve } from './child.ts'
import { benchProducts } from './scenarios.ts'

export interface AppOptions {
  /** A PGlite data directory; ignored with `databaseUrl`. */
  dataDir: string
  databaseUrl: string | null
  schema: string
  redisUrl: string | null
  redisKeyPrefix: string
  /** The apps' signing secret: the orchestrator signs Cart-Tokens for the carts it seeds. */
  secret: string
  /** Bench-only: every rate limit times this, so the load is not refused (the limiter still counts every request). */
  rateLimitMultiplier: number
  poolSize: number | null
}

export interface AppUrls { app: string, unlimited: string, storage: string, rateCounter: string }

/** The limiter off: every hit is the first of its window, and nothing is stored. */
const countNothing: RateCounter = {
  name: 'none',
  hit: async (_key, windowMs) => ({ count: 1, resetInMs: windowMs }),
  peek: async () => ({ count: 0, resetInMs: 0 }),
  reset: async () => {},
  ping: async () => {},
  close: async () => {}
}

const closers: Array<() => Promise<unknown>> = []
let seeder: SqlClient | undefined

async function start (options: AppOptions): Promise<AppUrls> {
  const postgres = (more: { max?: number, queryTimeoutMillis?: number }): Promise<SqlClient> =>
    openPostgresClient({ connectionString: options.databaseUrl!, searchPath: options.schema, ...more })
  const client = options.databaseUrl !== null
    ? await postgres(options.poolSize === null ? {} : { max: options.poolSize })
    : await createPgliteClient(options.dataDir)
  closers.push(() => client.close())
  // Seeding a write pool may take longer than the app's query timeout: the orchestrator's SQL has a client of its own.
  seeder = options.databaseUrl !== null ? await postgres({ max: 1, queryTimeoutMillis: 10 * 60_000 }) : client
  if (seeder !== client) closers.push(() => seeder!.close())
  await migrateStorage(client)
  const sql = new SqlStorage(options.databaseUrl !== null ? 'postgres' : 'pglite', client)
  // Guest carts' views kept as `createStorage` keeps them: in Redis when there is one, in memory on PGlite.
  const views = options.redisUrl !== null
    ? createRedisViewCache({ url: options.redisUrl, keyPrefix: `${options.redisKeyPrefix}view:` })
    : options.databaseUrl === null ? createMemoryViewCache() : null
  if (views !== null) closers.push(() => views.close())
  const storage = views === null ? sql : withCartViewCache(sql, views)
  await seedDemoShop(storage, DEFAULT_SITE_URL)
  await storage.upsertProducts(benchProducts(DEFAULT_SITE_URL))
  const counter = options.redisUrl !== null ? createRedisRateCounter({ url: options.redisUrl, keyPrefix: `${options.redisKeyPrefix}rl:` }) : createMemoryRateCounter()
  closers.push(() => counter.close())
  const listen = async (rateCounter: RateCounter): Promise<string> => {
    const app = await buildApp({
      storage,
      rateCounter,
      secrets: [options.secret],
      siteUrl: DEFAULT_SITE_URL,
      shop: demoShopConfig,
      rateLimitMultiplier: options.rateLimitMultiplier,
      logger: false
    })
    // Apps close first (closers run newest first), then the storage they use.
    closers.push(() => app.close())
    return app.listen({ host: '127.0.0.1', port: 0 })
  }
  return { app: await listen(counter), unlimited: await listen(countNothing), storage: storage.name, rateCounter: counter.name }
}

serve({
  start,
  sql: async (statement: string, params: unknown[]) => (await seeder!.query(statement, params)).rows
}, async () => {
  for (const close of closers.reverse()) await close().catch((error: unknown) => console.error('bench: closing the app failed:', error))
})
