import type { Test } from 'tap'
import { DrawerAnalytics } from '../../../../../drawer/plugins/svc-pro/analytics.ts'
import { asGuest, expectError, login, USERS } from '../../../../helpers/security.ts'
import {
  all, configure, DAY, loginWithCart, newUser, onEveryBackend, Shopper, svcRequest, type Json, type ProApp
} from '../helpers.ts'

/**
 * Attributed revenue from placed orders: the lines the drawer's own routes add carry their origin
 * into the order placed through the Store API checkout, and the report counts those orders; the `value` the browser
 * posts with its events counts for nothing. Expected amounts are read from the placed orders themselves (the Store
 * API's `GET order/{id}`), never from the analytics code.
 */

const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'San Francisco', state: 'CA', postcode: '94103', country: 'US', phone: '' }
const BILLING = { ...ADDRESS, email: 'ada@example.com' }

interface Placed {
  id: number
  /** The order's items as the Store API answers them. */
  items: Json[]
}

/** Places the shopper's cart through `POST wc/store/v1/checkout` and reads the order back (`GET order/{id}`). */
async function checkout (shopper: Shopper): Promise<Placed> {
  const response = await shopper.storeRequest('POST', 'checkout', { billing_address: BILLING, shipping_address: ADDRESS, payment_method: 'cod' })
  if (response.statusCode !== 200) throw new Error(`checkout: ${response.statusCode} ${response.body}`)
  const { order_id: id, order_key: key } = response.json() as { order_id: number, order_key: string }
  const order = await shopper.storeRequest('GET', `order/${id}?key=${encodeURIComponent(key)}&billing_email=${encodeURIComponent(BILLING.email)}`)
  if (order.statusCode !== 200) throw new Error(`order ${id}: ${order.statusCode} ${order.body}`)
  return { id, items: (order.json() as { items: Json[] }).items }
}

/** The line total (before tax) of the order's item for a product. */
function lineTotal (order: Placed, productId: number): bigint {
  const item = order.items.find((candidate) => candidate.id === productId)
  if (item === undefined) throw new Error(`order ${order.id} has no item of product ${productId}`)
  return BigInt(item.totals.line_total)
}

const sumTotals = (order: Placed): bigint => order.items.reduce((sum, item) => sum + BigInt(item.totals.line_total), 0n)

/** A drawer event batch as the browser sends it (202 expected). */
async function postEvents (t: Test, shopper: Shopper, events: Json[]): Promise<void> {
  const response = await shopper.svc('POST', 'analytics/events', { events })
  t.equal(response.statusCode, 202, 'events accepted', { body: response.body })
}

