import { test } from 'tap'
import { describeConditionTypes, evaluate, validateConditions, type ConditionContext, type ConditionGroup } from '../../../drawer/domain/conditions/index.ts'

const context = (overrides: Partial<ConditionContext> = {}): ConditionContext => ({
  subtotal: 5000,
  itemCount: 3,
  productIds: new Set([101, 106, 1062]),
  categoryIds: new Set([1, 2]),
  loggedIn: false,
  capabilities: [],
  now: new Date('2026-11-22T12:00:00Z'), // a Sunday
  ...overrides
})

const all = (...conditions: ConditionGroup['conditions']): ConditionGroup => ({ match: 'all', conditions })
const any = (...conditions: ConditionGroup['conditions']): ConditionGroup => ({ match: 'any', conditions })

test('numeric comparisons on subtotal and item count, at the boundary', async (t) => {
  const cases: Array<[string, number, boolean]> = [['gt', 5000, false], ['gte', 5000, true], ['lt', 5000, false], ['lte', 5000, true], ['eq', 5000, true], ['neq', 5000, false], ['gt', 4999, true]]
  for (const [operator, value, expected] of cases) {
    t.equal(evaluate(all({ type: 'cart_subtotal', operator, value }), context()), expected, `subtotal ${operator} ${value}`)
  }
  t.equal(evaluate(all({ type: 'cart_item_count', operator: 'gte', value: 3 }), context()), true)
  t.equal(evaluate(all({ type: 'cart_item_count', operator: 'gt', value: 3 }), context()), false)
})

test('products and categories in the cart', async (t) => {
  t.equal(evaluate(all({ type: 'product_in_cart', operator: 'contains_any', value: [999, 1062] }), context()), true)
  t.equal(evaluate(all({ type: 'product_in_cart', operator: 'contains_all', value: [101, 999] }), context()), false)
  t.equal(evaluate(all({ type: 'product_in_cart', operator: 'contains_none', value: [999] }), context()), true)
  t.equal(evaluate(all({ type: 'category_in_cart', operator: 'contains_all', value: [1, 2] }), context()), true)
  t.equal(evaluate(all({ type: 'category_in_cart', operator: 'contains_none', value: [2] }), context()), false)
})

test('visitor, dates and weekdays', async (t) => {
  t.equal(evaluate(all({ type: 'logged_in', operator: 'is', value: true }), context()), false)
  t.equal(evaluate(all({ type: 'logged_in', operator: 'is', value: true }), context({ loggedIn: true })), true)
  t.equal(evaluate(all({ type: 'user_capability', operator: 'has', value: 'manage_shop' }), context({ capabilities: ['manage_shop'] })), true)
  t.equal(evaluate(all({ type: 'user_capability', operator: 'has_not', value: 'manage_shop' }), context()), true)
  const november = { from: '2026-11-01T00:00:00Z', to: '2026-11-30T23:59:59Z' }
  t.equal(evaluate(all({ type: 'date_range', operator: 'between', value: november }), context()), true)
  t.equal(evaluate(all({ type: 'date_range', operator: 'not_between', value: november }), context()), false)
  t.equal(evaluate(all({ type: 'date_range', operator: 'between', value: { from: '2026-11-22T12:00:00Z' } }), context()), true, 'from is inclusive')
  t.equal(evaluate(all({ type: 'date_range', operator: 'between', value: { to: '2026-11-22T11:59:59Z' } }), context()), false)
  t.equal(evaluate(all({ type: 'weekday', operator: 'in', value: [0, 6] }), context()), true, 'Sunday is 0')
  t.equal(evaluate(all({ type: 'weekday', operator: 'not_in', value: [0] }), context()), false)
})

test('AND and OR groups, nested one level', async (t) => {
  const big = { type: 'cart_subtotal', operator: 'gte', value: 10000 }
  const hasHoodie = { type: 'product_in_cart', operator: 'contains_any', value: [106] }
  const member = { type: 'logged_in', operator: 'is', value: true }
  t.equal(evaluate(all(big, hasHoodie), context()), false)
  t.equal(evaluate(any(big, hasHoodie), context()), true)
  t.equal(evaluate(any(all(big, member), all(hasHoodie, member)), context({ loggedIn: true })), true)
  t.equal(evaluate(any(all(big, member), all(hasHoodie, member)), context()), false)
  t.equal(evaluate(all(), context()), true, 'an empty group holds')
  t.equal(evaluate(any(), context()), true)
})

test('validation lists every problem with its path', async (t) => {
  t.same(validateConditions(all({ type: 'cart_subtotal', operator: 'gte', value: 100 }, any({ type: 'weekday', operator: 'in', value: [1, 2] }))), {})
  const problems = validateConditions({
    match: 'every',
    conditions: [
      { type: 'cart_subtotal', operator: 'contains_any', value: -1 },
      { type: 'teleport', operator: 'is', value: 1 },
      { type: 'weekday', operator: 'in', value: [7] },
      { type: 'date_range', operator: 'between', value: { from: 'yesterday' } },
      { type: 'logged_in', operator: 'is', value: true, extra: 1 },
      { match: 'any', conditions: [{ match: 'all', conditions: [] }] },
      'nonsense'
    ],
    extra: true
  })
  t.same(Object.keys(problems).sort(), [
    'conditions.conditions.0.operator',
    'conditions.conditions.0.value',
    'conditions.conditions.1.type',
    'conditions.conditions.2.value.0',
    'conditions.conditions.3.value.from',
    'conditions.conditions.4.extra',
    'conditions.conditions.5.conditions.0',
    'conditions.conditions.6',
    'conditions.extra',
    'conditions.match'
  ].sort())
  t.match(validateConditions({ match: 'all', conditions: Array.from({ length: 51 }, () => ({ type: 'logged_in', operator: 'is', value: true })) }), { conditions: /at most 50/ })
})

test('every type is described with operators and a JSON schema for its value', async (t) => {
  const types = describeConditionTypes()
  t.same(types.map((type) => type.type), ['cart_subtotal', 'cart_item_count', 'product_in_cart', 'category_in_cart', 'logged_in', 'user_capability', 'date_range', 'weekday'])
  for (const type of types) {
    t.ok(type.operators.length > 0, `${type.type} has operators`)
    t.type(type.value_schema, 'object')
    t.ok(JSON.parse(JSON.stringify(type.value_schema)).type, `${type.type}: the schema is plain JSON`)
  }
})
