import { DAY_MS, dayStart, instant, jsonCopy } from '../../../kernel/lib/index.ts'
import type { AnalyticsDayCount, AnalyticsEvent, AnalyticsFunnel, AnalyticsStore, AnalyticsSummaryData } from '../../../storage/contract/index.ts'
import { assign, STANDALONE_HOST, type MemoryStoreHost } from './host.ts'

interface EventRecord {
  readonly id: number
  /** `occurredAt` in milliseconds. */
  readonly at: number
  /** Its UTC day, `YYYY-MM-DD`. */
  readonly day: string
  readonly event: AnalyticsEvent
}

/** `AnalyticsStore` in memory: events by id, with their instant and UTC day. */
export class MemoryAnalyticsStore implements AnalyticsStore {
  readonly #host: MemoryStoreHost
  readonly #events = new Map<number, EventRecord>()
  #nextId = 1

  constructor (host: MemoryStoreHost = STANDALONE_HOST) {
    this.#host = host
  }

  async insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> {
    this.#host.assertOpen()
    // Checked whole before any is stored: a batch is stored whole or not at all.
    const records = events.map((event): Omit<EventRecord, 'id'> => {
      if (typeof event.type !== 'string') throw new TypeError('an event type must be a string')
      if (event.productId !== null && !Number.isSafeInteger(event.productId)) throw new RangeError(`an event's productId must be an integer or null, got ${event.productId}`)
      if (typeof event.drawerAdd !== 'boolean') throw new TypeError('an event\'s drawerAdd must be a boolean')
      const at = instant(event.occurredAt, 'occurredAt')
      return { at, day: new Date(at).toISOString().slice(0, 10), event: jsonCopy({ ...event, data: event.data ?? {} }) }
    })
    for (const record of records) {
      const id = this.#nextId++
      assign(this.#host, this.#events, id, { ...record, id })
    }
    return records.length
  }

  async analyticsSummary (from: string, to: string, notVisits: readonly string[] = []): Promise<AnalyticsSummaryData> {
    this.#host.assertOpen()
    const start = dayStart(from, 'from')
    const end = dayStart(to, 'to') + DAY_MS
    const groups = new Map<string, AnalyticsDayCount>()
    const visitors = new Set<string>()
    for (const { at, day, event } of this.#events.values()) {
      if (at < start || at >= end) continue
      if (event.visitor !== null && !notVisits.includes(event.type)) visitors.add(event.visitor)
      const id = `${day}\u0000${event.type}`
      let group = groups.get(id)
      if (group === undefined) {
        group = { day, type: event.type, count: 0, adds: 0 }
        groups.set(id, group)
      }
      group.count++
      if (event.drawerAdd) group.adds++
    }
    const byDayThenType = (a: { day: string, type: string }, b: { day: string, type: string }): number =>
      a.day < b.day ? -1 : a.day > b.day ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0
    return { days: [...groups.values()].sort(byDayThenType), visitors: visitors.size }
  }

  async analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    this.#host.assertOpen()
    const first = dayStart(from, 'from')
    const last = dayStart(to, 'to') + DAY_MS
    const visitors = new Map<string, { started: number, ended: number }>()
    for (const { at, event } of this.#events.values()) {
      if (at < first || at >= last || event.visitor === null || (event.type !== start && event.type !== end)) continue
      const times = visitors.get(event.visitor) ?? { started: Number.POSITIVE_INFINITY, ended: Number.NEGATIVE_INFINITY }
      if (event.type === start) times.started = Math.min(times.started, at)
      if (event.type === end) times.ended = Math.max(times.ended, at)
      visitors.set(event.visitor, times)
    }
    const started = [...visitors.values()].filter((times) => times.started !== Number.POSITIVE_INFINITY)
    return { started: started.length, converted: started.filter((times) => times.ended >= times.started).length }
  }

  async deleteAnalyticsBefore (before: string, limit?: number): Promise<number> {
    this.#host.assertOpen()
    const cutoff = instant(before, 'before')
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RangeError(`limit must be a whole number, got ${limit}`)
    }
    const old = [...this.#events.values()].filter((record) => record.at < cutoff)
      .sort((a, b) => a.at - b.at || a.id - b.id)
      .slice(0, limit)
    for (const record of old) assign(this.#host, this.#events, record.id, undefined)
    return old.length
  }

  async resetAnalytics (): Promise<number> {
    this.#host.assertOpen()
    const ids = [...this.#events.keys()]
    for (const id of ids) assign(this.#host, this.#events, id, undefined)
    return ids.length
  }
}