/** `GET analytics/summary` of one day, as an admin logged in now (nonces follow the app's clock). */
async function report (pro: ProApp, day: string, to = day): Promise<Json> {
  const admin = await login(pro.app, USERS.admin)
  const response = await svcRequest(pro.app, 'GET', `analytics/summary?from=${day}&to=${to}`, { cookie: admin.cookie, 'x-wp-nonce': admin.nonce })
  if (response.statusCode !== 200) throw new Error(`summary: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** `GET analytics/export` as an admin. */
async function exportCsv (pro: ProApp, query: string) {
  const admin = await login(pro.app, USERS.admin)
  return svcRequest(pro.app, 'GET', `analytics/export?${query}`, { cookie: admin.cookie, 'x-wp-nonce': admin.nonce })
}

/** CSV rows as cells (RFC 4180 quoting undone), without the byte-order mark and the last line break. */
function parseCsv (text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') { cell += '"'; i++ } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') { row.push(cell); cell = '' } else if (char === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++ } else cell += char
  }
  return rows
}

const dayOf = (date: Date): string => date.toISOString().slice(0, 10)

onEveryBackend('attributed revenue from placed orders', async (t, pro) => {
  const { app, clock } = pro

  t.test('events with any value leave attributed revenue unchanged; an order of drawer-added lines changes it by exactly their totals', async (t) => {
    clock.set('2026-06-10T09:00:00.000Z')
    const day = dayOf(clock.now())
    const shopper = await Shopper.guest(app)
    await shopper.add(101) // the shopper's own add: not attributed
    await shopper.ok('POST', 'recommendations/add', { product_id: 102 })
    const before = await report(pro, day)
    t.equal(before.attributed_revenue, '0', 'nothing ordered yet')

    await postEvents(t, shopper, [
      { type: 'drawer_open' },
      { type: 'recommendation_add', product_id: 102, value: 1_000_000_000_000 },
      { type: 'bundle_add', value: 1_000_000_000_000 },
      { type: 'spotlight_add', product_id: 104, value: 999_999_999_999 },
      { type: 'checkout_click', value: 1_000_000_000_000 }
    ])
    const posted = await report(pro, day)
    t.equal(posted.attributed_revenue, '0', 'a trillion posted as values: no revenue')
    t.equal(posted.drawer_adds, 3, 'the adds are still counted as events')

    const order = await checkout(shopper)
    const attributed = lineTotal(order, 102)
    t.ok(attributed > 0n, 'the drawer\'s line was sold')
    const after = await report(pro, day)
    t.equal(after.attributed_revenue, attributed.toString(), 'exactly the drawer line\'s total (the Store API\'s line_total)')
    t.equal(after.attributed_units, 1)
    t.same(after.orders, {
      placed: 1,
      with_drawer_items: 1,
      net_sales: sumTotals(order).toString(),
      average_order_value: sumTotals(order).toString(),
      drawer_average_order_value: sumTotals(order).toString()
    }, 'the order: both lines in its sales, the shopper\'s own line not attributed')
    t.same(after.sources.find((row: Json) => row.source === 'recommendation'), { source: 'recommendation', units: 1, orders: 1, revenue: attributed.toString() })
    t.same(after.top_products, [{ product_id: 102, name: 'Belt', units: 1, orders: 1, revenue: attributed.toString() }])
    t.match(after.daily, [{ day, orders: 1, drawer_orders: 1, attributed_revenue: attributed.toString() }])

    await postEvents(t, shopper, Array.from({ length: 50 }, () => ({ type: 'recommendation_add', product_id: 102, value: 1_000_000_000_000 })))
    t.equal((await report(pro, day)).attributed_revenue, attributed.toString(), 'more values posted after the order change nothing')
  })

  t.test('a line the shopper adds through the Store API is not attributed; a drawer add of a product the shopper holds is a line of its own', async (t) => {
    clock.set('2026-06-11T09:00:00.000Z')
    const day = dayOf(clock.now())
    const shopper = await Shopper.guest(app)
    await shopper.add(102)
    await shopper.add(103)
    // The drawer's add never claims the shopper's own line: it lands on a line with the drawer's mark.
    await shopper.ok('POST', 'recommendations/add', { product_id: 103 })
    const order = await checkout(shopper)
    const hats = order.items.filter((item) => item.id === 103)
    t.same(hats.map((item) => item.quantity), [1, 1], 'the shopper\'s line and the drawer\'s line, one unit each')
    const drawerLine = BigInt(hats[1]!.totals.line_total)
    const figures = await report(pro, day)
    t.equal(figures.attributed_revenue, drawerLine.toString(), 'only the drawer\'s line is attributed')
    t.same([figures.orders.placed, figures.orders.with_drawer_items, figures.orders.net_sales], [1, 1, sumTotals(order).toString()], 'one order, with a drawer item')
    t.equal(figures.attributed_units, 1, 'the one unit the drawer added')
  })

  t.test('the mark stays through quantity changes and the login merge', async (t) => {
    clock.set('2026-06-12T09:00:00.000Z')
    const day = dayOf(clock.now())
    const who = await newUser(pro.storage, 'attribution-merge', ['read'])
    // The user's saved cart, from an earlier visit.
    const earlier = await Shopper.loggedIn(app, await login(app, who))
    await earlier.add(107)

    const guest = await Shopper.guest(app)
    const state = await guest.ok('POST', 'recommendations/add', { product_id: 103 })
    const key = (state.cartItems as Json[]).find((item) => item.product_id === 103)!.key as string
    await guest.update(key, 3)
    const merged = await Shopper.loggedIn(app, await loginWithCart(app, who, guest.token))
    const order = await checkout(merged)
    t.same(order.items.map((item) => [item.id, item.quantity]).sort(), [[103, 3], [107, 1]], 'the merged cart was ordered')
    const figures = await report(pro, day)
    t.equal(figures.attributed_revenue, lineTotal(order, 103).toString(), 'the whole line of three, merged into the saved cart, is the drawer\'s')
    t.equal(figures.attributed_units, 3)
  })

  t.test('spotlight, add-on and bundle adds are attributed to their control', async (t) => {
    clock.set('2026-06-15T09:00:00.000Z')
    const day = dayOf(clock.now())
    await configure(t, app, {
      spotlight: { enabled: true, product_id: 104, title: 'Summer special', text: '', conditions: all() },
      smart_addons: { enabled: true, addons: [{ id: 'gift-wrap', product_id: 116, label: 'Gift wrap', description: '', conditions: all() }] },
      bundles: { enabled: true, bundles: [{ id: 'starter', title: 'Starter kit', description: '', discount_percent: 10, slots: [{ label: 'Hat', product_ids: [101] }, { label: 'Extra', product_ids: [102] }] }] }
    })
    const shopper = await Shopper.guest(app)
    await shopper.ok('POST', 'spotlight/add', { product_id: 104 })
    await shopper.ok('POST', 'smart-addons/toggle', { addon_id: 'gift-wrap', active: true })
    t.equal((await shopper.addBundle('starter', [101, 102])).statusCode, 200, 'the bundle added')
    const order = await checkout(shopper)
    const figures = await report(pro, day)
    const bundle = lineTotal(order, 101) + lineTotal(order, 102)
    t.same(figures.sources, [
      { source: 'recommendation', units: 0, orders: 0, revenue: '0' },
      { source: 'spotlight', units: 1, orders: 1, revenue: lineTotal(order, 104).toString() },
      { source: 'addon', units: 1, orders: 1, revenue: lineTotal(order, 116).toString() },
      { source: 'bundle', units: 2, orders: 1, revenue: bundle.toString() }
    ], 'every control, the bundle\'s lines after its discount')
    t.equal(figures.attributed_revenue, sumTotals(order).toString(), 'every line came from the drawer')
    t.same(figures.top_products.map((row: Json) => row.product_id), [104, 102, 101, 116], 'most attributed revenue first')
  })

  t.test('average order values, drawer-to-order conversion and top products from real orders', async (t) => {
    clock.set('2026-06-20T09:00:00.000Z')
    const day = dayOf(clock.now())
    // a: opens the drawer, adds from it, orders.
    const a = await Shopper.guest(app)
    await postEvents(t, a, [{ type: 'drawer_open' }])
    await a.add(107)
    await a.ok('POST', 'recommendations/add', { product_id: 102 })
    await a.ok('POST', 'recommendations/add', { product_id: 113 }) // sold in twos: two units
    const orderA = await checkout(a)
    // b: opens the drawer, orders nothing.
    const b = await Shopper.guest(app)
    await postEvents(t, b, [{ type: 'drawer_open' }, { type: 'drawer_close' }])
    // c: never opens the drawer, orders on its own.
    const c = await Shopper.guest(app)
    await c.add(105, 2)
    const orderC = await checkout(c)
    // d: orders first, opens the drawer an hour later: not a conversion of that open.
    const d = await Shopper.guest(app)
    await d.add(103)
    const orderD = await checkout(d)
    clock.advance(3_600_000)
    await postEvents(t, d, [{ type: 'drawer_open' }])

    const figures = await report(pro, day)
    t.same(figures.conversion, { carts_opened: 3, carts_ordered: 1, rate: 1 / 3 }, 'a, b and d opened the drawer; only a ordered after opening it')
    const sales = [orderA, orderC, orderD].map(sumTotals)
    const total = sales.reduce((sum, value) => sum + value, 0n)
    const roundedAverage = (total * 2n + 3n) / 6n
    t.same(figures.orders, {
      placed: 3,
      with_drawer_items: 1,
      net_sales: total.toString(),
      average_order_value: roundedAverage.toString(),
      drawer_average_order_value: sales[0]!.toString()
    }, 'AOV over every counted order (halves up); the drawer AOV over a\'s order')
    t.same(figures.top_products, [
      { product_id: 102, name: 'Belt', units: 1, orders: 1, revenue: lineTotal(orderA, 102).toString() },
      { product_id: 113, name: 'Single', units: 2, orders: 1, revenue: lineTotal(orderA, 113).toString() }
    ], 'the drawer\'s products only, most revenue first')
    t.equal(figures.attributed_revenue, (lineTotal(orderA, 102) + lineTotal(orderA, 113)).toString())
    t.equal(figures.visitors, 3, 'placing an order makes no one a visitor: c did nothing in the drawer')
  })

  t.test('the browser cannot post the order event', async (t) => {
    const shopper = await Shopper.guest(app)
    expectError(t, await shopper.svc('POST', 'analytics/events', { events: [{ type: 'order_placed' }] }), 400, 'svc_invalid_params', 'order_placed is not a drawer event')
  })

  t.test('with analytics off, an order is still attributed but no conversion is recorded', async (t) => {
    clock.set('2026-06-22T09:00:00.000Z')
    const day = dayOf(clock.now())
    const shopper = await Shopper.guest(app)
    await postEvents(t, shopper, [{ type: 'drawer_open' }])
    await configure(t, app, { analytics: { enabled: false } })
    await shopper.ok('POST', 'recommendations/add', { product_id: 102 })
    const order = await checkout(shopper)
    const figures = await report(pro, day)
    t.equal(figures.attributed_revenue, lineTotal(order, 102).toString(), 'the order is the shop\'s record, kept whatever analytics say')
    t.same(figures.conversion, { carts_opened: 1, carts_ordered: 0, rate: 0 }, 'no order event was stored')
  })
})

onEveryBackend('analytics/export', async (t, pro) => {
  const { app, clock, storage } = pro
  clock.set('2026-07-01T10:00:00.000Z')
  // A product whose name a spreadsheet would run as a formula, with a quote and a comma in it.
  const belt = (await storage.getProduct(102))!
  await storage.upsertProducts([{ ...belt, name: '=HYPERLINK("https://evil.example","Belt, brown")' }])
  t.teardown(() => storage.upsertProducts([belt]))
  const shopper = await Shopper.guest(app)
  await postEvents(t, shopper, [{ type: 'drawer_open' }, { type: 'recommendation_add', product_id: 102, value: 1_000_000_000_000 }])
  await shopper.add(101)
  await shopper.ok('POST', 'recommendations/add', { product_id: 102 })
  const order = await checkout(shopper)
  clock.set('2026-07-02T10:00:00.000Z')

  t.test('days: a header row, then every day of the range', async (t) => {
    const response = await exportCsv(pro, 'from=2026-06-30&to=2026-07-02')
    t.equal(response.statusCode, 200, { body: response.body })
    t.equal(response.headers['content-type'], 'text/csv; charset=utf-8')
    t.equal(response.headers['content-disposition'], 'attachment; filename="drawer-analytics-days-2026-06-30-to-2026-07-02.csv"')
    t.match(String(response.headers['cache-control']), /no-store/, 'not cached')
    t.ok(response.body.startsWith('\uFEFF'), 'a byte-order mark first')
    t.ok(response.body.endsWith('\r\n'), 'CRLF line ends')
    const rows = parseCsv(response.body.slice(1))
    t.same(rows[0], ['Date', 'Drawer opens', 'Drawer closes', 'Recommendations seen', 'Recommendations added', 'Add-on toggles',
      'Bundles added', 'Spotlight adds', 'Coupons applied', 'Checkout clicks', 'Orders', 'Orders with drawer items', 'Net sales (USD)',
      'Attributed revenue (USD)'])
    const cents = (amount: bigint) => `${amount / 100n}.${(amount % 100n).toString().padStart(2, '0')}`
    t.same(rows.slice(1), [
      ['2026-06-30', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0.00', '0.00'],
      ['2026-07-01', '1', '0', '0', '1', '0', '0', '0', '0', '0', '1', '1', cents(sumTotals(order)), cents(lineTotal(order, 102))],
      ['2026-07-02', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0.00', '0.00']
    ], 'amounts in dollars; the event\'s posted value appears nowhere')
  })

  t.test('products: the drawer\'s products, formulas defused', async (t) => {
    const response = await exportCsv(pro, 'from=2026-07-01&to=2026-07-01&report=products')
    t.equal(response.statusCode, 200, { body: response.body })
    t.equal(response.headers['content-disposition'], 'attachment; filename="drawer-analytics-products-2026-07-01-to-2026-07-01.csv"')
    t.ok(response.body.includes('"\'=HYPERLINK(""https://evil.example"",""Belt, brown"")"'), 'quoted, quotes doubled, an apostrophe before the =')
    const amount = lineTotal(order, 102)
    t.same(parseCsv(response.body.slice(1)), [
      ['Product ID', 'Product', 'Units added from the drawer', 'Orders', 'Attributed revenue (USD)'],
      ['102', '\'=HYPERLINK("https://evil.example","Belt, brown")', '1', '1', `${amount / 100n}.${(amount % 100n).toString().padStart(2, '0')}`]
    ])
  })

  t.test('the summary\'s range rules; admins only', async (t) => {
    const admin = await login(app, USERS.admin)
    const headers = { cookie: admin.cookie, 'x-wp-nonce': admin.nonce }
    expectError(t, await svcRequest(app, 'GET', 'analytics/export?from=2026-07-02&to=2026-07-01', headers), 400, 'svc_invalid_params', 'from after to')
    expectError(t, await svcRequest(app, 'GET', 'analytics/export?from=2025-01-01&to=2026-07-01', headers), 400, 'svc_invalid_params', 'more than 366 days')
    expectError(t, await svcRequest(app, 'GET', 'analytics/export?report=orders', headers), 400, 'svc_invalid_params', 'an unknown report')
    const fallback = await svcRequest(app, 'GET', 'analytics/export', headers)
    t.equal(parseCsv(fallback.body.slice(1)).length, 31, 'default: the header and the last 30 days')
    expectError(t, await svcRequest(app, 'GET', 'analytics/export', asGuest(shopper.token)), 401, 'svc_not_logged_in', 'a guest')
    const customer = await login(app, USERS.shopper)
    expectError(t, await svcRequest(app, 'GET', 'analytics/export', { cookie: customer.cookie, 'x-wp-nonce': customer.nonce }), 403, 'svc_forbidden', 'a shopper')
  })
})

onEveryBackend('retention: the sweep deletes expired events, analytics on or off; orders stay', async (t, pro) => {
  const { app, clock, storage } = pro
  clock.set('2026-08-01T10:00:00.000Z')
  await configure(t, app, { analytics: { retention_days: 3 } })
  const shopper = await Shopper.guest(app)
  await postEvents(t, shopper, [{ type: 'drawer_open' }, { type: 'drawer_close' }])
  await shopper.ok('POST', 'recommendations/add', { product_id: 102 })
  const order = await checkout(shopper)
  clock.advance(DAY)
  await postEvents(t, shopper, [{ type: 'drawer_open' }])
  await configure(t, app, { analytics: { enabled: false } })
  const analytics = new DrawerAnalytics(app)

  t.same(await analytics.deleteExpired(), { deleted: 0, retentionDays: 3 }, 'a day on: nothing is past three days')
  t.equal((await storage.analyticsSummary('2026-07-01', '2026-08-31')).days.reduce((sum, row) => sum + row.count, 0), 4, 'the open, the close, the order and the later open')

  clock.advance(2 * DAY + 1000) // the first three events are now 3 days and 1 s old
  t.same(await analytics.deleteExpired(), { deleted: 3, retentionDays: 3 }, 'with analytics off, the sweep still deletes')
  t.same((await storage.analyticsSummary('2026-07-01', '2026-08-31')).days.map((row) => [row.day, row.type, row.count]), [['2026-08-02', 'drawer_open', 1]])
  const figures = await report(pro, '2026-08-01')
  t.equal(figures.attributed_revenue, lineTotal(order, 102).toString(), 'the order is not an event: it stays in the report')
  t.same([figures.totals.drawer_open, figures.conversion.carts_opened, figures.retention_days], [0, 0, 3], 'the expired events are gone from the report')
})
