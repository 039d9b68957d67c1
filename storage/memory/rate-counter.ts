import type { RateCounter, RateHit } from '../contract/index.ts'

export interface MemoryRateCounterOptions {
  /** Clock in milliseconds; tests inject one to move time without sleeping. */
  now?: () => number
  sweepIntervalMs?: number
}

interface Window {
  count: number
  resetAt: number
}

export function createMemoryRateCounter (options: MemoryRateCounterOptions = {}): RateCounter {
  const { now = Date.now, sweepIntervalMs = 60_000 } = options
  const windows = new Map<string, Window>()
  let closed = false

  const sweep = (): void => {
    const time = now()
    for (const [key, window] of windows) {
      if (window.resetAt <= time) windows.delete(key)
    }
  }
  const sweeper = setInterval(sweep, sweepIntervalMs)
  sweeper.unref()

  const assertOpen = (): void => {
    if (closed) throw new Error('memory rate counter is closed')
  }

  const hit = (key: string, windowMs: number): RateHit => {
    const time = now()
    const mapKey = `${windowMs}:${key}`
    let window = windows.get(mapKey)
    if (window === undefined || window.resetAt <= time) {
      window = { count: 0, resetAt: time + windowMs }
      windows.set(mapKey, window)
    }
    window.count += 1
    return { count: window.count, resetInMs: window.resetAt - time }
  }

  return {
    name: 'memory',

    async hit (key: string, windowMs: number): Promise<RateHit> {
      assertOpen()
      assertWindow(windowMs)
      return hit(key, windowMs)
    },

    async hitEach (keys: readonly string[], windowMs: number): Promise<RateHit[]> {
      assertOpen()
      assertWindow(windowMs)
      return keys.map((key) => hit(key, windowMs))
    },

    async peek (key: string, windowMs: number): Promise<RateHit> {
      assertOpen()
      assertWindow(windowMs)
      const time = now()
      const window = windows.get(`${windowMs}:${key}`)
      return window === undefined || window.resetAt <= time ? { count: 0, resetInMs: 0 } : { count: window.count, resetInMs: window.resetAt - time }
    },

    async reset (key: string, windowMs: number): Promise<void> {
      assertOpen()
      assertWindow(windowMs)
      windows.delete(`${windowMs}:${key}`)
    },

    async ping (): Promise<void> {
      assertOpen()
    },

    async close (): Promise<void> {
      closed = true
      clearInterval(sweeper)
      windows.clear()
    }
  }
}

function assertWindow (windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`)
  }
}
