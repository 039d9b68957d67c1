/** The `AnalyticsStore` contract: events stored in batches, summed per UTC day, deleted by age. */
import { contract, event } from './fixtures/contract.ts'

contract('AnalyticsStore', async (t, storage) => {
  t.test('analytics', async (t) => {
    t.equal(await storage.insertAnalyticsEvents([]), 0)
    const inserted = await storage.insertAnalyticsEvents([
      event('add_to_cart', '2025-01-31T23:59:59.999Z', 100),
      event('add_to_cart', '2025-02-01T00:00:00.000Z', 250, 'visitor-b'),
      event('add_to_cart', '2025-02-01T12:30:00.000Z', 50),
      { ...event('add_to_cart', '2025-02-01T13:00:00.000Z', 70), drawerAdd: false },
      event('view', '2025-02-01T23:00:00.000-02:00', 5),
      { ...event('checkout', '2025-02-02T08:00:00.000Z', 9_000_000_000, null), productId: null, drawerAdd: true },
      { ...event('checkout', '2025-02-02T09:00:00.000Z', 9_000_000_000, null), drawerAdd: true },
      event('view', '2025-02-03T00:00:00.000Z', 0, 'visitor-c')
    ])
    t.equal(inserted, 8)
    t.strictSame(await storage.analyticsSummary('2025-02-01', '2025-02-02'), {
      days: [
        { day: '2025-02-01', type: 'add_to_cart', count: 3, adds: 2, addValue: '300' },
        { day: '2025-02-02', type: 'checkout', count: 2, adds: 2, addValue: '18000000000' },
        { day: '2025-02-02', type: 'view', count: 1, adds: 0, addValue: '0' }
      ],
      visitors: 2
    }, 'grouped by UTC day and type, both ends inclusive; sums exact beyond 2^32; visitors distinct, nulls not counted')
    t.strictSame(await storage.analyticsSummary('2024-01-01', '2024-12-31'), { days: [], visitors: 0 })

    t.equal(await storage.deleteAnalyticsBefore('2025-02-01T00:00:00.000Z', 5), 1, 'only events before the instant')
    t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z', 2), 2, 'at most the limit, oldest first')
    t.strictSame((await storage.analyticsSummary('2025-01-01', '2025-12-31')).days.map((row) => [row.day, row.type, row.count]), [
      ['2025-02-01', 'add_to_cart', 1],
      ['2025-02-02', 'checkout', 2],
      ['2025-02-02', 'view', 1],
      ['2025-02-03', 'view', 1]
    ], 'the two oldest remaining went')
    t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z'), 3, 'without a limit, every one before the instant')
    t.equal(await storage.deleteAnalyticsBefore('2025-02-02T08:30:00.000Z'), 0)

    t.equal(await storage.resetAnalytics(), 2)
    t.strictSame(await storage.analyticsSummary('2025-01-01', '2025-12-31'), { days: [], visitors: 0 })
    t.equal(await storage.resetAnalytics(), 0)
  })

  t.test('a limit of 0 deletes nothing; a batch with a bad event stores none', async (t) => {
    await storage.insertAnalyticsEvents([event('view', '2025-05-01T10:00:00.000Z')])
    t.equal(await storage.deleteAnalyticsBefore('2025-06-01T00:00:00.000Z', 0), 0)
    await t.rejects(storage.insertAnalyticsEvents([event('view', '2025-05-02T10:00:00.000Z'), event('view', 'not a time')]))
    t.strictSame(await storage.analyticsSummary('2025-05-01', '2025-05-31'),
      { days: [{ day: '2025-05-01', type: 'view', count: 1, adds: 0, addValue: '0' }], visitors: 1 })
    t.equal(await storage.resetAnalytics(), 1)
  })
})
