import type { IdempotencyClaim, IdempotencyKeyClaim, IdempotencyStore, IdempotentAnswer } from '../contract/index.ts'
import type { SqlContext } from './context.ts'

interface KeyRow {
  fingerprint: string
  status: number | null
  headers: Record<string, string> | null
  body: string | null
}

/**
 * Takes a free key, an expired one, or one whose running request's lock has run out, in one statement: of concurrent
 * claims exactly one inserts or updates the row (the others wait for its row lock, then find it taken).
 */
const CLAIM = `INSERT INTO svc_idempotency_keys AS k (id, fingerprint, owner, locked_until, expires_at)
  VALUES ($1, $2, $3, $5::timestamptz, $6::timestamptz)
  ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, locked_until = EXCLUDED.locked_until,
    expires_at = EXCLUDED.expires_at, status = NULL, headers = NULL, body = NULL
  WHERE k.expires_at <= $4::timestamptz OR (k.status IS NULL AND k.locked_until <= $4::timestamptz)
  RETURNING k.owner`

/** A claim that lost finds the row gone only if its holder released it meanwhile: it tries again, this many times. */
const CLAIM_ATTEMPTS = 3

/**
 * `IdempotencyStore` on SQL: one row per key in `svc_idempotency_keys`, shared by every instance on the database.
 * Statements run on the client, outside any cart's transaction: a claim is final when it answers.
 */
export class SqlIdempotencyStore implements IdempotencyStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async claimIdempotencyKey (claim: IdempotencyKeyClaim): Promise<IdempotencyClaim> {
    const db = this.#sql.client
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const claimed = await db.query<{ owner: string }>(CLAIM, [claim.id, claim.fingerprint, claim.owner, claim.now, claim.lockedUntil, claim.expiresAt])
      if (claimed.rows[0]?.owner === claim.owner) return { state: 'claimed' }
      const { rows } = await db.query<KeyRow>('SELECT fingerprint, status, headers, body FROM svc_idempotency_keys WHERE id = $1', [claim.id])
      const row = rows[0]
      if (row === undefined) continue
      if (row.status === null) return { state: 'running', fingerprint: row.fingerprint }
      return { state: 'done', fingerprint: row.fingerprint, answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' } }
    }
    throw new Error(`idempotency key ${claim.id} was released and taken again ${CLAIM_ATTEMPTS} times while being claimed`)
  }

  async completeIdempotencyKey (id: string, owner: string, answer: IdempotentAnswer): Promise<boolean> {
    const { rowCount } = await this.#sql.client.query(
      `UPDATE svc_idempotency_keys SET status = $3, headers = $4::jsonb, body = $5, locked_until = NULL
       WHERE id = $1 AND owner = $2 AND status IS NULL`,
      [id, owner, answer.status, JSON.stringify(answer.headers), answer.body])
    return rowCount > 0
  }

  async releaseIdempotencyKey (id: string, owner: string): Promise<void> {
    await this.#sql.client.query('DELETE FROM svc_idempotency_keys WHERE id = $1 AND owner = $2 AND status IS NULL', [id, owner])
  }

  async purgeIdempotencyKeys (before: string, limit: number): Promise<number> {
    const { rowCount } = await this.#sql.client.query(
      `DELETE FROM svc_idempotency_keys WHERE id IN (
         SELECT id FROM svc_idempotency_keys WHERE expires_at < $1::timestamptz ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, Math.max(0, Math.floor(limit))])
    return rowCount
  }
}
