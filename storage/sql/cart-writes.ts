import type { CartData } from '../../kernel/domain/types.ts'
import type { CartUpdate, RemovedCartLines, StoredCart, WriteVersions } from '../contract/index.ts'
import type { SqlSession } from './client.ts'
import { CATALOG_VERSION, VERSIONS, toIso, type CartRow, type WriteVersionsRow } from './rows.ts'

/**
 * The statements that store a cart's data. Each one stores the new version's snapshot when the write brings it
 * (`CartUpdate.snapshot`; $3 and $4) and drops the old one otherwise, and answers the catalog's and settings' versions
 * it saw: a snapshot stamped with them is never newer than the catalog it was computed from. The data is not sent
 * back: the writer has it.
 */
const WRITTEN = `user_id, version, updated_at, ${VERSIONS}`

const SET_DATA = `data = $2::jsonb, version = version + 1, updated_at = clock_timestamp(),
  touch_seq = nextval('svc_carts_touch_seq'), snapshot = $3, snapshot_stamp = $4`

/** Under the row lock `updateCart` holds. */
const WRITE_LOCKED = `UPDATE svc_carts SET ${SET_DATA} WHERE key = $1 RETURNING ${WRITTEN}`

/**
 * Without a lock, after the caller's read: only while the cart is still at the version ($5) and bound to the user
 * ($6) it was read with. The user counts too: binding a cart does not move its version, and the change was checked
 * against the cart's owner.
 */
const WRITE_SEEN = `UPDATE svc_carts SET ${SET_DATA}
  WHERE key = $1 AND version = $5 AND user_id IS NOT DISTINCT FROM $6::int RETURNING ${WRITTEN}`

/**
 * A cart the caller read as not stored, at its first version: one INSERT, which stores nothing (and answers no row)
 * when the cart was stored meanwhile. A concurrent insert of the same key is waited for by PostgreSQL, then yields.
 */
const INSERT_SEEN = `INSERT INTO svc_carts (key, data, version, updated_at, snapshot, snapshot_stamp)
  VALUES ($1, $2::jsonb, 1, clock_timestamp(), $3, $4)
  ON CONFLICT (key) DO NOTHING RETURNING ${WRITTEN}`

/**
 * A new key's first version ($5: the catalog version the change was checked at): stored only while no cart has the key
 * and the catalog is still at that version; no row otherwise.
 */
const INSERT_NEW = `INSERT INTO svc_carts (key, data, version, updated_at, snapshot, snapshot_stamp)
  SELECT $1, $2::jsonb, 1, clock_timestamp(), $3, $4 WHERE ${CATALOG_VERSION} = $5::int
  ON CONFLICT (key) DO NOTHING RETURNING ${WRITTEN}`

/**
 * Lines removed inside PostgreSQL, without a read before (`Storage.removeCartLines`): only from a guest's stored cart
 * with no coupon and no reward line that holds every key ($2, distinct). Answers the data before the write; the data
 * after it is that data with those lines gone, in their order.
 */
const REMOVE_LINES = `WITH before AS (
    SELECT key, data, updated_at AS before_updated_at FROM svc_carts WHERE key = $1 AND user_id IS NULL FOR UPDATE
  )
  UPDATE svc_carts c SET
    data = jsonb_set(b.data, '{lines}', coalesce((
      SELECT jsonb_agg(l ORDER BY i) FROM jsonb_array_elements(b.data->'lines') WITH ORDINALITY AS e(l, i)
      WHERE NOT (l->>'key' = ANY($2::text[]))), '[]'::jsonb)),
    version = c.version + 1, updated_at = clock_timestamp(), touch_seq = nextval('svc_carts_touch_seq'),
    snapshot = NULL, snapshot_stamp = NULL
  FROM before b
  WHERE c.key = b.key
    AND jsonb_array_length(coalesce(b.data->'coupons', '[]'::jsonb)) = 0
    AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(b.data->'lines') l WHERE l->>'mark' LIKE 'reward:%')
    AND (SELECT count(*) FROM jsonb_array_elements(b.data->'lines') l WHERE l->>'key' = ANY($2::text[])) = cardinality($2::text[])
  RETURNING b.data AS before, b.before_updated_at, ${WRITTEN}`

