import type { MetaStore } from '../contract/index.ts'
import type { SqlContext } from './context.ts'

/** `MetaStore` on SQL: values by key, created once. */
export class SqlMetaStore implements MetaStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async getOrCreateMeta (key: string, create: () => string): Promise<string> {
    const select = 'SELECT value FROM svc_meta WHERE key = $1'
    const found = await this.#sql.db.query<{ value: string }>(select, [key])
    if (found.rows[0]) return found.rows[0].value
    await this.#sql.db.query('INSERT INTO svc_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, create()])
    const { rows } = await this.#sql.db.query<{ value: string }>(select, [key])
    if (!rows[0]) throw new Error(`meta ${key} vanished while being created`)
    return rows[0].value
  }
}
