import type {
  AnalyticsDayCount, AnalyticsEvent, AnalyticsStore, AnalyticsSummaryData, SettingsStore, StoredSettings
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

  async analyticsSummary (from: string, to: string): Promise<AnalyticsSummaryData> {
    const groups = new Map<string, AnalyticsDayCount & { sum: bigint }>()
    const visitors = new Set<string>()
    for (const event of this.#events) {
      const day = dayOf(event.occurredAt)
      if (day < from || day > to) continue
      if (event.visitor !== null) visitors.add(event.visitor)
      const id = `${day}\u0000${event.type}`
      const group = groups.get(id) ?? { day, type: event.type, count: 0, adds: 0, addValue: '0', sum: 0n }
      group.count++
      if (event.drawerAdd) {
        group.adds++
        group.sum += BigInt(event.value)
      }
      groups.set(id, group)
    }
    const days = [...groups.values()]
      .sort((a, b) => a.day.localeCompare(b.day) || a.type.localeCompare(b.type))
      .map(({ sum, ...group }) => ({ ...group, addValue: sum.toString() }))
    return { days, visitors: visitors.size }
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
