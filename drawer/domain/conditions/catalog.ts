import { Type, type TSchema } from 'typebox'
import type { ConditionContext } from './types.ts'

/** One kind of condition: its operators, the JSON schema of its value, and how it is evaluated. */
export interface ConditionType<V = unknown> {
  type: string
  label: string
  operators: readonly string[]
  valueSchema: TSchema
  evaluate (context: ConditionContext, operator: string, value: V): boolean
}

const Money = Type.Integer({ minimum: 0, description: 'An amount in minor units (cents).' })
const Count = Type.Integer({ minimum: 0 })
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100, uniqueItems: true })
const DateTime = Type.String({ format: 'date-time' })

const comparisons = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const
function compare (actual: number, operator: string, expected: number): boolean {
  switch (operator) {
    case 'gt': return actual > expected
    case 'gte': return actual >= expected
    case 'lt': return actual < expected
    case 'lte': return actual <= expected
    case 'eq': return actual === expected
    case 'neq': return actual !== expected
    default: return false
  }
}

const setOperators = ['contains_any', 'contains_all', 'contains_none'] as const
function matchSet (present: ReadonlySet<number>, operator: string, wanted: readonly number[]): boolean {
  switch (operator) {
    case 'contains_any': return wanted.some((id) => present.has(id))
    case 'contains_all': return wanted.every((id) => present.has(id))
    case 'contains_none': return !wanted.some((id) => present.has(id))
    default: return false
  }
}

const subtotal: ConditionType<number> = {
  type: 'cart_subtotal',
  label: 'Cart subtotal',
  operators: comparisons,
  valueSchema: Money,
  evaluate: (context, operator, value) => compare(context.subtotal, operator, value)
}

const itemCount: ConditionType<number> = {
  type: 'cart_item_count',
  label: 'Number of items in the cart',
  operators: comparisons,
  valueSchema: Count,
  evaluate: (context, operator, value) => compare(context.itemCount, operator, value)
}

const productInCart: ConditionType<number[]> = {
  type: 'product_in_cart',
  label: 'Products in the cart',
  operators: setOperators,
  valueSchema: Ids,
  evaluate: (context, operator, value) => matchSet(context.productIds, operator, value)
}

const categoryInCart: ConditionType<number[]> = {
  type: 'category_in_cart',
  label: 'Product categories in the cart',
  operators: setOperators,
  valueSchema: Ids,
  evaluate: (context, operator, value) => matchSet(context.categoryIds, operator, value)
}

const loggedIn: ConditionType<boolean> = {
  type: 'logged_in',
  label: 'Visitor is logged in',
  operators: ['is'],
  valueSchema: Type.Boolean(),
  evaluate: (context, _operator, value) => context.loggedIn === value
}

const capability: ConditionType<string> = {
  type: 'user_capability',
  label: 'Visitor has a capability or role',
  operators: ['has', 'has_not'],
  valueSchema: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$' }),
  evaluate: (context, operator, value) => context.capabilities.includes(value) === (operator === 'has')
}

const dateRange: ConditionType<{ from?: string, to?: string }> = {
  type: 'date_range',
  label: 'Date and time',
  operators: ['between', 'not_between'],
  valueSchema: Type.Object({ from: Type.Optional(DateTime), to: Type.Optional(DateTime) }, { additionalProperties: false, minProperties: 1 }),
  evaluate: (context, operator, { from, to }) => {
    const now = context.now.getTime()
    const inside = (from === undefined || now >= Date.parse(from)) && (to === undefined || now <= Date.parse(to))
    return operator === 'between' ? inside : !inside
  }
}

const weekday: ConditionType<number[]> = {
  type: 'weekday',
  label: 'Day of the week (UTC; 0 is Sunday)',
  operators: ['in', 'not_in'],
  valueSchema: Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), { minItems: 1, maxItems: 7, uniqueItems: true }),
  evaluate: (context, operator, value) => value.includes(context.now.getUTCDay()) === (operator === 'in')
}

/** Every condition type, by name. */
export const CONDITION_TYPES: ReadonlyMap<string, ConditionType> = new Map(
  [subtotal, itemCount, productInCart, categoryInCart, loggedIn, capability, dateRange, weekday]
    .map((definition) => [definition.type, definition as ConditionType])
)
