import type { CartData, Coupon, Product } from '../../kernel/domain/types.ts'
import { cartProductIds } from '../../kernel/domain/cart.ts'
import { StaleReadError } from '../contract/index.ts'
import type {
  CartRead, CartStore, CartUpdate, CartUpdateOptions, CartViewStore, RemovalFinish, RemovedCartLines, StoredCart, WriteVersions
} from '../contract/index.ts'
import type { SqlSession } from './client.ts'
import type { SqlContext } from './context.ts'
import { NO_PRODUCT_HINT } from './product-cache.ts'
import { CART_COLUMNS, VERSIONS, toCoupon, toStoredCart, type CartRow, type CouponRow, type WriteVersionsRow } from './rows.ts'
import { removeLinesUnread, seenCart, writeLockedCart, writeNewCart, writeSeenCart } from './cart-writes.ts'

const EMPTY_CART: CartData = { lines: [], coupons: [] }

interface ReadCartRow extends Omit<CartRow, 'key'> {
  key: string | null
  products: Product[] | null
  coupons: CouponRow[] | null
  settings_version: number
  catalog_version: number
}

/**
 * `readCart`: one statement, so one round trip and one snapshot. The versions side always answers (even for a cart
 * that is not stored); the cart's product ids and coupon codes are taken from its JSON by the database. $2 and $3:
 * the products the instance holds as read at catalog version $2 (`ProductCache`), not sent again while the
 * catalog is still at $2.
 */
const READ_CART = `
  SELECT c.key, c.user_id, c.data, c.version, c.updated_at, v.catalog_version, v.settings_version,
    (SELECT jsonb_agg(p.data) FROM svc_products p WHERE p.id IN (
      SELECT (l->>'productId')::int FROM jsonb_array_elements(c.data->'lines') AS l
      UNION SELECT (l->>'variationId')::int FROM jsonb_array_elements(c.data->'lines') AS l
    ) AND NOT (v.catalog_version = $2::int AND p.id = ANY($3::int[]))) AS products,
    (SELECT jsonb_agg(jsonb_build_object('code', k.code, 'data', k.data, 'usage_count', k.usage_count))
      FROM svc_coupons k WHERE k.code IN (SELECT lower(btrim(x)) FROM jsonb_array_elements_text(c.data->'coupons') AS x)) AS coupons
  FROM (SELECT ${VERSIONS}) AS v
  LEFT JOIN LATERAL (SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1) AS c ON true`

/** Carries `updateCart`'s outcome out of a transaction that must roll back. */
class Discard<T> {
  constructor (readonly outcome: T) {}
}

/**
 * `CartStore` on SQL. Writes of one cart queue per key in this process (`SqlContext.cartWrites`) and lock its row; an
 * `updateCart` callback runs in a transaction that the other stores' statements join.
 */
export class SqlCartStore implements CartStore {
  readonly #sql: SqlContext
  /** Where `removeCartLines` keeps the snapshot its `finish` makes. */
  readonly #views: CartViewStore

  constructor (sql: SqlContext, views: CartViewStore) {
    this.#sql = sql
    this.#views = views
  }

  async getCart (key: string): Promise<StoredCart | null> {
    const { rows } = await this.#sql.db.query<CartRow>(`SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1`, [key], 'svc_get_cart')
    return rows[0] ? toStoredCart(rows[0]) : null
  }

  async readCart (key: string): Promise<CartRead> {
    // Inside a transaction the read may see writes that roll back: the cache is neither asked nor told.
    const cached = !this.#sql.inTransaction
    const hint = cached ? this.#sql.products.hint(key) : NO_PRODUCT_HINT
    const { rows } = await this.#sql.db.query<ReadCartRow>(READ_CART, [key, hint.version, hint.ids], 'svc_read_cart')
    const row = rows[0]
    if (row === undefined) throw new Error('the cart read returned no row')
    const sent = row.products ?? []
    const products = cached
      ? this.#sql.products.complete(key, hint, row.catalog_version, sent, row.key === null ? new Set() : cartProductIds(row.data))
      : new Map(sent.map((product) => [product.id, product]))
    const coupons = new Map<string, Coupon>()
    for (const coupon of row.coupons ?? []) coupons.set(coupon.code, toCoupon(coupon))
    return {
      cart: row.key === null ? null : toStoredCart(row as CartRow),
      products,
      coupons,
      settingsVersion: row.settings_version,
      catalogVersion: row.catalog_version
    }
  }

