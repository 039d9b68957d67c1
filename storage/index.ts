import { join } from 'node:path'
import { createMemoryRateCounter, createMemoryStorage, MemoryStorage, type MemoryStorageOptions } from './memory/index.ts'
import type { PgliteStorageOptions } from './pglite/index.ts'
import { createPostgresStorage } from './postgres/index.ts'
import { createRedisRateCounter } from './redis/index.ts'
import type { SqlStorage } from './sql/sql-storage.ts'
import type { RateCounter, Storage } from './types.ts'

export type * from './types.ts'
export { isStorageUnavailable, OrderConflictError, StorageUnavailableError } from './errors.ts'
export { createMemoryRateCounter, createMemoryStorage, createPostgresStorage, createRedisRateCounter, MemoryStorage }
export type { MemoryStorageOptions, PgliteStorageOptions }

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
 */
export async function createStorage ({ databaseUrl, dataDir }: { databaseUrl: string | null, dataDir: string }): Promise<Storage> {
  if (databaseUrl) return createPostgresStorage({ connectionString: databaseUrl })
  return createPgliteStorage({ dataDir: join(dataDir, 'pglite') })
}

/** Redis when a URL is given, a Redis Cluster when its nodes are, else in-process counters (one instance only). */
export function createRateCounter ({ redisUrl, redisClusterNodes }: { redisUrl: string | null, redisClusterNodes?: readonly string[] | null }): RateCounter {
  if (redisUrl && redisClusterNodes) throw new TypeError('give either a Redis url or Redis Cluster nodes, not both')
  if (redisClusterNodes) return createRedisRateCounter({ clusterNodes: redisClusterNodes })
  return redisUrl ? createRedisRateCounter({ url: redisUrl }) : createMemoryRateCounter()
}
