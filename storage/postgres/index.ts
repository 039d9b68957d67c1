import type { SqlClient } from '../sql/client.ts'
import { SCHEMA_LOCK_KEY, migrateStorage } from '../sql/migrations.ts'
import { SqlStorage } from '../sql/sql-storage.ts'
import { assertSchemaName, createPostgresClient, type PostgresClientOptions } from './client.ts'

export { createPostgresClient, DEFAULT_POOL_SIZE, type PostgresClientOptions } from './client.ts'

export interface PostgresStorageOptions extends PostgresClientOptions {
  /** Apply pending migrations, the platform's and the drawer's, before returning (default true). */
  migrate?: boolean
}

/** Creates the schema if missing, under the schema lock so that instances starting together do not collide. */
export async function ensureSchema (client: SqlClient, schema: string): Promise<void> {
  assertSchemaName(schema)
  await client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`)
    await tx.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
  })
}

/** A pool-backed client whose `searchPath` schema exists. */
export async function openPostgresClient (options: PostgresClientOptions): Promise<SqlClient> {
  const client = createPostgresClient(options)
  try {
    if (options.searchPath !== undefined) await ensureSchema(client, options.searchPath)
    return client
  } catch (error) {
    await client.close()
    throw error
  }
}

export async function createPostgresStorage (options: PostgresStorageOptions): Promise<SqlStorage> {
  const client = await openPostgresClient(options)
  try {
    if (options.migrate ?? true) await migrateStorage(client)
  } catch (error) {
    await client.close()
    throw error
  }
  return new SqlStorage('postgres', client)
}