type Snapshot = CartUpdate<unknown>['snapshot']
type WrittenRow = Omit<CartRow, 'key' | 'data'> & WriteVersionsRow

interface Written {
  cart: StoredCart
  versions: WriteVersions
}

function written (key: string, data: CartData, row: WrittenRow): Written {
  return {
    cart: { key, userId: row.user_id, data, version: row.version, updatedAt: toIso(row.updated_at) },
    versions: { catalogVersion: row.catalog_version, settingsVersion: row.settings_version }
  }
}

function params (key: string, data: CartData, snapshot: Snapshot): unknown[] {
  return [key, JSON.stringify(data), snapshot?.snapshot ?? null, snapshot?.stamp ?? null]
}

/** Stores the data of a cart whose row `tx` holds locked. */
export async function writeLockedCart (tx: SqlSession, key: string, data: CartData, snapshot: Snapshot): Promise<Written> {
  const { rows } = await tx.query<WrittenRow>(WRITE_LOCKED, params(key, data, snapshot), 'svc_write_cart')
  return written(key, data, rows[0] as WrittenRow)
}

/** Stores the data if the cart is still as `seen` (not stored, for null); null when it is not. One statement. */
export async function writeSeenCart (db: SqlSession, key: string, seen: StoredCart | null, data: CartData, snapshot: Snapshot): Promise<Written | null> {
  const { rows } = seen === null
    ? await db.query<WrittenRow>(INSERT_SEEN, params(key, data, snapshot), 'svc_insert_seen_cart')
    : await db.query<WrittenRow>(WRITE_SEEN, [...params(key, data, snapshot), seen.version, seen.userId], 'svc_write_seen_cart')
  return rows[0] === undefined ? null : written(key, data, rows[0])
}

/** Stores a new key's first version if no cart has the key and the catalog is at `catalogVersion`; null otherwise. */
export async function writeNewCart (db: SqlSession, key: string, data: CartData, snapshot: Snapshot, catalogVersion: number): Promise<Written | null> {
  const { rows } = await db.query<WrittenRow>(INSERT_NEW, [...params(key, data, snapshot), catalogVersion], 'svc_insert_new_cart')
  return rows[0] === undefined ? null : written(key, data, rows[0])
}

/**
 * What an update given `seen` runs with first: the read cart itself (the caller's, as the update is: no copy), or an
 * empty one at version 0.
 */
export function seenCart (key: string, seen: StoredCart | null): StoredCart {
  if (seen === null) return { key, userId: null, data: { lines: [], coupons: [] }, version: 0, updatedAt: new Date().toISOString() }
  return seen
}

/**
 * Removes the lines of `itemKeys` from a guest's cart in one statement (`REMOVE_LINES`); null when it stored nothing
 * (not stored, bound to a user, a coupon or a reward line, a key it does not hold).
 */
export async function removeLinesUnread (db: SqlSession, key: string, itemKeys: readonly string[]): Promise<RemovedCartLines | null> {
  const keys = [...new Set(itemKeys)]
  if (keys.length === 0) return null
  const { rows } = await db.query<WrittenRow & { before: CartData, before_updated_at: Date | string }>(REMOVE_LINES, [key, keys], 'svc_remove_lines')
  const row = rows[0]
  if (row === undefined) return null
  const removing = new Set(keys)
  const lines = row.before.lines.filter((line) => !removing.has(line.key)).map((line) => ({ ...line, variation: { ...line.variation } }))
  const after = written(key, { ...row.before, lines }, row)
  const before: StoredCart = { key, userId: null, data: row.before, version: row.version - 1, updatedAt: toIso(row.before_updated_at) }
  return { before, cart: after.cart, versions: after.versions }
}
