import { join } from 'node:path'
import { createMemoryIdempotencyStore, createMemoryRateCounter, createMemoryStorage, MemoryIdempotencyStore, MemoryStorage, type MemoryStorageOptions } from './memory/index.ts'
import type { PgliteStorageOptions } from './pglite/index.ts'
import { createPostgresStorage } from './postgres/index.ts'
import { createRedisRateCounter, createRedisViewCache } from './redis/index.ts'
import { createMemoryViewCache } from './memory/index.ts'
import { withCartViewCache } from './cached-storage.ts'
import { withFallbackCounter, type FallbackCounterOptions } from './fallback-rate-counter.ts'
import type { SqlStorage } from './sql/sql-storage.ts'
import type { RateCounter, Storage } from './contract/index.ts'

export type * from './contract/index.ts'
export { isStorageUnavailable, OrderConflictError, StaleReadError, StorageUnavailableError } from './contract/index.ts'
export { createMemoryRateCounter, createMemoryStorage, createPostgresStorage, createRedisRateCounter, MemoryStorage }
export { createMemoryIdempotencyStore, MemoryIdempotencyStore }
export { createMemoryViewCache, createRedisViewCache, withCartViewCache, withFallbackCounter }
export type { FallbackCounterOptions, MemoryStorageOptions, PgliteStorageOptions }

/**
 * The embedded PGlite database. `@electric-sql/pglite` (its WebAssembly PostgreSQL) is imported on the first call,
 * not when this module loads: an app on PostgreSQL, or one that only uses `buildApp`, never loads it.
 */
export async function createPgliteStorage (options: PgliteStorageOptions): Promise<SqlStorage> {
  const { createPgliteStorage: create } = await import('./pglite/index.ts')
  return create(options)
}

/**
 * PostgreSQL when a URL is given, else the embedded PGlite database kept under `dataDir`. The in-process
 * `createMemoryStorage()` is never chosen here: its data dies with the process (tests, examples, hosts that want it
 * call it themselves).
 *
 * Guest carts' rendered views are kept beside it (`withCartViewCache`): in Redis when a URL or a cluster's nodes are
 * given (shared by every instance), in this process's memory on the embedded database (one instance only), and not at all on PostgreSQL
 * without Redis (instances could not tell each other of their writes).
 */
export async function createStorage ({ databaseUrl, dataDir, redisUrl = null, redisClusterNodes = null, onCacheError }: {
  databaseUrl: string | null
  dataDir: string
  redisUrl?: string | null
  redisClusterNodes?: readonly string[] | null
  onCacheError?: (error: unknown) => void
}): Promise<Storage> {
  const options = onCacheError === undefined ? {} : { onError: onCacheError }
  const shared = redisClusterNodes
    ? createRedisViewCache({ clusterNodes: redisClusterNodes })
    : redisUrl ? createRedisViewCache({ url: redisUrl }) : null
  if (databaseUrl) {
    const storage = await createPostgresStorage({ connectionString: databaseUrl })
    return shared === null ? storage : withCartViewCache(storage, shared, options)
  }
  const storage = await createPgliteStorage({ dataDir: join(dataDir, 'pglite') })
  return withCartViewCache(storage, shared ?? createMemoryViewCache(), options)
}

/**
 * Redis when a URL is given, a Redis Cluster when its nodes are, else in-process counters (one instance only). Redis
 * comes with a fallback in this process's memory (`withFallbackCounter`): while Redis fails or does not answer, the
 * limits are counted per instance, each of the `instances` serving the shop allowing `ceil(limit / instances)`, and
 * shared again once Redis answers.
 */
export function createRateCounter ({ redisUrl, redisClusterNodes, instances = 1, fallback = {} }: {
  redisUrl: string | null
  redisClusterNodes?: readonly string[] | null
  /** The instances serving the shop (`SVC_INSTANCES`). */
  instances?: number
  /** The fallback's timing (its timeout, its probe interval). */
  fallback?: Omit<FallbackCounterOptions, 'instances'>
}): RateCounter {
  if (redisUrl && redisClusterNodes) throw new TypeError('give either a Redis url or Redis Cluster nodes, not both')
  if (!redisUrl && !redisClusterNodes) return createMemoryRateCounter()
  const redis = createRedisRateCounter(redisClusterNodes ? { clusterNodes: redisClusterNodes } : { url: redisUrl! })
  return withFallbackCounter(redis, createMemoryRateCounter(), { ...fallback, instances })
}
export { SqlStorage } from './sql/sql-storage.ts'
export { migrate, migrateStorage, migrations, SCHEMA_LOCK_KEY, type Migration } from './sql/migrations.ts'
export { DRAWER_MIGRATIONS_TABLE, drawerMigrations, migrateDrawer } from '../drawer/index.ts'
export type { QueryResult, SqlClient, SqlSession } from './sql/client.ts'
