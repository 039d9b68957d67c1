import { h } from '../dom.ts'
import type { ConditionTypeInfo, FormContext } from './context.ts'
import { fieldId, productListPicker } from './fields.ts'
import { humanize } from './labels.ts'
import { amountInput } from './money.ts'
import { isObject, pathKey, type Json, type Path } from './paths.ts'
import type { Schema } from './schema.ts'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const OPERATOR_WORDS: Record<string, string> = {
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  eq: 'is',
  neq: 'is not',
  contains_any: 'include any of',
  contains_all: 'include all of',
  contains_none: 'include none of',
  is: 'is',
  has: 'has',
  has_not: 'has not',
  between: 'is between',
  not_between: 'is not between',
  in: 'is one of',
  not_in: 'is none of'
}

/** The condition types whose value is an amount of money (typed in the shop's currency, saved in its smallest unit). */
const MONEY_TYPES = new Set(['cart_subtotal'])
/** Words for a type where the server's name speaks of its stored value (the screen shows weekdays by name). */
const TYPE_LABELS: Record<string, string> = { weekday: 'Day of the week (UTC)' }
const typeLabel = (type: ConditionTypeInfo): string => TYPE_LABELS[type.type] ?? type.label

interface Group {
  match: 'all' | 'any'
  conditions: unknown[]
}

const asGroup = (value: unknown): Group => {
  const record = isObject(value) ? value : {}
  return { match: record.match === 'any' ? 'any' : 'all', conditions: Array.isArray(record.conditions) ? record.conditions : [] }
}
const isGroup = (value: unknown): boolean => isObject(value) && 'conditions' in value

/** A first value for a condition type, from its value schema. */
function firstValue (schema: Schema): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number': return schema.minimum ?? 0
    case 'boolean': return true
    case 'array': return []
    case 'object': return { from: new Date().toISOString().slice(0, 16) + ':00Z' }
    default: return ''
  }
}

/** A local date-time field (UTC) for an ISO time, and back. */
const toLocalInput = (iso: unknown): string => typeof iso === 'string' && iso.length >= 16 ? iso.slice(0, 16) : ''
const fromLocalInput = (value: string): string | undefined => value === '' ? undefined : `${value}:00Z`

/** The value's control, built from the type's JSON schema (`GET conditions/types`). */
function valueControl (context: FormContext, path: Path, type: ConditionTypeInfo): HTMLElement {
  const schema = type.value_schema as Schema
  const id = fieldId(path)
  const current = context.get(path)
  const label = `Value of ${typeLabel(type).toLowerCase()}`
  if (schema.type === 'boolean') {
    const select = h('select', { id, 'aria-label': label },
      h('option', { value: 'true', selected: current === true }, 'yes'),
      h('option', { value: 'false', selected: current === false }, 'no'))
    select.addEventListener('change', () => { context.set(path, select.value === 'true') })
    return select
  }
  if ((schema.type === 'integer' || schema.type === 'number') && MONEY_TYPES.has(type.type)) {
    return amountInput(id, current, context.currency, (value, problem) => {
      context.set(path, value)
      context.invalid(path, problem)
    }, { 'aria-label': `${label} in ${context.currency.currency_code}` })
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const input = h('input', { id, type: 'number', min: schema.minimum, max: schema.maximum, step: 1, 'aria-label': label, value: String(current ?? '') })
    input.addEventListener('input', () => { context.set(path, Number.isFinite(input.valueAsNumber) ? input.valueAsNumber : input.value) })
    return input
  }
  if (schema.type === 'array') {
    const items = schema.items ?? {}
    if (type.type === 'product_in_cart' && context.products) return productListPicker(context, path)
    if (items.maximum !== undefined && items.maximum <= 31) {
      const chosen = new Set(Array.isArray(current) ? current : [])
      const boxes = Array.from({ length: items.maximum - (items.minimum ?? 0) + 1 }, (_, index) => {
        const day = (items.minimum ?? 0) + index
        const box = h('input', { type: 'checkbox', value: day, checked: chosen.has(day) })
        box.addEventListener('change', () => {
          const values = [...box.closest('fieldset')!.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => Number(input.value))
          context.set(path, values)
        })
        return h('label', { class: 'admin-toggle' }, box, type.type === 'weekday' ? WEEKDAYS[day] ?? String(day) : String(day))
      })
      return h('fieldset', { id, class: 'admin-days' }, h('legend', { class: 'sr-only' }, label), ...boxes)
    }
    const input = h('input', { id, type: 'text', placeholder: 'Ids, e.g. 3, 7', 'aria-label': label, value: Array.isArray(current) ? current.join(', ') : '' })
    input.addEventListener('input', () => {
      context.set(path, input.value.split(/[\s,]+/).filter(Boolean).map((part) => /^\d+$/.test(part) ? Number(part) : part))
    })
    return input
  }
  if (schema.type === 'object') {
    const range = isObject(current) ? current : {}
    const end = (key: 'from' | 'to', words: string) => {
      const input = h('input', { type: 'datetime-local', 'aria-label': `${words} (UTC)`, value: toLocalInput(range[key]) })
      input.addEventListener('input', () => {
        const next: Json = { ...(isObject(context.get(path)) ? context.get(path) as Json : {}) }
        const value = fromLocalInput(input.value)
        if (value === undefined) delete next[key]
        else next[key] = value
        context.set(path, next)
      })
      return h('label', { class: 'admin-date' }, words, input)
    }
    return h('span', { id, class: 'admin-range' }, end('from', 'From'), end('to', 'to'), h('span', { class: 'admin-help' }, 'UTC'))
  }
  const input = h('input', { id, type: 'text', maxlength: schema.maxLength, 'aria-label': label, value: String(current ?? '') })
  input.addEventListener('input', () => { context.set(path, input.value) })
  return input
}

