import type { CartSnapshot, CartViewStore } from '../contract/index.ts'
import type { SqlContext } from './context.ts'
import { VERSIONS, type WriteVersionsRow } from './rows.ts'

/**
 * `getCartSnapshot`: the snapshot and its stamp, of one row by primary key, and the versions as they are now; none for
 * a cart bound to a user.
 */
const GET_CART_SNAPSHOT = `
  SELECT snapshot, snapshot_stamp AS stamp, version, ${VERSIONS} FROM svc_carts WHERE key = $1 AND snapshot IS NOT NULL AND user_id IS NULL`

/** `CartViewStore` on SQL: a guest cart's snapshot, kept on its cart's row for the row's version. */
export class SqlCartViewStore implements CartViewStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async getCartSnapshot (key: string): Promise<CartSnapshot | null> {
    const { rows } = await this.#sql.db.query<{ snapshot: string, stamp: string, version: number } & WriteVersionsRow>(GET_CART_SNAPSHOT, [key], 'svc_get_cart_snapshot')
    const row = rows[0]
    if (row === undefined) return null
    return { snapshot: row.snapshot, stamp: row.stamp, version: row.version, catalogVersion: row.catalog_version, settingsVersion: row.settings_version }
  }

  async saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    const { rowCount } = await this.#sql.db.query(
      'UPDATE svc_carts SET snapshot = $3, snapshot_stamp = $4 WHERE key = $1 AND version = $2',
      [key, version, snapshot, stamp], 'svc_save_snapshot')
    return rowCount > 0
  }
}
