import type { Api } from './api.ts'
import { ApiError } from './errors.ts'
import type { AnalyticsEvent } from './types.ts'

const MAX_BATCH = 50
const MAX_QUEUE = 500
const FLUSH_MS = 10_000

/**
 * Drawer events (Pro) sent in batches of at most 50 to `POST svc/v1/analytics/events`: every 10 seconds while there
 * are some, and when the page is hidden or left (`keepalive`, so the request outlives the page). A server without
 * the route (404, 501) or refusing the visitor (403) turns analytics off for the page; a 429 keeps the events for
 * the next flush; any other refusal drops the batch (it would be refused again).
 */
export class Analytics {
  readonly #api: Api
  #queue: AnalyticsEvent[] = []
  #timer = 0
  #off = false

  constructor (api: Api, enabled: boolean) {
    this.#api = api
    this.#off = !enabled
    if (this.#off) return
    const leave = () => { this.flush(true) }
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') leave() })
    window.addEventListener('pagehide', leave)
  }

  track (type: AnalyticsEvent['type'], details: Omit<AnalyticsEvent, 'type' | 'occurred_at'> = {}): void {
    if (this.#off) return
    if (this.#queue.length >= MAX_QUEUE) this.#queue.shift()
    this.#queue.push({ type, occurred_at: new Date().toISOString(), ...details })
    if (this.#timer === 0) this.#timer = window.setTimeout(() => { this.flush(false) }, FLUSH_MS)
  }

  /** Sends everything queued; `leaving` uses `fetch(…, {keepalive: true})`. */
  flush (leaving: boolean): void {
    clearTimeout(this.#timer)
    this.#timer = 0
    if (this.#off || !this.#api.hasToken) return
    while (this.#queue.length > 0) {
      const events = this.#queue.splice(0, MAX_BATCH)
      this.#api.svc('POST', 'analytics/events', { events }, { keepalive: leaving }).catch((error: unknown) => {
        if (!(error instanceof ApiError)) return
        if (error.status === 404 || error.status === 501 || error.status === 403) this.#off = true
        else if (error.status === 429 || error.status === 0) {
          this.#queue.unshift(...events)
          if (!leaving && this.#timer === 0) this.#timer = window.setTimeout(() => { this.flush(false) }, FLUSH_MS)
        }
      })
    }
  }
}
