/**
 * Child process: the real server stack (`buildApp` on the bench's storage, seeded with the demo shop, the demo
 * configuration and the bench's extra simple products), listening on 127.0.0.1 on random ports, logger off. Started
 * and stopped by `run.ts`. Three apps share the one storage: the app as configured, the same app with a rate counter
 * that counts nothing (the limiter off), and, for the visitors run only, one whose rate windows are short.
 */
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createMemoryRateCounter, createMemoryViewCache, createRedisRateCounter, createRedisViewCache, withCartViewCache } from '../storage/index.ts'
import { createPgliteClient } from '../storage/pglite/index.ts'
import { openPostgresClient } from '../storage/postgres/index.ts'
import { migrateStorage } from '../storage/index.ts'
import { SqlStorage } from '../storage/index.ts'
import type { SqlClient } from '../storage/index.ts'
import type { RateCounter } from '../storage/contract/index.ts'
import { benchProducts } from './catalog.ts'
import { runChild, type AppReady, type AppStart } from './ipc.ts'

const SEED_TIMEOUT_MS = 30 * 60_000

/** The limiter off: every hit is the first of its window, and nothing is stored. */
const countNothing: RateCounter = {
  name: 'none',
  hit: async (_key, windowMs) => ({ count: 1, resetInMs: windowMs }),
  peek: async () => ({ count: 0, resetInMs: 0 }),
  reset: async () => {},
  ping: async () => {},
  close: async () => {}
}

/** Windows no longer than `windowMs` (the visitors run: expired windows must leave no key behind). */
function shortWindows (counter: RateCounter, windowMs: number): RateCounter {
  return {
    ...counter,
    name: counter.name,
    hit: (key, window) => counter.hit(key, Math.min(window, windowMs)),
    ...(counter.hitEach === undefined ? {} : { hitEach: (keys: readonly string[], window: number) => counter.hitEach!(keys, Math.min(window, windowMs)) }),
    peek: (key, window) => counter.peek(key, Math.min(window, windowMs)),
    reset: (key, window) => counter.reset(key, Math.min(window, windowMs))
  }
}

runChild<AppStart, AppReady>(async (start) => {
  const client: SqlClient = start.databaseUrl !== null
    ? await openPostgresClient({ connectionString: start.databaseUrl, searchPath: start.schema, ...(start.poolSize === null ? {} : { max: start.poolSize }) })
    : await createPgliteClient(start.dataDir)
  // Seeding a million carts takes longer than the app's query timeout: the orchestrator's SQL has a client of its own.
  const seeder: SqlClient = start.databaseUrl !== null
    ? await openPostgresClient({ connectionString: start.databaseUrl, searchPath: start.schema, max: 1, queryTimeoutMillis: SEED_TIMEOUT_MS })
    : client
  const counters: RateCounter[] = []
  const closers: Array<{ close: () => Promise<void> }> = []
  const apps: Array<{ close: () => Promise<unknown> }> = []
  const closeAll = async (): Promise<void> => {
    await Promise.allSettled(apps.map((app) => app.close()))
    await Promise.allSettled([client.close(), ...(seeder === client ? [] : [seeder.close()]), ...counters.map((counter) => counter.close()), ...closers.map((closer) => closer.close())])
  }
  try {
    await migrateStorage(client)
    const sql = new SqlStorage(start.databaseUrl !== null ? 'postgres' : 'pglite', client)
    // Guest carts' views kept as `createStorage` keeps them: in Redis when there is one, in memory on PGlite.
    const views = start.redisUrl !== null
      ? createRedisViewCache({ url: start.redisUrl, keyPrefix: `${start.redisKeyPrefix}view:` })
      : start.databaseUrl === null ? createMemoryViewCache() : null
    if (views !== null) closers.push(views)
    const storage = views === null ? sql : withCartViewCache(sql, views)
    const redis = (prefix: string): RateCounter => {
      const counter = start.redisUrl !== null ? createRedisRateCounter({ url: start.redisUrl, keyPrefix: prefix }) : createMemoryRateCounter()
      counters.push(counter)
      return counter
    }
    await seedDemoShop(storage, DEFAULT_SITE_URL)
    await storage.upsertProducts(benchProducts(DEFAULT_SITE_URL))
    const listen = async (rateCounter: RateCounter): Promise<string> => {
      const app = await buildApp({
        storage,
        rateCounter,
        // A secret of this run only: tokens from the bench are worthless anywhere else.
        secrets: [start.secret],
        siteUrl: DEFAULT_SITE_URL,
        shop: demoShopConfig,
        rateLimitMultiplier: start.rateLimitMultiplier,
        logger: false
      })
      apps.push(app)
      return app.listen({ host: '127.0.0.1', port: 0 })
    }
    const main = redis(start.redisKeyPrefix)
    const url = await listen(main)
    const unlimitedUrl = await listen(countNothing)
    const shortWindowUrl = start.shortWindowMs === null
      ? null
      : await listen(shortWindows(redis(`${start.redisKeyPrefix}short:`), start.shortWindowMs))
    return {
      ready: { url, unlimitedUrl, shortWindowUrl, storage: storage.name, rateCounter: main.name },
      close: closeAll,
      sql: async (statement, params) => (await seeder.query(statement, params)).rows
    }
  } catch (error) {
    await closeAll()
    throw error
  }
})
