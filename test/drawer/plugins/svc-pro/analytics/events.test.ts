import { createHash } from 'node:crypto'
import { asAdmin, asShopper, cartKeyOf, expectError, expectNoStore, login, USERS } from '../../../../helpers/security.ts'
import {
  adminLogin, DAY, EVENTS_BODY_LIMIT, guestToken, onEveryBackend, postEvents, saveSettings, START, storedCount,
  storedEvents, svcRequest, type Json
} from './helpers.ts'

/** `POST svc/v1/analytics/events` (design §3.5–3.7). */

const iso = (ms: number): string => new Date(ms).toISOString()

/** A well-formed batch of `count` drawer opens. */
const opens = (count: number): Json => ({ events: Array.from({ length: count }, () => ({ type: 'drawer_open' })) })

onEveryBackend('POST analytics/events', async (t, { app, sql }) => {
  t.test('a batch is answered 202 {accepted} and stored, every field as sent', async (t) => {
    const token = await guestToken(app)
    const events = [
      { type: 'drawer_open' },
      { type: 'recommendation_view', product_id: 102, occurred_at: '2025-03-15T11:59:00.000Z', data: { position: 2, source: 'cross_sells' } },
      { type: 'recommendation_add', product_id: 102, value: 5500, occurred_at: '2025-03-15T13:30:00+02:00' },
      { type: 'addon_toggle', product_id: 104, value: 300, data: { active: true, addon_id: 'gift-wrap' } },
      { type: 'addon_toggle', product_id: 104, value: 300, data: { active: false } },
      { type: 'bundle_add', value: 4200, data: { bundle_id: 'starter' } },
      { type: 'spotlight_add', product_id: 105, value: 999 },
      { type: 'coupon_apply', data: { code: 'save10', ok: true, note: null } },
      { type: 'checkout_click', value: 12000 },
      { type: 'drawer_close' }
    ]
    const response = await postEvents(app, token, { events })
    t.equal(response.statusCode, 202, 'accepted', { body: response.body })
    t.same(response.json(), { accepted: 10 })
    expectNoStore(t, response)

    const stored = await storedEvents(sql)
    t.equal(stored.length, 10, 'one row per event')
    const now = iso(START)
    t.same(stored.map((row) => [row.type, row.product_id, row.drawer_add, row.occurred_at, row.data]), [
      ['recommendation_add', 102, true, '2025-03-15T11:30:00.000Z', {}],
      ['recommendation_view', 102, false, '2025-03-15T11:59:00.000Z', { position: 2, source: 'cross_sells' }],
      ['drawer_open', null, false, now, {}],
      ['addon_toggle', 104, true, now, { active: true, addon_id: 'gift-wrap' }],
      ['addon_toggle', 104, false, now, { active: false }],
      ['bundle_add', null, true, now, { bundle_id: 'starter' }],
      ['spotlight_add', 105, true, now, {}],
      ['coupon_apply', null, false, now, { code: 'save10', ok: true, note: null }],
      ['checkout_click', null, false, now, {}],
      ['drawer_close', null, false, now, {}]
    ], 'type, product, drawer add (adds and addon_toggle with active: true), time (default now, offsets read as instants) and data; the value is not stored')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('the visitor is stored as a keyed hash: neither the cart key nor the IP address is in storage', async (t) => {
    const first = await guestToken(app)
    const second = await guestToken(app)
    const shopper = await login(app, USERS.shopper)
    const shopperToken = await guestToken(app)
    const ip = '203.0.113.77'
    const batch = { events: [{ type: 'drawer_open' }, { type: 'recommendation_view', product_id: 101 }] }
    t.equal((await postEvents(app, first, batch, { remoteAddress: ip })).statusCode, 202)
    t.equal((await postEvents(app, first, batch, { remoteAddress: '198.51.100.4' })).statusCode, 202)
    t.equal((await postEvents(app, second, batch, { remoteAddress: ip })).statusCode, 202)
    const asLoggedIn = await svcRequest(app, 'POST', 'analytics/events', asShopper(shopper, shopperToken), batch, { remoteAddress: ip })
    t.equal(asLoggedIn.statusCode, 202, 'a logged-in shopper with a nonce records too', { body: asLoggedIn.body })

    const { rows: columns } = await sql.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'svc_analytics_events' ORDER BY ordinal_position`)
    t.same(columns.map((column) => column.column_name).sort(), ['data', 'drawer_add', 'id', 'occurred_at', 'product_id', 'type', 'visitor'],
      'no column for a cart key or an address (nor for the browser\'s value)')

    const { rows } = await sql.query<{ row: string }>('SELECT row_to_json(e)::text AS row FROM svc_analytics_events AS e')
    t.equal(rows.length, 8)
    const everything = rows.map((row) => row.row).join('\n')
    for (const token of [first, second, shopperToken]) {
      const key = cartKeyOf(token)
      t.notOk(everything.includes(key), `cart key ${key} is not stored`)
      t.notOk(everything.includes(key.slice(2)), 'nor its hex part')
      t.notOk(everything.includes(createHash('sha256').update(key).digest('hex')), 'nor its plain (unkeyed) SHA-256')
    }
    for (const address of [ip, '198.51.100.4', '127.0.0.1']) t.notOk(everything.includes(address), `${address} is not stored`)

    const visitors = (await storedEvents(sql)).map((row) => row.visitor)
    t.ok(visitors.every((visitor) => typeof visitor === 'string' && /^[0-9a-f]{64}$/.test(visitor)), 'visitors are 256-bit hashes')
    const [a1, a2, a3, a4, b1, b2, c1, c2] = visitors
    t.ok(a1 === a2 && a2 === a3 && a3 === a4, 'one cart is one visitor, whatever its address')
    t.ok(b1 === b2 && c1 === c2, 'each batch has one visitor')
    t.equal(new Set(visitors).size, 3, 'three carts, three visitors')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('times in the future or before the retention period are recorded as now; inside it, as sent', async (t) => {
    const token = await guestToken(app)
    const response = await postEvents(app, token, {
      events: [
        { type: 'drawer_open', occurred_at: iso(START + 1) },
        { type: 'drawer_open', occurred_at: iso(START + 365 * DAY) },
        { type: 'drawer_open', occurred_at: iso(START - 90 * DAY - 1000) },
        { type: 'drawer_open', occurred_at: '1970-01-01T00:00:00Z' },
        { type: 'drawer_open', occurred_at: iso(START - 90 * DAY + 1000) },
        { type: 'drawer_open', occurred_at: iso(START) }
      ]
    })
    t.equal(response.statusCode, 202, 'accepted', { body: response.body })
    t.same((await storedEvents(sql)).map((row) => row.occurred_at), [
      iso(START - 90 * DAY + 1000), iso(START), iso(START), iso(START), iso(START), iso(START)
    ], 'the default retention is 90 days; the rest are clamped to now')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('with analytics off: 202 {accepted: 0} and nothing stored', async (t) => {
    const admin = await adminLogin(app)
    await saveSettings(app, admin, { analytics: { enabled: false } })
    t.teardown(() => saveSettings(app, admin, { analytics: { enabled: true } }))
    const token = await guestToken(app)
    const response = await postEvents(app, token, opens(5))
    t.equal(response.statusCode, 202)
    t.same(response.json(), { accepted: 0 })
    expectNoStore(t, response)
    t.equal(await storedCount(sql), 0, 'nothing stored')
    const invalid = await postEvents(app, token, { events: [{ type: 'page_view' }] })
    expectError(t, invalid, 400, 'svc_invalid_params', 'the body is still checked')
  })

  t.test('a batch holds 1 to 50 events', async (t) => {
    const token = await guestToken(app)
    const fifty = await postEvents(app, token, opens(50))
    t.equal(fifty.statusCode, 202)
    t.same(fifty.json(), { accepted: 50 })
    for (const [what, payload, field] of [
      ['51 events', opens(51), 'events'],
      ['0 events', opens(0), 'events'],
      ['no events', {}, 'events'],
      ['events not a list', { events: { type: 'drawer_open' } }, 'events'],
      ['an event not an object', { events: ['drawer_open'] }, 'events.0']
    ] as const) {
      const response = await postEvents(app, token, payload)
      expectError(t, response, 400, 'svc_invalid_params', what)
      t.ok(field in response.json().data.params, `${what}: names ${field}`, { params: response.json().data.params })
    }
    t.equal(await storedCount(sql), 50, 'only the valid batch was stored')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('every malformed event refuses the whole batch with 400 svc_invalid_params naming the field', async (t) => {
    const token = await guestToken(app)
    const good = { type: 'drawer_open' }
    const cases: Array<[string, unknown, string]> = [
      ['an unknown type', { type: 'page_view' }, 'events.1.type'],
      ['a type in another case', { type: 'DRAWER_OPEN' }, 'events.1.type'],
      ['no type', { value: 1 }, 'events.1.type'],
      ['a negative value', { type: 'bundle_add', value: -1 }, 'events.1.value'],
      ['a fractional value', { type: 'bundle_add', value: 12.5 }, 'events.1.value'],
      ['a value over the bound', { type: 'bundle_add', value: 1_000_000_000_001 }, 'events.1.value'],
      ['a value as words', { type: 'bundle_add', value: 'a hundred' }, 'events.1.value'],
      ['a value as a numeric string (no type conversion)', { type: 'bundle_add', value: '100' }, 'events.1.value'],
      ['a value as a boolean', { type: 'bundle_add', value: true }, 'events.1.value'],
      ['a null value', { type: 'bundle_add', value: null }, 'events.1.value'],
      ['a product_id as a numeric string', { type: 'recommendation_add', product_id: '12' }, 'events.1.product_id'],
      ['product_id 0', { type: 'recommendation_add', product_id: 0 }, 'events.1.product_id'],
      ['a negative product_id', { type: 'recommendation_add', product_id: -3 }, 'events.1.product_id'],
      ['a fractional product_id', { type: 'recommendation_add', product_id: 1.5 }, 'events.1.product_id'],
      ['a product_id beyond 32 bits', { type: 'recommendation_add', product_id: 2_147_483_648 }, 'events.1.product_id'],
      ['a product_id as text', { type: 'recommendation_add', product_id: 'abc' }, 'events.1.product_id'],
      ['a date without a time', { type: 'drawer_open', occurred_at: '2025-03-15' }, 'events.1.occurred_at'],
      ['a time without a zone', { type: 'drawer_open', occurred_at: '2025-03-15T10:00:00' }, 'events.1.occurred_at'],
      ['a month 13', { type: 'drawer_open', occurred_at: '2025-13-01T00:00:00Z' }, 'events.1.occurred_at'],
      ['words for a time', { type: 'drawer_open', occurred_at: 'yesterday' }, 'events.1.occurred_at'],
      ['a number for a time', { type: 'drawer_open', occurred_at: 1741996800000 }, 'events.1.occurred_at'],
      ['an unknown property', { type: 'drawer_open', visitor: 'me' }, 'events.1'],
      ['data not an object', { type: 'drawer_open', data: 'x' }, 'events.1.data'],
      ['data with 11 keys', { type: 'drawer_open', data: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])) }, 'events.1.data'],
      ['data with a nested object', { type: 'drawer_open', data: { nested: { a: 1 } } }, 'events.1.data.nested'],
      ['data with a list', { type: 'drawer_open', data: { list: [1, 2] } }, 'events.1.data.list'],
      ['data with a long string', { type: 'drawer_open', data: { note: 'x'.repeat(201) } }, 'events.1.data.note'],
      ['data with a key not snake_case', { type: 'drawer_open', data: { 'Bad-Key': 1 } }, 'events.1.data']
    ]
    for (const [what, event, field] of cases) {
      const response = await postEvents(app, token, { events: [good, event, good] })
      expectError(t, response, 400, 'svc_invalid_params', what)
      const params = response.json().data.params as Json
      t.ok(Object.keys(params).some((name) => name === field || name.startsWith(`${field}.`)), `${what}: names ${field}`, { params })
    }
    const topLevel = await postEvents(app, token, { events: [good], source: 'drawer' })
    expectError(t, topLevel, 400, 'svc_invalid_params', 'an unknown top-level property')
    t.ok('source' in (topLevel.json().data.params as Json), 'names it', { params: topLevel.json().data.params })
    const missing = await postEvents(app, token, { events: [{ value: 1 }] })
    expectError(t, missing, 400, 'svc_invalid_params', 'an event without a type')
    t.same(missing.json().data.params, { 'events.0.type': 'must have required property \'type\'' }, 'names the missing field')

    const data10 = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(200)]))
    const edge = await postEvents(app, token, { events: [{ type: 'drawer_open', data: data10, value: 1_000_000_000_000, product_id: 2_147_483_647 }] })
    t.equal(edge.statusCode, 202, 'the bounds themselves are accepted', { body: edge.body })
    t.equal(await storedCount(sql), 1, 'no refused batch stored anything')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('bodies: up to 32 KiB; over is 413; not JSON is 400 or 415', async (t) => {
    const token = await guestToken(app)
    const body = JSON.stringify(opens(50))
    const exact = body + ' '.repeat(EVENTS_BODY_LIMIT - Buffer.byteLength(body))
    const atLimit = await postEvents(app, token, exact, { headers: { 'cart-token': token, 'content-type': 'application/json' } })
    t.equal(atLimit.statusCode, 202, 'a body of exactly 32 KiB is read', { body: atLimit.body })
    const over = await postEvents(app, token, `${exact} `, { headers: { 'cart-token': token, 'content-type': 'application/json' } })
    expectError(t, over, 413, 'svc_body_too_large', 'one byte over 32 KiB')
    const big = { events: Array.from({ length: 50 }, () => ({ type: 'coupon_apply', data: { a: 'x'.repeat(200), b: 'x'.repeat(200), c: 'x'.repeat(200), d: 'x'.repeat(200) } })) }
    expectError(t, await postEvents(app, token, big), 413, 'svc_body_too_large', 'a valid-looking batch of 40 KiB')
    expectError(t, await postEvents(app, token, '{"events": [', { headers: { 'cart-token': token, 'content-type': 'application/json' } }), 400, 'svc_invalid_json', 'broken JSON')
    expectError(t, await postEvents(app, token, 'events', { headers: { 'cart-token': token, 'content-type': 'text/plain' } }), 415, 'svc_unsupported_media_type', 'plain text')
    t.equal(await storedCount(sql), 50, 'only the 32 KiB batch was stored')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })

  t.test('access: a cart session route', async (t) => {
    const batch = opens(1)
    expectError(t, await svcRequest(app, 'POST', 'analytics/events', {}, batch), 403, 'svc_invalid_cart_token', 'without a Cart-Token')
    expectError(t, await svcRequest(app, 'POST', 'analytics/events', { 'cart-token': 'not-a-token' }, batch), 403, 'svc_invalid_cart_token', 'with a forged Cart-Token')
    const admin = await adminLogin(app)
    expectError(t, await svcRequest(app, 'POST', 'analytics/events', asAdmin(admin), batch), 403, 'svc_invalid_cart_token', 'an admin without a Cart-Token')
    const token = await guestToken(app)
    expectError(t, await svcRequest(app, 'POST', 'analytics/events', { 'cart-token': token, 'x-wp-nonce': admin.nonce }, batch), 403, 'svc_invalid_nonce', 'a guest sending a nonce')
    const shopper = await login(app, USERS.shopper)
    expectError(t, await svcRequest(app, 'POST', 'analytics/events', { 'cart-token': token, cookie: shopper.cookie }, batch), 403, 'svc_invalid_nonce', 'logged in without the nonce')
    t.equal(await storedCount(sql), 0, 'nothing stored')
    const accepted = await postEvents(app, token, batch)
    t.equal(accepted.statusCode, 202, 'a guest\'s Cart-Token is enough')
    t.equal(accepted.headers['x-ratelimit-limit'], '60', 'limited to 60 per minute')
    await svcRequest(app, 'DELETE', 'analytics/reset', asAdmin(await adminLogin(app)))
  })
})
