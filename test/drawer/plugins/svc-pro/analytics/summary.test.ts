import { asAdmin, asGuest, expectError, expectNoStore, login, USERS } from '../../../../helpers/security.ts'
import {
  adminLogin, adminRequest, counts, DAY, guestToken, onEveryBackend, record, summary, svcRequest, USD, type Json
} from './helpers.ts'

/** `GET svc/v1/analytics/summary` (design §3.7). */

const iso = (ms: number): string => new Date(ms).toISOString()

/** Every day from `from` to `to` with zero counts and no orders, overlaid with `given` (day → counts). */
function dailyOf (from: string, to: string, given: Record<string, Record<string, number>> = {}): Json[] {
  const days: Json[] = []
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += DAY) {
    const day = iso(time).slice(0, 10)
    days.push({ day, counts: counts(given[day]), orders: 0, drawer_orders: 0, attributed_revenue: '0' })
  }
  return days
}

/** The report's order figures without any order (they come from placed orders only). */
const NO_ORDERS = {
  attributed_revenue: '0',
  attributed_units: 0,
  orders: { placed: 0, with_drawer_items: 0, net_sales: '0', average_order_value: '0', drawer_average_order_value: '0' },
  sources: ['recommendation', 'spotlight', 'addon', 'bundle'].map((source) => ({ source, units: 0, orders: 0, revenue: '0' })),
  top_products: []
}

