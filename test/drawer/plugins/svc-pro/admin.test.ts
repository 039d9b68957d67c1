import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { asAdmin, asGuest, expectError, expectNoStore, login } from '../../../helpers/security.ts'
import { adminRequest, all, any, condition, errorData, onEveryBackend, Shopper, svcRequest, USD, type Json } from './helpers.ts'

/**
 * The admin pickers of the Pro edition (design §3.7): `GET conditions/types` (the condition engine's
 * types, operators and value schemas), the settings that hold conditions validated with those schemas, and
 * `GET products/search?q&limit` over every status, type and visibility.
 */

const COMPARISONS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq']
const SET_OPERATORS = ['contains_any', 'contains_all', 'contains_none']
const IDS_SCHEMA = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, uniqueItems: true }

/** The eight condition types, their operators and the gist of each value schema. */
const CONDITION_TYPES: Array<{ type: string, operators: string[], value_schema: Json }> = [
  { type: 'cart_subtotal', operators: COMPARISONS, value_schema: { type: 'integer', minimum: 0 } },
  { type: 'cart_item_count', operators: COMPARISONS, value_schema: { type: 'integer', minimum: 0 } },
  { type: 'product_in_cart', operators: SET_OPERATORS, value_schema: IDS_SCHEMA },
  { type: 'category_in_cart', operators: SET_OPERATORS, value_schema: IDS_SCHEMA },
  { type: 'logged_in', operators: ['is'], value_schema: { type: 'boolean' } },
  { type: 'user_capability', operators: ['has', 'has_not'], value_schema: { type: 'string', minLength: 1 } },
  {
    type: 'date_range',
    operators: ['between', 'not_between'],
    value_schema: { type: 'object', properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, additionalProperties: false, minProperties: 1 }
  },
  { type: 'weekday', operators: ['in', 'not_in'], value_schema: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 }, minItems: 1, maxItems: 7, uniqueItems: true } }
]

/** A valid and an invalid value of every type (the invalid one fails its value schema). */
const VALUES: Record<string, [unknown, unknown]> = {
  cart_subtotal: [5000, -1],
  cart_item_count: [3, 2.5],
  product_in_cart: [[101, 1062], [0]],
  category_in_cart: [[1], []],
  logged_in: [true, 'yes'],
  user_capability: ['manage_shop', 'Shop Manager!'],
  date_range: [{ from: '2026-06-01T00:00:00Z', to: '2026-06-30T23:59:59Z' }, { from: 'tomorrow' }],
  weekday: [[0, 6], [7]]
}

const addon = (id: string, conditions: unknown) => ({ id, product_id: 116, label: id, description: '', conditions })

