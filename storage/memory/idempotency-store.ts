import type { IdempotencyClaim, IdempotencyKeyClaim, IdempotencyStore, IdempotentAnswer } from '../contract/index.ts'
import { copy } from './state.ts'

/** What the store asks of the storage it lives in: whether it is open. Alone, it always is. */
export interface IdempotencyStoreHost {
  assertOpen (): void
}

const ALWAYS_OPEN: IdempotencyStoreHost = { assertOpen () {} }

interface KeyRecord {
  readonly fingerprint: string
  readonly owner: string
  /** Milliseconds; null once answered. */
  readonly lockedUntil: number | null
  readonly expiresAt: number
  readonly answer: IdempotentAnswer | null
}

/**
 * `IdempotencyStore` in memory: the keys of this process (one instance only). Each call is one synchronous step, so a
 * claim is atomic; the keys are never part of a cart's transaction (a checkout that fails does not take its key's
 * claim back). `MemoryStorage` holds one; a host without a database may use one alone (`createMemoryIdempotencyStore`).
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #state: IdempotencyStoreHost
  readonly #keys = new Map<string, KeyRecord>()

  constructor (state: IdempotencyStoreHost = ALWAYS_OPEN) {
    this.#state = state
  }

  async claimIdempotencyKey (claim: IdempotencyKeyClaim): Promise<IdempotencyClaim> {
    this.#state.assertOpen()
    const now = Date.parse(claim.now)
    const found = this.#keys.get(claim.id)
    const free = found === undefined || found.expiresAt <= now || (found.answer === null && found.lockedUntil !== null && found.lockedUntil <= now)
    if (!free) {
      return found.answer === null
        ? { state: 'running', fingerprint: found.fingerprint }
        : { state: 'done', fingerprint: found.fingerprint, answer: copy(found.answer) }
    }
    this.#keys.set(claim.id, {
      fingerprint: claim.fingerprint,
      owner: claim.owner,
      lockedUntil: Date.parse(claim.lockedUntil),
      expiresAt: Date.parse(claim.expiresAt),
      answer: null
    })
    return { state: 'claimed' }
  }

  async completeIdempotencyKey (id: string, owner: string, answer: IdempotentAnswer): Promise<boolean> {
    this.#state.assertOpen()
    const found = this.#keys.get(id)
    if (found === undefined || found.owner !== owner || found.answer !== null) return false
    this.#keys.set(id, { ...found, lockedUntil: null, answer: copy(answer) })
    return true
  }

  async releaseIdempotencyKey (id: string, owner: string): Promise<void> {
    this.#state.assertOpen()
    const found = this.#keys.get(id)
    if (found !== undefined && found.owner === owner && found.answer === null) this.#keys.delete(id)
  }

  async purgeIdempotencyKeys (before: string, limit: number): Promise<number> {
    this.#state.assertOpen()
    const cutoff = Date.parse(before)
    let deleted = 0
    for (const [id, record] of this.#keys) {
      if (deleted >= limit) break
      if (record.expiresAt < cutoff) {
        this.#keys.delete(id)
        deleted++
      }
    }
    return deleted
  }
}

/** Idempotency keys in this process's memory, on their own (a host without a database: one instance only). */
export function createMemoryIdempotencyStore (): MemoryIdempotencyStore {
  return new MemoryIdempotencyStore()
}
