import type {
  AnalyticsDayCount, AnalyticsEvent, AnalyticsFunnel, AnalyticsStore, AnalyticsSummaryData, SettingsStore, StoredSettings
} from 'cart-drawer-service/storage'

/**
 * The drawer's own data kept in memory (lost on restart, one process only): its settings document and its analytics
 * events. A shop with a database gives `cartDrawer` its own `SettingsStore` and `AnalyticsStore` instead.
 */
export class MemorySettingsStore implements SettingsStore {
  #stored: StoredSettings | null = null

  /** The stored version, 0 while nothing is stored (what `CartRead.settingsVersion` must carry). */
  get version (): number {
    return this.#stored?.version ?? 0
  }

  async getSettings (): Promise<StoredSettings | null> {
    return this.#stored === null ? null : structuredClone(this.#stored)
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    if (expectedVersion !== undefined && expectedVersion !== this.version) return null
    this.#stored = { document: structuredClone(document), version: this.version + 1 }
    return structuredClone(this.#stored)
  }
}

const dayOf = (iso: string): string => new Date(iso).toISOString().slice(0, 10)

export class MemoryAnalyticsStore implements AnalyticsStore {
  #events: AnalyticsEvent[] = []

  async insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> {
    this.#events.push(...structuredClone(events))
    return events.length
  }

  async analyticsSummary (from: string, to: string, notVisits: readonly string[] = []): Promise<AnalyticsSummaryData> {
    const groups = new Map<string, AnalyticsDayCount>()
    const visitors = new Set<string>()
    for (const event of this.#events) {
      const day = dayOf(event.occurredAt)
      if (day < from || day > to) continue
      if (event.visitor !== null && !notVisits.includes(event.type)) visitors.add(event.visitor)
      const id = `${day}\u0000${event.type}`
      const group = groups.get(id) ?? { day, type: event.type, count: 0, adds: 0 }
      group.count++
      if (event.drawerAdd) group.adds++
      groups.set(id, group)
    }
    const days = [...groups.values()].sort((a, b) => a.day.localeCompare(b.day) || a.type.localeCompare(b.type))
    return { days, visitors: visitors.size }
  }

  async analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    const firstStart = new Map<string, number>()
    const lastEnd = new Map<string, number>()
    for (const event of this.#events) {
      const day = dayOf(event.occurredAt)
      if (day < from || day > to || event.visitor === null) continue
      const at = Date.parse(event.occurredAt)
      if (event.type === start) firstStart.set(event.visitor, Math.min(at, firstStart.get(event.visitor) ?? at))
      if (event.type === end) lastEnd.set(event.visitor, Math.max(at, lastEnd.get(event.visitor) ?? at))
    }
    const converted = [...firstStart].filter(([visitor, at]) => (lastEnd.get(visitor) ?? Number.NEGATIVE_INFINITY) >= at).length
    return { started: firstStart.size, converted }
  }

  async deleteAnalyticsBefore (before: string, limit?: number): Promise<number> {
    const cutoff = Date.parse(before)
    const old = this.#events.filter((event) => Date.parse(event.occurredAt) < cutoff)
      .sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt))
      .slice(0, limit ?? Number.POSITIVE_INFINITY)
    const removing = new Set(old)
    this.#events = this.#events.filter((event) => !removing.has(event))
    return old.length
  }

  async resetAnalytics (): Promise<number> {
    const count = this.#events.length
    this.#events = []
    return count
  }
}
