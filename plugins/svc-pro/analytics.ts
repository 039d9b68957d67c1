import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { restError } from '../../errors/index.ts'
import {
  ANALYTICS_EVENT_TYPES, type AnalyticsEventInput, type AnalyticsEventType, type AnalyticsSummary
} from '../../schemas/svc-pro-analytics.ts'
import type { AnalyticsEvent } from '../../storage/types.ts'
import { currencyBlock } from '../../domain/money.ts'

const DAY_MS = 86_400_000
/** A summary spans at most this many days (a leap year). */
export const MAX_SUMMARY_DAYS = 366
/** The default summary: the last 30 days, today included. */
export const DEFAULT_SUMMARY_DAYS = 30
/** Retention on insert: at most one delete per instance in this time, of at most this many events. */
export const PRUNE_INTERVAL_MS = 60_000
export const PRUNE_BATCH = 10_000

/** Keyed-hash label: the visitor key is the signing secret's HMAC of it (see `visitorKey`). */
const VISITOR_KEY_LABEL = 'svc-analytics-visitor-key:v1'

const ADD_TYPES: ReadonlySet<AnalyticsEventType> = new Set(['recommendation_add', 'bundle_add', 'spotlight_add'])

/** Whether an event is an add to the cart from the drawer: counted by the add-to-cart rate and attributed revenue. */
export function isDrawerAdd (event: Pick<AnalyticsEventInput, 'type' | 'data'>): boolean {
  return ADD_TYPES.has(event.type) || (event.type === 'addon_toggle' && event.data?.active === true)
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay (date: Date): string {
  return date.toISOString().slice(0, 10)
}

function dayNumber (day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) / DAY_MS
}

function dayOf (number: number): string {
  return utcDay(new Date(number * DAY_MS))
}

function zeroCounts (): Record<AnalyticsEventType, number> {
  return Object.fromEntries(ANALYTICS_EVENT_TYPES.map((type) => [type, 0])) as Record<AnalyticsEventType, number>
}

function isKnownType (type: string): type is AnalyticsEventType {
  return (ANALYTICS_EVENT_TYPES as readonly string[]).includes(type)
}

/**
 * The summary's days: `to` defaults to today (UTC), `from` to 29 days before `to`. `from` after `to`, or more than
 * 366 days, is a 400 naming the parameter.
 */
export function summaryRange (query: { from?: string, to?: string }, now: Date): { from: string, to: string } {
  for (const name of ['from', 'to'] as const) {
    const day = query[name]
    // The schema's `date` format already refuses 2025-02-30; this keeps the arithmetic safe without it.
    if (day !== undefined && !(Number.isFinite(dayNumber(day)) && dayOf(dayNumber(day)) === day)) {
      throw restError('svc_invalid_params', `Invalid parameter(s): ${name}`, { params: { [name]: 'must be a date written YYYY-MM-DD' } })
    }
  }
  const to = query.to ?? utcDay(now)
  const from = query.from ?? dayOf(dayNumber(to) - (DEFAULT_SUMMARY_DAYS - 1))
  const days = dayNumber(to) - dayNumber(from) + 1
  if (days < 1) {
    throw restError('svc_invalid_params', 'Invalid parameter(s): from', { params: { from: 'must not be after to' } })
  }
  if (days > MAX_SUMMARY_DAYS) {
    throw restError('svc_invalid_params', 'Invalid parameter(s): to', { params: { to: `must be at most ${MAX_SUMMARY_DAYS} days from from (both included)` } })
  }
  return { from, to }
}

/**
 * The drawer's analytics: events recorded with a pseudonymous visitor, retention, and the summary, all through
 * storage (the counting is done by the database).
 *
 * The visitor is an HMAC-SHA256 of the cart key under a key derived from the shop's first signing secret, so
 * events of one cart share a visitor while neither the cart key nor an IP address is stored, and someone holding
 * only the database cannot link events to stored carts (unless the secret itself lives there, as the embedded
 * default's generated secret does). The key is an HMAC-SHA256 of a fixed label under the drawer's first secret
 * (`cartDrawer`'s `secrets`), in the signed-cookie form the platform's cookie signer gives the same label, so hashes
 * stored before the drawer held its own secrets stay valid; it is computed once and never sent anywhere. Rotating
 * the first secret starts new visitor hashes.
 */