/** One condition: type, operator, value, and a remove button. */
function conditionRow (context: FormContext, path: Path, remove: () => void): HTMLElement {
  const condition = isObject(context.get(path)) ? context.get(path) as Json : {}
  const types = context.conditionTypes
  const type = types.find((candidate) => candidate.type === condition.type)
  const typeSelect = h('select', { id: fieldId([...path, 'type']), 'aria-label': 'Condition' },
    ...(type === undefined ? [h('option', { value: String(condition.type ?? ''), selected: true }, `Unknown: ${String(condition.type ?? '')}`)] : []),
    ...types.map((candidate) => h('option', { value: candidate.type, selected: candidate === type }, typeLabel(candidate))))
  typeSelect.addEventListener('change', () => {
    const next = types.find((candidate) => candidate.type === typeSelect.value)
    if (next === undefined) return
    context.restructure(path, { type: next.type, operator: next.operators[0], value: firstValue(next.value_schema as Schema) }, pathKey([...path, 'type']))
  })
  const operators = type?.operators ?? [String(condition.operator ?? '')]
  const operatorSelect = h('select', { id: fieldId([...path, 'operator']), 'aria-label': 'Operator' },
    ...operators.map((operator) => h('option', { value: operator, selected: operator === condition.operator }, OPERATOR_WORDS[operator] ?? humanize(operator))))
  operatorSelect.addEventListener('change', () => { context.set([...path, 'operator'], operatorSelect.value) })
  const value = type === undefined ? h('span', {}, JSON.stringify(condition.value)) : valueControl(context, [...path, 'value'], type)
  const removeButton = h('button', { type: 'button', class: 'admin-danger', 'aria-label': 'Remove this condition' }, 'Remove')
  removeButton.addEventListener('click', remove)
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const row = h('div', { class: 'admin-condition', 'data-path': pathKey(path) }, typeSelect, operatorSelect, value, removeButton, error)
  context.field(path, row, error)
  return row
}

/** A group: all or any, its rows, and buttons to add a condition (and at the top level, a group). */
function groupEditor (context: FormContext, path: Path, nested: boolean, removeGroup?: () => void): HTMLElement {
  const group = asGroup(context.get(path))
  const match = h('select', { id: fieldId([...path, 'match']), 'aria-label': 'How the conditions combine' },
    h('option', { value: 'all', selected: group.match === 'all' }, 'all of these hold'),
    h('option', { value: 'any', selected: group.match === 'any' }, 'any of these holds'))
  match.addEventListener('change', () => { context.set([...path, 'match'], match.value) })
  const listPath = [...path, 'conditions']
  const removeAt = (index: number) => () => {
    const list = asGroup(context.get(path)).conditions.filter((_, other) => other !== index)
    context.restructure(listPath, list, pathKey(path))
  }
  const rows = group.conditions.map((condition, index) => isGroup(condition) && !nested
    ? groupEditor(context, [...listPath, index], true, removeAt(index))
    : conditionRow(context, [...listPath, index], removeAt(index)))
  const first = context.conditionTypes[0]
  const addCondition = h('button', { type: 'button', 'data-action': 'add-condition' }, 'Add condition')
  addCondition.addEventListener('click', () => {
    if (first === undefined) return
    const list = [...asGroup(context.get(path)).conditions, { type: first.type, operator: first.operators[0], value: firstValue(first.value_schema as Schema) }]
    context.restructure(listPath, list, pathKey([...listPath, list.length - 1, 'type']))
  })
  const addGroup = nested ? null : h('button', { type: 'button', 'data-action': 'add-group' }, 'Add group')
  addGroup?.addEventListener('click', () => {
    const list = [...asGroup(context.get(path)).conditions, { match: 'any', conditions: [] }]
    context.restructure(listPath, list, pathKey([...listPath, list.length - 1]))
  })
  const removeButton = removeGroup ? h('button', { type: 'button', class: 'admin-danger' }, 'Remove group') : null
  removeButton?.addEventListener('click', () => { removeGroup?.() })
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const editor = h('div', { class: nested ? 'admin-conditions admin-group' : 'admin-conditions', 'data-path': pathKey(path), tabindex: -1 },
    // At the top the row's label says when (“Offer it when”): the list of how they combine follows it.
    h('p', {}, nested ? 'A group that holds when ' : null, match),
    ...rows,
    rows.length === 0 ? h('p', { class: 'admin-help' }, nested ? 'An empty group always holds.' : 'No condition: always applies.') : null,
    h('p', { class: 'admin-item-actions' }, addCondition, addGroup, removeButton),
    error)
  context.field(path, editor, error)
  return editor
}

/** The condition group of an add-on or the spotlight, as rows built from `GET conditions/types`. */
export function conditionsEditor (context: FormContext, path: Path): HTMLElement {
  return groupEditor(context, path, false)
}
