import type { SettingsStore, StoredSettings } from '../../../storage/contract/index.ts'
import type { SqlSource } from './source.ts'

/** `SettingsStore` on SQL: one row, its version grown by every save. */
export class SqlSettingsStore implements SettingsStore {
  readonly #sql: SqlSource

  constructor (sql: SqlSource) {
    this.#sql = sql
  }

  async getSettings (): Promise<StoredSettings | null> {
    const { rows } = await this.#sql.db.query<StoredSettings>('SELECT document, version FROM svc_settings WHERE id = 1', [], 'svc_get_settings')
    return rows[0] ?? null
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    const json = JSON.stringify(document)
    const insert = 'INSERT INTO svc_settings (id, document, version) VALUES (1, $1::jsonb, 1)'
    let statement: string
    let params: unknown[] = [json]
    if (expectedVersion === undefined) {
      statement = `${insert} ON CONFLICT (id) DO UPDATE SET document = EXCLUDED.document, version = svc_settings.version + 1`
    } else if (expectedVersion === 0) {
      statement = `${insert} ON CONFLICT (id) DO NOTHING`
    } else {
      statement = 'UPDATE svc_settings SET document = $1::jsonb, version = version + 1 WHERE id = 1 AND version = $2'
      params = [json, expectedVersion]
    }
    const { rows } = await this.#sql.db.query<StoredSettings>(`${statement} RETURNING document, version`, params)
    return rows[0] ?? null
  }
}
