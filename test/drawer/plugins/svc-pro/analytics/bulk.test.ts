import type { AnalyticsEvent, AnalyticsSummaryData } from '../../../../../storage/contract/index.ts'
import { adminLogin, DAY, EVENT_TYPES, onEveryBackend, storedCount, summary, type Json } from './helpers.ts'

/**
 * A summary over 100,000 events: the events go in through the storage API in batches of
 * 10,000 (one statement each), the summary comes from the database's GROUP BY — the storage answers a row per day
 * and type, never the events — and every figure is checked against the same data counted here.
 */

const TOTAL = 100_000
const BATCH = 10_000
const FIRST_DAY = Date.parse('2025-02-20T00:00:00.000Z')
const DAYS = 20
const VISITORS = 1237
const ADD_TYPES = new Set(['recommendation_add', 'bundle_add', 'spotlight_add'])

/** The i-th event: days, types and visitors cycle at different periods so every combination occurs. */
function eventAt (i: number): AnalyticsEvent {
  const type = EVENT_TYPES[i % EVENT_TYPES.length]!
  const active = i % 2 === 0
  return {
    type,
    visitor: `visitor-${(i * 7) % VISITORS}`,
    productId: 100 + (i % 9),
    // The rule of the issue: recommendation_add, addon_toggle with active: true, bundle_add and spotlight_add.
    drawerAdd: ADD_TYPES.has(type) || (type === 'addon_toggle' && active),
    occurredAt: new Date(FIRST_DAY + (i % DAYS) * DAY + (i * 997) % DAY).toISOString(),
    data: type === 'addon_toggle' ? { active } : {}
  }
}

onEveryBackend('a summary over 100,000 events', async (t, { app, storage, sql }) => {
  for (let start = 0; start < TOTAL; start += BATCH) {
    const batch = Array.from({ length: BATCH }, (_, offset) => eventAt(start + offset))
    t.equal(await storage.insertAnalyticsEvents(batch), BATCH, `events ${start} to ${start + BATCH - 1} in one insert`)
  }
  t.equal(await storedCount(sql), TOTAL, '100,000 events stored')

  const answered: AnalyticsSummaryData[] = []
  const original = storage.analyticsSummary.bind(storage)
  storage.analyticsSummary = async (from, to) => {
    const data = await original(from, to)
    answered.push(data)
    return data
  }
  const admin = await adminLogin(app)

  for (const [from, to] of [['2025-02-20', '2025-03-11'], ['2025-02-22', '2025-03-09'], ['2025-02-01', '2025-03-15']] as const) {
    t.test(`${from} to ${to}`, async (t) => {
      const expected = { totals: {} as Record<string, number>, daily: new Map<string, Record<string, number>>(), adds: 0, visitors: new Set<string>() }
      for (const type of EVENT_TYPES) expected.totals[type] = 0
      for (let i = 0; i < TOTAL; i++) {
        const event = eventAt(i)
        const day = event.occurredAt.slice(0, 10)
        if (day < from || day > to) continue
        expected.totals[event.type]! += 1
        const counts = expected.daily.get(day) ?? Object.fromEntries(EVENT_TYPES.map((type) => [type, 0]))
        counts[event.type]! += 1
        expected.daily.set(day, counts)
        if (event.drawerAdd) expected.adds += 1
        expected.visitors.add(event.visitor!)
      }

      const result = await summary(app, admin, `?from=${from}&to=${to}`)
      const last = answered.at(-1)!
      t.ok(last.days.length <= result.daily.length * EVENT_TYPES.length, `storage answered ${last.days.length} grouped rows, not the events`)
      t.same(result.totals, expected.totals, 'totals per type')
      t.equal(Object.values(result.totals as Record<string, number>).reduce((sum, count) => sum + count, 0), [...expected.daily.values()].reduce((sum, counts) => sum + Object.values(counts).reduce((a, b) => a + b, 0), 0))
      const days = (result.daily as Json[]).filter((day) => Object.values(day.counts).some((count) => count !== 0)).map((day) => ({ day: day.day, counts: day.counts }))
      t.same(days, [...expected.daily.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, counts]) => ({ day, counts })), 'every day with events, exactly')
      t.equal(result.daily.length, (Date.parse(to) - Date.parse(from)) / DAY + 1, 'and every other day of the range with zeros')
      t.equal(result.drawer_adds, expected.adds, 'drawer adds')
      t.equal(result.add_to_cart_rate, expected.adds / expected.totals.drawer_open!, 'add-to-cart rate')
      t.equal(result.attributed_revenue, '0', 'attributed revenue: no order was placed, whatever the events say')
      t.equal(result.visitors, expected.visitors.size, 'distinct visitors')
    })
  }

  t.test('the full data set, figure by figure', async (t) => {
    const result = await summary(app, admin, '?from=2025-02-20&to=2025-03-11')
    // Written out: 100,000 events over 9 types → 11,112 of the first type, 11,111 of each other.
    t.equal(result.totals.drawer_open, 11_112)
    t.equal(result.totals.checkout_click, 11_111)
    t.equal(result.visitors, VISITORS)
    t.equal(result.daily.length, DAYS)
    t.ok(result.daily.every((day: Json) => Object.values(day.counts as Record<string, number>).reduce((a, b) => a + b, 0) === TOTAL / DAYS), '5,000 events a day')
  })
})
