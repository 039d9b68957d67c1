import { StorageUnavailableError } from './contract/index.ts'
import type { RateCounter, RateCounting, RateHit } from './contract/index.ts'

export interface FallbackCounterOptions {
  /**
   * The instances serving the shop (`SVC_INSTANCES`), at least 1. While the fallback counts, each instance allows
   * `ceil(limit / instances)` requests of every limit, so that the shop as a whole stays within the limit when its
   * traffic is spread over the instances. Default 1.
   */
  instances?: number
  /**
   * How long the primary may take before a call is counted in the fallback instead. Default 200 ms: below the 250 ms
   * the rate limits wait for a counter, so that a primary that hangs is replaced before a limit gives up on it.
   */
  timeoutMs?: number
  /**
   * While the fallback counts, the primary is pinged at most this often (default 1000 ms), in the background of a
   * call: no call waits for it. The first ping that answers makes the primary count again.
   */
  probeIntervalMs?: number
  /** Clock in milliseconds, for the probe interval (tests move it). */
  now?: () => number
}

/**
 * A rate counter that keeps counting when its shared store does not. Calls go to `primary` (Redis: one count for
 * every instance); when it fails or is slower than `timeoutMs`, the call is counted in `fallback` (this process's
 * memory) instead, and so is every later call, at once and without touching the primary, until a probe finds the
 * primary answering again (at most one ping every `probeIntervalMs`, never on a call's path).
 *
 * While the fallback counts, its counts are reported as estimates of the shop's: each of this instance's requests
 * stands for `instances` requests. A hit counted n-th here is reported as `(n - 1) × instances + 1` (the earlier
 * requests of the shop, and this one), so `count > max` first holds at the `ceil(max / instances) + 1`-th request:
 * every instance allows `ceil(max / instances)`. A peek of n is reported as `n × instances` (the shop's requests so far),
 * so `count >= max` first holds once `ceil(max / instances)` are counted here. A count of 0 stays 0, so a window's
 * presence reads the same.
 *
 * The fallback's counts start empty and are not carried over to the primary: during the switch a client can get up to
 * one window's share more. `counting()` tells which one counts, and `onCountingChange` each switch (once when the
 * fallback takes over, with the failure that made it, and once when the primary is back), for the readiness check and
 * the log. Only a call that neither can count rejects (the fallback closed; an invalid window).
 */
export function withFallbackCounter (primary: RateCounter, fallback: RateCounter, options: FallbackCounterOptions = {}): RateCounter {
  const { instances = 1, timeoutMs = 200, probeIntervalMs = 1000, now = Date.now } = options
  if (!Number.isSafeInteger(instances) || instances < 1) throw new RangeError(`instances must be a positive integer, got ${instances}`)
  let counting: RateCounting = 'shared'
  let lastProbeAt = 0
  let probing: Promise<void> | null = null
  let closed = false
  const listeners = new Set<(counting: RateCounting, cause?: unknown) => void>()

  const change = (next: RateCounting, cause?: unknown): void => {
    if (counting === next) return
    counting = next
    for (const listener of [...listeners]) {
      try {
        listener(next, cause)
      } catch {
        // A listener's fault must not turn a count into a failure.
      }
    }
  }

  const fallBack = (cause: unknown): void => {
    if (counting === 'per_instance') return
    lastProbeAt = now()
    change('per_instance', cause)
  }

  /** Pings the primary if a probe is due (or joins the one running); settles when it has, never rejects. */
  const probe = (): Promise<void> => {
    if (probing !== null) return probing
    if (closed || counting === 'shared' || now() - lastProbeAt < probeIntervalMs) return Promise.resolve()
    lastProbeAt = now()
    probing = within(() => primary.ping(), timeoutMs)
      .then(() => { if (!closed) change('shared') }, () => {})
      .finally(() => {
        probing = null
        lastProbeAt = now()
      })
    return probing
  }

  /** The primary's answer while it counts and answers in time, else the fallback's. */
  const counted = async <T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> => {
    if (counting === 'shared') {
      try {
        return await within(onPrimary, timeoutMs)
      } catch (error) {
        fallBack(error)
      }
    } else {
      // In the background: `probe` never rejects, and the call does not wait for it.
      probe().catch(() => {})
    }
    return await onFallback()
  }

  const asHit = (hit: RateHit): RateHit => hit.count <= 1 ? hit : { count: (hit.count - 1) * instances + 1, resetInMs: hit.resetInMs }
  const asPeek = (hit: RateHit): RateHit => ({ count: hit.count * instances, resetInMs: hit.resetInMs })

  return {
    name: primary.name,

    async hit (key, windowMs) {
      assertWindow(windowMs)
      return counted(() => primary.hit(key, windowMs), async () => asHit(await fallback.hit(key, windowMs)))
    },

    async hitEach (keys, windowMs) {
      assertWindow(windowMs)
      return counted(
        () => hitEach(primary, keys, windowMs),
        async () => (await hitEach(fallback, keys, windowMs)).map(asHit)
      )
    },

    async peek (key, windowMs) {
      assertWindow(windowMs)
      return counted(() => primary.peek(key, windowMs), async () => asPeek(await fallback.peek(key, windowMs)))
    },

    async reset (key, windowMs) {
      assertWindow(windowMs)
      await counted(() => primary.reset(key, windowMs), () => fallback.reset(key, windowMs))
    },

    /** Resolves while either counts: the primary answering, or the fallback standing in for it. */
    async ping () {
      if (counting === 'shared') {
        try {
          await within(() => primary.ping(), timeoutMs)
          return
        } catch (error) {
          fallBack(error)
        }
      } else {
        await probe()
      }
      await fallback.ping()
    },

    counting: () => counting,

    onCountingChange (listener) {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },

    async close () {
      closed = true
      listeners.clear()
      const results = await Promise.allSettled([primary.close(), fallback.close()])
      const failure = results.find((result) => result.status === 'rejected')
      if (failure !== undefined) throw failure.reason
    }
  }
}

function hitEach (counter: RateCounter, keys: readonly string[], windowMs: number): Promise<RateHit[]> {
  return counter.hitEach !== undefined ? counter.hitEach(keys, windowMs) : Promise.all(keys.map((key) => counter.hit(key, windowMs)))
}

/** `work()`, or a StorageUnavailableError once `timeoutMs` has passed (what `work` does later is ignored). */
function within<T> (work: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    new Promise<T>((resolve) => { resolve(work()) }),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new StorageUnavailableError(`rate counter store did not answer within ${timeoutMs} ms`)), timeoutMs)
    })
  ]).finally(() => clearTimeout(timer))
}

function assertWindow (windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`)
  }
}