onEveryBackend('GET analytics/summary on a known data set', async (t, { app }) => {
  const [a, b, c] = [await guestToken(app), await guestToken(app), await guestToken(app)]
  await record(app, a, [
    { type: 'drawer_open', occurred_at: '2025-03-09T23:59:59.999Z' },
    { type: 'drawer_open', occurred_at: '2025-03-10T00:00:00.000Z' },
    { type: 'drawer_open', occurred_at: '2025-03-10T08:00:00Z' },
    { type: 'recommendation_add', product_id: 101, value: 1500, occurred_at: '2025-03-10T08:01:00Z' },
    { type: 'addon_toggle', product_id: 104, value: 300, occurred_at: '2025-03-10T08:02:00Z', data: { active: true } },
    { type: 'addon_toggle', product_id: 104, value: 300, occurred_at: '2025-03-10T08:03:00Z', data: { active: false } },
    { type: 'drawer_close', occurred_at: '2025-03-10T08:04:00Z' }
  ])
  await record(app, b, [
    { type: 'drawer_open', occurred_at: '2025-03-10T20:00:00Z' },
    { type: 'recommendation_view', product_id: 102, occurred_at: '2025-03-10T20:00:01Z' },
    { type: 'bundle_add', value: 4200, occurred_at: '2025-03-10T20:02:00Z', data: { bundle_id: 'starter' } },
    { type: 'drawer_close', occurred_at: '2025-03-12T01:30:00+02:00' },
    { type: 'drawer_open', occurred_at: '2025-03-12T09:00:00Z' },
    { type: 'spotlight_add', product_id: 105, value: 999, occurred_at: '2025-03-12T09:01:00Z' },
    { type: 'coupon_apply', occurred_at: '2025-03-12T09:02:00Z', data: { code: 'save10' } },
    { type: 'checkout_click', value: 12000, occurred_at: '2025-03-12T09:03:00Z' }
  ])
  await record(app, c, [
    { type: 'drawer_open', occurred_at: '2025-03-12T23:59:59.999Z' },
    { type: 'recommendation_add', product_id: 103, value: 1, occurred_at: '2025-03-13T00:00:00.000Z' }
  ])
  const admin = await adminLogin(app)

  t.test('totals, every day of the range, the rate and the visitors, exactly; the events\' values count for nothing', async (t) => {
    const response = await adminRequest(app, admin, 'GET', 'analytics/summary?from=2025-03-10&to=2025-03-12')
    t.equal(response.statusCode, 200, 'answered', { body: response.body })
    expectNoStore(t, response)
    t.same(response.json(), {
      from: '2025-03-10',
      to: '2025-03-12',
      totals: {
        drawer_open: 5,
        drawer_close: 2,
        recommendation_view: 1,
        recommendation_add: 1,
        addon_toggle: 2,
        bundle_add: 1,
        spotlight_add: 1,
        coupon_apply: 1,
        checkout_click: 1
      },
      daily: dailyOf('2025-03-10', '2025-03-12', {
        '2025-03-10': { drawer_open: 3, recommendation_add: 1, addon_toggle: 2, drawer_close: 1, recommendation_view: 1, bundle_add: 1 },
        '2025-03-11': { drawer_close: 1 },
        '2025-03-12': { drawer_open: 2, spotlight_add: 1, coupon_apply: 1, checkout_click: 1 }
      }),
      // recommendation_add + addon_toggle (active) + bundle_add + spotlight_add = 4 adds over 5 opens.
      drawer_adds: 4,
      add_to_cart_rate: 0.8,
      // The adds' values (1500 + 300 + 4200 + 999) are ignored: no order, no attributed revenue.
      ...NO_ORDERS,
      // a, b and c opened the drawer; none of their carts placed an order.
      conversion: { carts_opened: 3, carts_ordered: 0, rate: 0 },
      currency: USD,
      visitors: 3,
      retention_days: 90
    })
    t.same(Object.keys(response.json().totals), ['drawer_open', 'drawer_close', 'recommendation_view', 'recommendation_add',
      'addon_toggle', 'bundle_add', 'spotlight_add', 'coupon_apply', 'checkout_click'], 'every type, in a fixed order')
  })

  t.test('both ends are whole UTC days', async (t) => {
    const wide = await summary(app, admin, '?from=2025-03-09&to=2025-03-13')
    t.equal(wide.totals.drawer_open, 6, 'the open at 23:59:59.999 on the 9th')
    t.equal(wide.totals.recommendation_add, 2, 'the add at midnight on the 13th')
    t.equal(wide.drawer_adds, 5)
    t.equal(wide.attributed_revenue, '0', 'the values sent with the adds are not revenue')
    t.equal(wide.add_to_cart_rate, 5 / 6)
    t.equal(wide.daily.length, 5)
    const single = await summary(app, admin, '?from=2025-03-11&to=2025-03-11')
    t.same(single.daily, dailyOf('2025-03-11', '2025-03-11', { '2025-03-11': { drawer_close: 1 } }), 'a one-day range')
    t.same(single.totals, counts({ drawer_close: 1 }))
    t.equal(single.add_to_cart_rate, 0, 'no opens: the rate is 0')
    t.equal(single.attributed_revenue, '0')
    t.equal(single.visitors, 1, 'b\'s close, written +02:00, is on the 11th in UTC')
    const empty = await summary(app, admin, '?from=2024-01-01&to=2024-12-31')
    t.equal(empty.daily.length, 366, 'a leap year: 366 days, the longest range')
    t.ok(empty.daily.every((day: Json) => Object.values(day.counts).every((count) => count === 0)), 'all zeros')
    t.same({ visitors: empty.visitors, drawer_adds: empty.drawer_adds, revenue: empty.attributed_revenue }, { visitors: 0, drawer_adds: 0, revenue: '0' })
  })

  t.test('by default the last 30 days, today (UTC, on the shop\'s clock) included', async (t) => {
    const fallback = await summary(app, admin)
    t.equal(fallback.to, '2025-03-15')
    t.equal(fallback.from, '2025-02-14')
    t.equal(fallback.daily.length, 30)
    t.equal(fallback.totals.drawer_open, 6)
    const toOnly = await summary(app, admin, '?to=2025-03-10')
    t.same([toOnly.from, toOnly.to, toOnly.daily.length], ['2025-02-09', '2025-03-10', 30], '`to` alone: the 30 days ending there')
    const fromOnly = await summary(app, admin, '?from=2025-03-13')
    t.same([fromOnly.from, fromOnly.to, fromOnly.daily.length], ['2025-03-13', '2025-03-15', 3], '`from` alone: up to today')
  })

  t.test('bad ranges are 400 svc_invalid_params naming the parameter', async (t) => {
    const cases: Array<[string, string, string]> = [
      ['from after to', '?from=2025-03-12&to=2025-03-11', 'from'],
      ['367 days', '?from=2024-01-01&to=2025-01-01', 'to'],
      ['`from` more than 366 days before today', '?from=2024-03-14', 'to'],
      ['`from` after today without `to`', '?from=2025-03-16', 'from'],
      ['a date that does not exist', '?from=2025-02-30&to=2025-03-01', 'from'],
      ['a month 13', '?to=2025-13-01', 'to'],
      ['a day without leading zeros', '?from=2025-3-1', 'from'],
      ['a date-time', '?to=2025-03-01T00:00:00Z', 'to'],
      ['words', '?from=yesterday', 'from'],
      ['an empty value', '?from=', 'from']
    ]
    for (const [what, query, field] of cases) {
      const response = await adminRequest(app, admin, 'GET', `analytics/summary${query}`)
      expectError(t, response, 400, 'svc_invalid_params', what)
      t.ok(field in response.json().data.params, `${what}: names ${field}`, { params: response.json().data.params })
    }
  })

  t.test('access: admin only', async (t) => {
    expectError(t, await svcRequest(app, 'GET', 'analytics/summary', {}), 401, 'svc_not_logged_in', 'anonymous')
    expectError(t, await svcRequest(app, 'GET', 'analytics/summary', asGuest(a)), 401, 'svc_not_logged_in', 'a guest with a Cart-Token')
    const shopper = await login(app, USERS.shopper)
    expectError(t, await svcRequest(app, 'GET', 'analytics/summary', asAdmin(shopper)), 403, 'svc_forbidden', 'a shopper (no manage_shop)')
    expectError(t, await svcRequest(app, 'GET', 'analytics/summary', { cookie: admin.cookie }), 403, 'svc_invalid_nonce', 'the admin without a nonce')
    expectError(t, await svcRequest(app, 'GET', 'analytics/summary', { cookie: admin.cookie, 'x-wp-nonce': 'AAAAAAAAAAAAAAAAAAAAAA' }), 403, 'svc_invalid_nonce', 'the admin with a wrong nonce')
  })

  t.test('the OpenAPI document describes the four routes', async (t) => {
    const { paths } = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const events = paths['/wp-json/svc/v1/analytics/events']?.post
    t.ok(events?.requestBody, 'POST analytics/events has a request body')
    t.ok(events?.responses?.['202'], 'and a 202')
    t.ok(paths['/wp-json/svc/v1/analytics/summary']?.get?.parameters?.some((parameter: Json) => parameter.name === 'from'), 'GET analytics/summary has `from`')
    t.ok(paths['/wp-json/svc/v1/analytics/reset']?.delete?.responses?.['200'], 'DELETE analytics/reset has a 200')
    t.ok(paths['/wp-json/svc/v1/analytics/export']?.get?.responses?.['200']?.content?.['text/csv'], 'GET analytics/export answers text/csv')
  })
})
