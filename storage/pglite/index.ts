import { migrateStorage } from '../sql/migrations.ts'
import { SqlStorage } from '../sql/sql-storage.ts'
import { createPgliteClient, type PgliteClientOptions } from './client.ts'

export { createPgliteClient, pgliteStartParams, type PgliteClientOptions } from './client.ts'

export interface PgliteStorageOptions extends PgliteClientOptions {
  /** A directory for the database files, or `memory://` for a database that lives in memory only. */
  dataDir: string
  /** Apply pending migrations, the platform's and the drawer's, before returning (default true). */
  migrate?: boolean
}

export async function createPgliteStorage (options: PgliteStorageOptions): Promise<SqlStorage> {
  const client = await createPgliteClient(options.dataDir, options)
  try {
    if (options.migrate ?? true) await migrateStorage(client)
  } catch (error) {
    await client.close()
    throw error
  }
  return new SqlStorage('pglite', client)
}
