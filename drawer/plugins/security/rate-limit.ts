import type { RateCounter, RateHit } from '../../../storage/contract/index.ts'
import type { RateLimit } from './route-rules.ts'

export interface RateDecision {
  limit: number
  /** The smaller remainder of the two counters, never below 0. */
  remaining: number
  allowed: boolean
  /** Whole seconds until the exhausted window ends (only when refused). */
  retryAfterSeconds: number
}

export class CounterTimeoutError extends Error {
  constructor (timeoutMs: number) {
    super(`rate counter did not answer within ${timeoutMs} ms`)
    this.name = 'CounterTimeoutError'
  }
}

function withTimeout<T> (promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new CounterTimeoutError(timeoutMs)), timeoutMs)
    })
  ]).finally(() => clearTimeout(timer))
}

/**
 * Counts one request against two fixed windows of a route, one per client IP and one per visitor, and refuses it
 * when either is used up (design §3.5). Rejects when the counter store fails or is slower than `timeoutMs`.
 */
export async function countRequest (
  counter: RateCounter,
  route: string,
  limit: RateLimit,
  keys: { ip: string, visitor: string | null },
  timeoutMs: number
): Promise<RateDecision> {
  const names = [`ip:${route}:${keys.ip}`]
  if (keys.visitor !== null) names.push(`visitor:${route}:${keys.visitor}`)
  // Both windows in one command where the store can (`hitEach`), else side by side.
  const hits: Promise<RateHit[]> = names.length > 1 && counter.hitEach !== undefined
    ? counter.hitEach(names, limit.windowMs)
    : Promise.all(names.map((name) => counter.hit(name, limit.windowMs)))
  const results = await withTimeout(hits, timeoutMs)
  const exhausted = results.filter((hit) => hit.count > limit.max)
  const used = Math.max(...results.map((hit) => hit.count))
  return {
    limit: limit.max,
    remaining: Math.max(0, limit.max - used),
    allowed: exhausted.length === 0,
    retryAfterSeconds: exhausted.length === 0 ? 0 : Math.max(1, Math.ceil(Math.max(...exhausted.map((hit) => hit.resetInMs)) / 1000))
  }
}
