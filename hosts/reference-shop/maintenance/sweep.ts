import { repeatWhileOpen } from '../../../kernel/lib/index.ts'
import type { FastifyInstance } from 'fastify'
import type { AccountStore, CartStore, IdempotencyStore } from '../../../storage/contract/index.ts'

/**
 * The scheduled sweep: guest carts not written for longer than their lifetime, sessions past their expiry and
 * idempotency keys past theirs are deleted in batches. Every instance runs it; the storage's purges skip rows another instance is deleting or a
 * request is writing (PostgreSQL's `FOR UPDATE SKIP LOCKED`), so instances sweeping at once delete each row once
 * and never wait on each other, and a logged-in user's cart is never a guest cart. Errors are logged, never thrown.
 */

export interface SweepOptions {
  /** Minutes between sweeps (default 15). */
  everyMinutes?: number
  /** Milliseconds from ready to the first sweep (default a minute). */
  firstRunAfterMs?: number
  /** Rows deleted per statement (default 500): a sweep repeats a purge until it deletes fewer. */
  batch?: number
  /** A guest cart not written for this long is deleted (default the Cart-Token's lifetime, 48 hours). */
  cartLifetimeMs?: number
}

export const DEFAULT_SWEEP = {
  everyMinutes: 15,
  firstRunAfterMs: 60_000,
  batch: 500,
  cartLifetimeMs: 48 * 3600 * 1000
} as const satisfies Required<SweepOptions>

/** A sweep that deletes a full batch this many times in a row stops there; the next one carries on. */
const MAX_ROUNDS = 1000

/** Where a sweep reports (Fastify's logger will do). */
export interface SweepLog {
  error (fields: object, message: string): void
  info (fields: object, message: string): void
}

export interface SweepResult {
  guestCarts: number
  sessions: number
  idempotencyKeys: number
}

type Purge = (cutoff: string, limit: number) => Promise<number>

async function purgeAll (purge: Purge, cutoff: string, batch: number): Promise<number> {
  let total = 0
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const deleted = await purge(cutoff, batch)
    total += deleted
    if (deleted < batch) break
  }
  return total
}

/** What the sweep purges: guest carts, expired sessions and expired idempotency keys. */
export type SweptStores = Pick<CartStore, 'purgeGuestCarts'> & Pick<AccountStore, 'purgeExpiredSessions'> & Pick<IdempotencyStore, 'purgeIdempotencyKeys'>

/**
 * One sweep at the instant `now`: guest carts last written before `now - cartLifetimeMs`, then sessions and
 * idempotency keys expired before `now`. A purge that fails is logged and the others still run.
 */
export async function sweepExpired (
  storage: SweptStores,
  now: Date,
  log: SweepLog,
  options: Pick<SweepOptions, 'batch' | 'cartLifetimeMs'> = {}
): Promise<SweepResult> {
  const batch = Math.max(1, Math.floor(options.batch ?? DEFAULT_SWEEP.batch))
  const lifetime = options.cartLifetimeMs ?? DEFAULT_SWEEP.cartLifetimeMs
  const result: SweepResult = { guestCarts: 0, sessions: 0, idempotencyKeys: 0 }
  try {
    result.guestCarts = await purgeAll((cutoff, limit) => storage.purgeGuestCarts(cutoff, limit), new Date(now.getTime() - lifetime).toISOString(), batch)
  } catch (error) {
    log.error({ err: error }, 'sweep: guest carts could not be purged')
  }
  try {
    result.sessions = await purgeAll((cutoff, limit) => storage.purgeExpiredSessions(cutoff, limit), now.toISOString(), batch)
  } catch (error) {
    log.error({ err: error }, 'sweep: expired sessions could not be purged')
  }
  try {
    result.idempotencyKeys = await purgeAll((cutoff, limit) => storage.purgeIdempotencyKeys(cutoff, limit), now.toISOString(), batch)
  } catch (error) {
    log.error({ err: error }, 'sweep: expired idempotency keys could not be purged')
  }
  if (result.guestCarts > 0 || result.sessions > 0 || result.idempotencyKeys > 0) log.info(result, 'sweep: expired guest carts, sessions and idempotency keys deleted')
  return result
}

/**
 * Runs `sweepExpired` a little after the instance is ready, then every `everyMinutes`, on timers that never keep the
 * process alive; closing the instance stops them and waits for a sweep under way.
 */
export function scheduleSweep (fastify: FastifyInstance, storage: SweptStores, now: () => Date, options: SweepOptions = {}): void {
  const everyMs = (options.everyMinutes ?? DEFAULT_SWEEP.everyMinutes) * 60_000
  if (!(everyMs > 0) || !Number.isFinite(everyMs)) throw new Error('sweep.everyMinutes must be a positive number')
  repeatWhileOpen(fastify, () => sweepExpired(storage, now(), fastify.log, options)
    .catch((error: unknown) => { fastify.log.error({ err: error }, 'sweep failed') }),
  { firstRunAfterMs: options.firstRunAfterMs ?? DEFAULT_SWEEP.firstRunAfterMs, everyMs })
}
