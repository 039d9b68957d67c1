/** The `AnalyticsStore` contract: events stored in batches, summed per UTC day, followed per visitor, deleted by age. */
import { event } from '../../storage/fixtures/contract.ts'
import { drawerStoreContract } from './contract.ts'

drawerStoreContract('AnalyticsStore', 'analytics', async (t, storage) => {
  t.test('analytics', async (t) => {
    t.equal(await storage.insertAnalyticsEvents([]), 0)
    const inserted = await storage.insertAnalyticsEvents([
      event('add_to_cart', '2025-01-31T23:59:59.999Z'),
      event('add_to_cart', '2025-02-01T00:00:00.000Z', 'visitor-b'),
      event('add_to_cart', '2025-02-01T12:30:00.000Z'),
      { ...event('add_to_cart', '2025-02-01T13:00:00.000Z'), drawerAdd: false },
      event('view', '2025-02-01T23:00:00.000-02:00'),
      { ...event('checkout', '2025-02-02T08:00:00.000Z', null), productId: null, drawerAdd: true },
      { ...event('checkout', '2025-02-02T09:00:00.000Z', null), drawerAdd: true },
      event('view', '2025-02-03T00:00:00.000Z', 'visitor-c')
    ])
    t.equal(inserted, 8)
    t.strictSame(await storage.analyticsSummary('2025-02-01', '2025-02-02'), {
      days: [
        { day: '2025-02-01', type: 'add_to_cart', count: 3, adds: 2 },
        { day: '2025-02-02', type: 'checkout', count: 2, adds: 2 },
        { day: '2025-02-02', type: 'view', count: 1, adds: 0 }
      ],
      visitors: 2
    }, 'grouped by UTC day and type, both ends inclusive; visitors distinct, nulls not counted')
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
      { days: [{ day: '2025-05-01', type: 'view', count: 1, adds: 0 }], visitors: 1 })
    t.equal(await storage.resetAnalytics(), 1)
  })

  t.test('types left out of the visitors are still counted per day', async (t) => {
    await storage.insertAnalyticsEvents([
      event('open', '2025-06-01T10:00:00.000Z', 'visitor-a'),
      event('ordered', '2025-06-01T11:00:00.000Z', 'visitor-a'),
      event('ordered', '2025-06-01T12:00:00.000Z', 'visitor-b')
    ])
    t.strictSame(await storage.analyticsSummary('2025-06-01', '2025-06-01', ['ordered']), {
      days: [
        { day: '2025-06-01', type: 'open', count: 1, adds: 0 },
        { day: '2025-06-01', type: 'ordered', count: 2, adds: 0 }
      ],
      visitors: 1
    }, 'visitor-b only ordered: not a visitor')
    t.equal((await storage.analyticsSummary('2025-06-01', '2025-06-01')).visitors, 2, 'without the list, every visitor')
    t.equal(await storage.resetAnalytics(), 3)
  })

  t.test('analyticsFunnel: visitors who started, and those who ended at or after their first start, in the range', async (t) => {
    await storage.insertAnalyticsEvents([
      // a: opened, then ordered the same day.
      event('open', '2025-07-01T10:00:00.000Z', 'a'),
      event('ordered', '2025-07-01T10:30:00.000Z', 'a'),
      // b: ordered, then opened (and never ordered again): not converted.
      event('ordered', '2025-07-01T09:00:00.000Z', 'b'),
      event('open', '2025-07-01T09:30:00.000Z', 'b'),
      // c: opened twice, ordered between the opens: the first open counts.
      event('open', '2025-07-02T08:00:00.000Z', 'c'),
      event('ordered', '2025-07-02T08:00:00.000Z', 'c'),
      event('open', '2025-07-02T09:00:00.000Z', 'c'),
      // d: opened on the last day, ordered the day after the range.
      event('open', '2025-07-03T23:59:59.999Z', 'd'),
      event('ordered', '2025-07-04T00:00:00.000Z', 'd'),
      // e: only ordered; f: opened the day before the range, ordered inside it.
      event('ordered', '2025-07-02T12:00:00.000Z', 'e'),
      event('open', '2025-06-30T23:00:00.000Z', 'f'),
      event('ordered', '2025-07-01T01:00:00.000Z', 'f'),
      // No visitor, or another type: never counted.
      event('open', '2025-07-01T10:00:00.000Z', null),
      event('view', '2025-07-01T10:00:00.000Z', 'g')
    ])
    t.strictSame(await storage.analyticsFunnel('2025-07-01', '2025-07-03', 'open', 'ordered'), { started: 4, converted: 2 },
      'a and c (an end at the very instant of the start counts); b ended before, d after the range')
    t.strictSame(await storage.analyticsFunnel('2025-07-01', '2025-07-04', 'open', 'ordered'), { started: 4, converted: 3 }, 'with the 4th, d too')
    t.strictSame(await storage.analyticsFunnel('2025-06-30', '2025-07-01', 'open', 'ordered'), { started: 3, converted: 2 }, 'a, b and f started; a and f ended')
    t.strictSame(await storage.analyticsFunnel('2025-08-01', '2025-08-31', 'open', 'ordered'), { started: 0, converted: 0 })
    t.equal(await storage.resetAnalytics(), 14)
  })
})