  async getVersions (): Promise<WriteVersions> {
    const { rows } = await this.#sql.db.query<WriteVersionsRow>(`SELECT ${VERSIONS}`, [], 'svc_get_versions')
    const row = rows[0] as WriteVersionsRow
    return { catalogVersion: row.catalog_version, settingsVersion: row.settings_version }
  }

  knownProducts (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null {
    return this.#sql.products.known(ids)
  }

  async updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options: CartUpdateOptions = {}
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    // Inside another write's transaction the lock is taken in that transaction; queueing there could wait on itself.
    if (this.#sql.inTransaction) return this.#updateCart(key, update)
    const { seen } = options
    return this.#sql.cartWrites.run(key, async () => {
      // The caller's read stands in for the lock: one statement that lands only if the cart is still as read, instead
      // of BEGIN, SELECT … FOR UPDATE, UPDATE and COMMIT. A cart changed meanwhile is written under the lock.
      if (options.newCartAt !== undefined && seen === null) {
        const current = seenCart(key, null)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) return { cart: current, result }
        const written = await writeNewCart(this.#sql.db, key, data, snapshot, options.newCartAt)
        if (written === null) throw new StaleReadError()
        return { ...written, result }
      }
      if (seen !== undefined) {
        const current = seenCart(key, seen)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) return { cart: current, result }
        const written = await writeSeenCart(this.#sql.db, key, seen, data, snapshot)
        if (written !== null) return { ...written, result }
      }
      return this.#updateCart(key, update)
    })
  }

  async removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    if (this.#sql.inTransaction) return null
    const removed = await this.#sql.cartWrites.run(key, () => removeLinesUnread(this.#sql.db, key, itemKeys))
    if (removed === null) return null
    const { result, snapshot } = await finish(removed)
    if (snapshot !== undefined) await this.#views.saveCartSnapshot(key, removed.cart.version, snapshot.stamp, snapshot.snapshot)
    return { result }
  }

  async #updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    try {
      return await this.#sql.transaction(async (tx) => {
        const { row, created } = await lockCart(tx, key)
        const current = toStoredCart(row)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) {
          // A row created only to hold the lock is not kept.
          if (created) throw new Discard({ cart: current, result })
          return { cart: current, result }
        }
        return { ...await writeLockedCart(tx, key, data, snapshot), result }
      })
    } catch (error) {
      if (error instanceof Discard) return error.outcome as { cart: StoredCart, result: T }
      throw error
    }
  }

  async setCartUser (key: string, userId: number | null): Promise<void> {
    await this.#sql.db.query(
      `UPDATE svc_carts SET user_id = $2, updated_at = clock_timestamp(), touch_seq = nextval('svc_carts_touch_seq'),
         snapshot = NULL, snapshot_stamp = NULL
       WHERE key = $1`, [key, userId])
  }

  async findUserCart (userId: number): Promise<StoredCart | null> {
    const { rows } = await this.#sql.db.query<CartRow>(
      `SELECT ${CART_COLUMNS} FROM svc_carts WHERE user_id = $1 ORDER BY touch_seq DESC LIMIT 1`, [userId])
    return rows[0] ? toStoredCart(rows[0]) : null
  }

  async deleteCart (key: string): Promise<void> {
    await this.#sql.db.query('DELETE FROM svc_carts WHERE key = $1', [key])
  }

  async purgeGuestCarts (before: string, limit: number): Promise<number> {
    // SKIP LOCKED: a cart being written (or swept by another instance) is left for the next sweep, never waited for.
    const { rowCount } = await this.#sql.db.query(
      `DELETE FROM svc_carts WHERE key IN (
         SELECT key FROM svc_carts WHERE user_id IS NULL AND updated_at < $1::timestamptz
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)`, [before, Math.max(0, Math.floor(limit))])
    return rowCount
  }
}

/**
 * Locks the cart's row, first creating an empty one when there is none. A row deleted between our failed insert
 * and the select is retried.
 */
async function lockCart (tx: SqlSession, key: string): Promise<{ row: CartRow, created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await tx.query<CartRow>(`SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1 FOR UPDATE`, [key], 'svc_lock_cart')
    if (existing.rows[0]) return { row: existing.rows[0], created: false }
    const inserted = await tx.query<CartRow>(
      `INSERT INTO svc_carts (key, data, version) VALUES ($1, $2::jsonb, 0)
       ON CONFLICT (key) DO NOTHING RETURNING ${CART_COLUMNS}`, [key, JSON.stringify(EMPTY_CART)])
    if (inserted.rows[0]) return { row: inserted.rows[0], created: true }
  }
  throw new Error(`could not lock cart ${key}`)
}
