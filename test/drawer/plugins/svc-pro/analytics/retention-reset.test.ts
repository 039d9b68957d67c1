import { StorageUnavailableError } from '../../../../../storage/contract/index.ts'
import { asAdmin, asGuest, expectError, expectNoStore, login, USERS } from '../../../../helpers/security.ts'
import {
  adminLogin, adminRequest, counts, DAY, guestToken, onEveryBackend, postEvents, record, saveSettings, START, storedCount,
  storedEvents, summary, svcRequest
} from './helpers.ts'

/** `DELETE svc/v1/analytics/reset` and the retention of `settings.analytics.retention_days`. */

const iso = (ms: number): string => new Date(ms).toISOString()

onEveryBackend('DELETE analytics/reset', async (t, { app, sql }) => {
  const token = await guestToken(app)
  await record(app, token, [{ type: 'drawer_open' }, { type: 'bundle_add', value: 10 }, { type: 'drawer_close' }])
  const admin = await adminLogin(app)

  const shopper = await login(app, USERS.shopper)
  expectError(t, await svcRequest(app, 'DELETE', 'analytics/reset', asGuest(token)), 401, 'svc_not_logged_in', 'a guest')
  expectError(t, await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(shopper)), 403, 'svc_forbidden', 'a shopper')
  expectError(t, await svcRequest(app, 'DELETE', 'analytics/reset', { cookie: admin.cookie }), 403, 'svc_invalid_nonce', 'no nonce')
  t.equal(await storedCount(sql), 3, 'refused resets deleted nothing')

  const response = await adminRequest(app, admin, 'DELETE', 'analytics/reset')
  t.equal(response.statusCode, 200, { body: response.body })
  t.same(response.json(), { deleted: 3 })
  expectNoStore(t, response)
  t.equal(response.headers['x-ratelimit-limit'], '5', '5 per hour')
  t.equal(await storedCount(sql), 0)
  const after = await summary(app, admin)
  t.same([after.totals, after.visitors, after.drawer_adds], [counts(), 0, 0], 'the summary is empty')
  t.same((await adminRequest(app, admin, 'DELETE', 'analytics/reset')).json(), { deleted: 0 }, 'again: nothing to delete')
})

onEveryBackend('retention', async (t, { app, sql, clock, storage }) => {
  let admin = await adminLogin(app)
  await saveSettings(app, admin, { analytics: { retention_days: 7 } })

  t.test('a summary never counts events past the retention period: they are deleted first', async (t) => {
    await record(app, await guestToken(app), [{ type: 'drawer_open' }, { type: 'drawer_open' }, { type: 'recommendation_add', value: 500 }])
    clock.advance(3 * DAY)
    await record(app, await guestToken(app), [{ type: 'drawer_open' }, { type: 'bundle_add', value: 700 }])
    admin = await adminLogin(app) // nonces live 12 to 24 hours
    const before = await summary(app, admin, '?from=2025-03-01&to=2025-03-31')
    t.same([before.totals.drawer_open, before.drawer_adds, before.visitors, before.retention_days], [3, 2, 2, 7], 'day 3: all five')

    clock.advance(4 * DAY + 1000) // the first three are now 7 days and 1 s old
    admin = await adminLogin(app)
    const after = await summary(app, admin, '?from=2025-03-01&to=2025-03-31')
    t.same([after.totals.drawer_open, after.drawer_adds, after.visitors], [1, 1, 1], 'day 7: the first batch is gone')
    t.same((await storedEvents(sql)).map((row) => [row.type, row.occurred_at]), [
      ['drawer_open', iso(START + 3 * DAY)], ['bundle_add', iso(START + 3 * DAY)]
    ], 'deleted from storage, not only left out')
    await adminRequest(app, admin, 'DELETE', 'analytics/reset')
  })

  t.test('a batch deletes expired events, at most once a minute per instance', async (t) => {
    const now = clock.now().getTime()
    // Inside the retention period by 10 s when recorded.
    await record(app, await guestToken(app), [{ type: 'drawer_open', occurred_at: iso(now - 7 * DAY + 10_000) }, { type: 'drawer_open' }])
    t.equal(await storedCount(sql), 2)

    clock.advance(30_000) // the first event is now 20 s past the period; the last delete ran 30 s ago
    await record(app, await guestToken(app), [{ type: 'drawer_close' }])
    t.equal(await storedCount(sql), 3, 'within the minute, a batch deletes nothing')

    clock.advance(31_000)
    await record(app, await guestToken(app), [{ type: 'drawer_close' }])
    t.same((await storedEvents(sql)).map((row) => row.type), ['drawer_open', 'drawer_close', 'drawer_close'], 'a minute later, the expired event went')
    await adminRequest(app, admin, 'DELETE', 'analytics/reset')
  })

  t.test('the retention setting applies at once', async (t) => {
    await record(app, await guestToken(app), [{ type: 'drawer_open', occurred_at: iso(clock.now().getTime() - 6 * DAY) }, { type: 'drawer_open' }])
    t.equal((await summary(app, admin, '?from=2025-03-01&to=2025-03-31')).totals.drawer_open, 2)
    await saveSettings(app, admin, { analytics: { retention_days: 5 } })
    t.equal((await summary(app, admin, '?from=2025-03-01&to=2025-03-31')).totals.drawer_open, 1, 'down to 5 days: the 6-day-old open is gone')
    t.equal(await storedCount(sql), 1)
  })

  t.test('a failing retention delete does not fail the batch', async (t) => {
    await adminRequest(app, admin, 'DELETE', 'analytics/reset')
    const original = storage.deleteAnalyticsBefore.bind(storage)
    let calls = 0
    storage.deleteAnalyticsBefore = async () => {
      calls++
      throw new StorageUnavailableError('database down')
    }
    t.teardown(() => { storage.deleteAnalyticsBefore = original })
    clock.advance(61_000)
    const response = await postEvents(app, await guestToken(app), { events: [{ type: 'drawer_open' }] })
    t.equal(response.statusCode, 202, 'accepted', { body: response.body })
    t.same(response.json(), { accepted: 1 })
    t.equal(calls, 1, 'the delete was tried')
    t.equal(await storedCount(sql), 1, 'the event is stored')
    await postEvents(app, await guestToken(app), { events: [{ type: 'drawer_open' }] })
    t.equal(calls, 2, 'after a failure the next batch tries again at once')
  })
})