/** `label.` + the label's HMAC-SHA256 in unpadded base64, under `secret`. */
function visitorKey (secret: string): string {
  return `${VISITOR_KEY_LABEL}.${createHmac('sha256', secret).update(VISITOR_KEY_LABEL).digest('base64').replace(/=+$/, '')}`
}

export class DrawerAnalytics {
  readonly #fastify: FastifyInstance
  readonly #visitorKey: string
  #lastPrune = Number.NEGATIVE_INFINITY

  constructor (fastify: FastifyInstance) {
    this.#fastify = fastify
    this.#visitorKey = visitorKey(fastify.drawerSecrets[0]!)
  }

  /** The stored name of the visitor holding `cartKey`. */
  visitorOf (cartKey: string): string {
    return createHmac('sha256', this.#visitorKey).update(cartKey).digest('hex')
  }

  /**
   * Stores a batch in one insert and returns how many were stored: 0, storing nothing, while analytics are off.
   * Times in the future or before the retention period become now. At most once a minute per instance, events
   * past the retention period are deleted (a bounded delete; a failure is logged, the events stay accepted).
   */
  async record (cartKey: string, events: readonly AnalyticsEventInput[]): Promise<number> {
    const { settings } = await this.#fastify.settings.get()
    if (!settings.analytics.enabled) return 0
    const now = this.#fastify.commerce.now()
    const oldest = now.getTime() - settings.analytics.retention_days * DAY_MS
    const visitor = this.visitorOf(cartKey)
    const rows: AnalyticsEvent[] = events.map((event) => {
      const at = event.occurred_at === undefined ? Number.NaN : Date.parse(event.occurred_at)
      const inRange = at >= oldest && at <= now.getTime()
      return {
        type: event.type,
        visitor,
        productId: event.product_id ?? null,
        value: event.value ?? 0,
        drawerAdd: isDrawerAdd(event),
        occurredAt: (inRange ? new Date(at) : now).toISOString(),
        data: event.data ?? {}
      }
    })
    const accepted = await this.#fastify.drawerStores.analytics.insertAnalyticsEvents(rows)
    await this.#pruneNowAndThen(now, oldest)
    return accepted
  }

  /**
   * Totals, the daily series (every day, zeros included), the add-to-cart rate and attributed revenue, and distinct
   * visitors of a range of UTC days. Expired events are deleted first, so none is counted.
   */
  async summary (range: { from: string, to: string }): Promise<AnalyticsSummary> {
    const { settings } = await this.#fastify.settings.get()
    const now = this.#fastify.commerce.now()
    await this.#fastify.drawerStores.analytics.deleteAnalyticsBefore(new Date(now.getTime() - settings.analytics.retention_days * DAY_MS).toISOString())
    const data = await this.#fastify.drawerStores.analytics.analyticsSummary(range.from, range.to)

    const first = dayNumber(range.from)
    const daily = Array.from({ length: dayNumber(range.to) - first + 1 }, (_, index) => ({ day: dayOf(first + index), counts: zeroCounts() }))
    const totals = zeroCounts()
    let adds = 0
    let revenue = 0n
    for (const row of data.days) {
      if (!isKnownType(row.type)) continue
      const day = daily[dayNumber(row.day) - first]
      if (day !== undefined) day.counts[row.type] += row.count
      totals[row.type] += row.count
      adds += row.adds
      revenue += BigInt(row.addValue)
    }
    const opens = totals.drawer_open
    return {
      from: range.from,
      to: range.to,
      totals,
      daily,
      drawer_adds: adds,
      add_to_cart_rate: opens === 0 ? 0 : adds / opens,
      attributed_revenue: revenue.toString(),
      currency: currencyBlock(this.#fastify.commerce.currency),
      visitors: data.visitors
    }
  }

  /** Deletes every event. */
  async reset (): Promise<number> {
    return this.#fastify.drawerStores.analytics.resetAnalytics()
  }

  async #pruneNowAndThen (now: Date, oldest: number): Promise<void> {
    // A clock that went back (tests reset theirs) counts as time passed.
    if (Math.abs(now.getTime() - this.#lastPrune) < PRUNE_INTERVAL_MS) return
    this.#lastPrune = now.getTime()
    try {
      await this.#fastify.drawerStores.analytics.deleteAnalyticsBefore(new Date(oldest).toISOString(), PRUNE_BATCH)
    } catch (error) {
      this.#fastify.log.warn({ err: error }, 'deleting expired analytics events failed; the next batch tries again')
      this.#lastPrune = Number.NEGATIVE_INFINITY
    }
  }
}