onEveryBackend('admin pickers and condition validation', async (t, pro) => {
  const { app } = pro
  const shopperSession = await login(app, pro.shopper)
  const guestToken = (await Shopper.guest(app)).token

  async function expectAdminOnly (t: Test, path: string): Promise<void> {
    expectError(t, await svcRequest(app, 'GET', path, {}), 401, 'svc_not_logged_in', `${path}: nobody`)
    expectError(t, await svcRequest(app, 'GET', path, asGuest(guestToken)), 401, 'svc_not_logged_in', `${path}: a guest with a Cart-Token`)
    expectError(t, await svcRequest(app, 'GET', path, asAdmin(shopperSession)), 403, 'svc_forbidden', `${path}: a logged-in shopper`)
  }

  async function search (t: Test, query: string): Promise<Json[]> {
    const response = await adminRequest(pro, 'GET', `products/search${query}`)
    t.equal(response.statusCode, 200, `products/search${query}: 200`, { body: response.body })
    expectNoStore(t, response, `products/search${query}: no-store`)
    return response.json()
  }
  const idsOf = (products: Json[]) => products.map((product) => product.id)

  async function settingsNow (): Promise<Json> {
    const response = await adminRequest(pro, 'GET', 'settings')
    if (response.statusCode !== 200) throw new Error(`GET settings: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  /** A refused save: 400 `svc_invalid_params`, every expected path in `data.params`, nothing stored. */
  async function expectRefused (t: Test, settings: Json, paths: string[], what: string): Promise<LightMyRequestResponse> {
    const before = await settingsNow()
    const response = await adminRequest(pro, 'POST', 'settings', { settings })
    expectError(t, response, 400, 'svc_invalid_params', what)
    const params = errorData(response).params ?? {}
    for (const path of paths) t.type(params[path], 'string', `${what}: data.params names ${path}`, { params })
    t.same(await settingsNow(), before, `${what}: nothing stored`)
    return response
  }

  t.test('GET conditions/types: admin only', async (t) => {
    await expectAdminOnly(t, 'conditions/types')
  })

  t.test('GET conditions/types: the eight types with their operators and value schemas', async (t) => {
    const response = await adminRequest(pro, 'GET', 'conditions/types')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    const types: Json[] = response.json()
    t.same(types.map((type) => type.type), CONDITION_TYPES.map(({ type }) => type), 'every type, in order')
    for (const [index, expected] of CONDITION_TYPES.entries()) {
      const found = types[index]!
      t.same(Object.keys(found), ['type', 'label', 'operators', 'value_schema'], `${expected.type}: {type, label, operators, value_schema}`)
      t.match(found.label, /\S/, `${expected.type}: a label`)
      t.same(found.operators, expected.operators, `${expected.type}: operators`)
      t.match(found.value_schema, expected.value_schema, `${expected.type}: value schema`)
    }
  })

  t.test('POST settings: conditions of every type and operator, valid, are stored', async (t) => {
    t.teardown(async () => { await app.settings.reset() })
    const conditions = CONDITION_TYPES.flatMap(({ type, operators }) => operators.map((operator) => condition(type, operator, VALUES[type]![0])))
    const settings = {
      smart_addons: { addons: [addon('everything', all(...conditions)), addon('nested', any(all(conditions[0]), any(conditions[1], conditions[2])))] },
      spotlight: { enabled: true, product_id: 104, conditions: any(...conditions.slice(0, 5)) }
    }
    const response = await adminRequest(pro, 'POST', 'settings', { settings })
    t.equal(response.statusCode, 200, 'stored', { body: response.body })
    const stored = response.json().settings
    t.same(stored.smart_addons.addons[0].conditions, all(...conditions), `${conditions.length} conditions in one group`)
    t.same(stored.spotlight.conditions, settings.spotlight.conditions)
  })

  t.test('POST settings: each bad condition is refused with its path, nothing stored', async (t) => {
    const at = (index: number) => `smart_addons.addons.0.conditions.conditions.${index}`
    const one = (conditions: unknown) => ({ smart_addons: { addons: [addon('wrap', conditions)] } })
    await expectRefused(t, one(all(condition('cart_total', 'gte', 1))), [`${at(0)}.type`], 'an unknown type')
    await expectRefused(t, one(all(condition('cart_subtotal', 'contains_any', 1))), [`${at(0)}.operator`], 'an operator of another type')
    await expectRefused(t, one(all(condition('weekday', 'is', [1]))), [`${at(0)}.operator`], 'an operator of no type')
    for (const [type, [, bad]] of Object.entries(VALUES)) {
      const operator = CONDITION_TYPES.find((entry) => entry.type === type)!.operators[0]!
      const response = await expectRefused(t, one(all(condition(type, operator, bad))), [], `${type}: the value ${JSON.stringify(bad)}`)
      const paths = Object.keys(errorData(response).params)
      t.ok(paths.length > 0 && paths.every((path) => path.startsWith(`${at(0)}.value`)), `${type}: the problem is at the value (${paths.join(', ')})`)
    }
    await expectRefused(t, one(all(any(all(condition('logged_in', 'is', true))))), [`${at(0)}.conditions.0`], 'groups nested three levels deep')
    await expectRefused(t, one(all({ type: 'logged_in', operator: 'is' })), [`${at(0)}.value`], 'a condition without a value')
    await expectRefused(t, one({ match: 'some', conditions: [] }), ['smart_addons.addons.0.conditions.match'], 'a group matching neither all nor any')
    await expectRefused(t, { spotlight: { conditions: all(condition('logged_in', 'has', true)) } }, ['spotlight.conditions.conditions.0.operator'], 'the spotlight\'s conditions too')
    await expectRefused(t, { smart_addons: { addons: [addon('wrap', all()), addon('cap', all()), addon('wrap', all())] } }, ['smart_addons.addons.2.id'], 'a duplicate add-on id')
  })

  t.test('POST settings: every problem of a document at once, nothing stored', async (t) => {
    const at = (index: number) => `smart_addons.addons.0.conditions.conditions.${index}`
    const settings = {
      smart_addons: {
        addons: [
          addon('wrap', all(
            condition('cart_total', 'gte', 1),
            condition('cart_subtotal', 'between', 1),
            condition('cart_item_count', 'gte', -3),
            condition('product_in_cart', 'contains_any', [101, 0]),
            condition('date_range', 'between', { from: '2026-06-01T00:00:00Z', to: 'soon' }),
            any(all(condition('weekday', 'in', [1])))
          )),
          addon('wrap', all())
        ]
      },
      spotlight: { conditions: all(condition('user_capability', 'is', 'vip')) }
    }
    const response = await expectRefused(t, settings, [
      `${at(0)}.type`, `${at(1)}.operator`, `${at(2)}.value`, `${at(3)}.value.1`, `${at(4)}.value.to`, `${at(5)}.conditions.0`,
      'smart_addons.addons.1.id', 'spotlight.conditions.conditions.0.operator'
    ], 'eight problems')
    t.match(response.json().message, /smart_addons\.addons\.0\.conditions/, 'the message names the fields')

    const imported = await adminRequest(pro, 'POST', 'settings/import', { format: 'svc-settings', schema_version: 1, settings })
    expectError(t, imported, 400, 'svc_settings_import_invalid', 'the same document imported')
    t.type(errorData(imported).params[`settings.${at(1)}.operator`], 'string', 'import lists the problems under settings.')
  })

  t.test('GET products/search: admin only', async (t) => {
    await expectAdminOnly(t, 'products/search')
  })

  t.test('GET products/search: every status, type and visibility, with the picker fields', async (t) => {
    const everything = await search(t, '?limit=100')
    t.same(idsOf(everything), [...Array.from({ length: 20 }, (_, index) => 101 + index), 1061, 1062, 1063, 1064], 'the 20 products and 4 variations, by id')
    const byId = new Map(everything.map((product) => [product.id, product]))
    const row = (id: number, fields: Json) => ({
      id,
      parent_id: 0,
      sku: `SKU-${id}`,
      type: 'simple',
      status: 'publish',
      catalog_visibility: 'visible',
      stock_status: 'instock',
      stock_quantity: null,
      currency: USD,
      ...fields
    })
    t.same(byId.get(101), row(101, { name: 'Beanie', price: '1800' }), 'on sale: the sale price')
    t.same(byId.get(114), row(114, { name: 'Poster', status: 'draft', price: '1200' }), 'a draft')
    t.same(byId.get(115), row(115, { name: 'Signed Vinyl', status: 'private', price: '25000' }), 'a private product')
    t.same(byId.get(116), row(116, { name: 'Gift Wrap', catalog_visibility: 'hidden', price: '300' }), 'a hidden product')
    t.same(byId.get(118), row(118, { name: 'Guitar Pick', catalog_visibility: 'search', price: '200' }))
    t.same(byId.get(106), row(106, { name: 'Hoodie', type: 'variable', price: null }), 'a variable product: no price of its own')
    t.same(byId.get(119), row(119, { name: 'Coming Soon Tote', price: null }), 'no price')
    t.same(byId.get(107), row(107, { name: 'T-Shirt', stock_quantity: 25, price: '1800' }), 'managed stock')
    t.same(byId.get(109), row(109, { name: 'Polo', stock_status: 'outofstock', stock_quantity: 0, price: '2000' }), 'sold out')
    t.same(byId.get(110), row(110, { name: 'Vintage Jacket', stock_status: 'onbackorder', stock_quantity: 0, price: '12000' }), 'on backorder')
    t.same(byId.get(1064), row(1064, { parent_id: 106, name: 'Hoodie - Red, Small', type: 'variation', stock_status: 'outofstock', stock_quantity: 0, price: '4500' }), 'a variation')
    t.same(byId.get(1063), row(1063, { parent_id: 106, name: 'Hoodie - Green', type: 'variation', price: '4000' }))
  })

  t.test('GET products/search?q: name or SKU, case-insensitive, wildcards taken literally', async (t) => {
    const cases: Array<[string, number[]]> = [
      ['hoodie', [105, 106, 1061, 1062, 1063, 1064]],
      ['HOODIE - blue', [1061, 1062]],
      ['  poster  ', [114]],
      ['SKU-11', [110, 111, 112, 113, 114, 115, 116, 117, 118, 119]],
      ['sku-1063', [1063]],
      ['<limited> & "special"', [120]],
      ['vinyl', [115]],
      ['%', []],
      ['_', []],
      ['\\', []],
      ['no such thing', []]
    ]
    for (const [q, expected] of cases) {
      t.same(idsOf(await search(t, `?q=${encodeURIComponent(q)}&limit=100`)), expected, `q=${q}`)
    }
    t.same((await search(t, '?q=')).length, 20, 'an empty q: everything, up to the limit')
  })

  t.test('GET products/search?limit: 20 by default, 1 to 100', async (t) => {
    t.equal((await search(t, '')).length, 20, 'default 20')
    t.same(idsOf(await search(t, '?limit=1')), [101], 'limit=1')
    t.same(idsOf(await search(t, '?q=hoodie&limit=2')), [105, 106], 'limit with q')
    t.equal((await search(t, '?limit=100')).length, 24, 'limit=100')
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '']) {
      const response = await adminRequest(pro, 'GET', `products/search?limit=${limit}`)
      expectError(t, response, 400, 'svc_invalid_params', `limit=${limit}`)
      t.same(Object.keys(errorData(response).params ?? {}), ['limit'], `limit=${limit}: data.params names limit`)
    }
    const long = await adminRequest(pro, 'GET', `products/search?q=${'x'.repeat(201)}`)
    expectError(t, long, 400, 'svc_invalid_params', 'q longer than 200 characters')
  })
})
