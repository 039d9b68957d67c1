import { h } from '../dom.ts'
import type { ConditionTypeInfo, FormContext } from './context.ts'
import { fieldId, productListPicker } from './fields.ts'
import { lookup, t, tNodes, weekdayName } from './i18n.ts'
import { amountInput } from './money.ts'
import { isObject, pathKey, type Json, type Path } from './paths.ts'
import type { Schema } from './schema.ts'

/** The condition types whose value is an amount of money (typed in the shop's currency, saved in its smallest unit). */
const MONEY_TYPES = new Set(['cart_subtotal'])

/**
 * A type's words from the catalog (`condition.type.weekday`); a type the catalog does not know (a plugin's) keeps the
 * server's label, which is English.
 */
const typeLabel = (type: ConditionTypeInfo): string => lookup(`condition.type.${type.type}`) ?? type.label
const operatorWords = (operator: string): string => lookup(`condition.operator.${operator}`) ?? operator

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
  const label = t('condition.value', { condition: typeLabel(type) })
  if (schema.type === 'boolean') {
    const select = h('select', { id, 'aria-label': label },
      h('option', { value: 'true', selected: current === true }, t('condition.yes')),
      h('option', { value: 'false', selected: current === false }, t('condition.no')))
    select.addEventListener('change', () => { context.set(path, select.value === 'true') })
    return select
  }
  if ((schema.type === 'integer' || schema.type === 'number') && MONEY_TYPES.has(type.type)) {
    return amountInput(id, current, context.currency, (value, problem) => {
      context.set(path, value)
      context.invalid(path, problem)
    }, { 'aria-label': t('condition.amount', { condition: typeLabel(type), currency: context.currency.currency_code }) })
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
        return h('label', { class: 'admin-toggle' }, box, type.type === 'weekday' ? h('span', { 'data-weekday': day }, weekdayName(day)) : String(day))
      })
      return h('fieldset', { id, class: 'admin-days' }, h('legend', { class: 'sr-only' }, label), ...boxes)
    }
    const input = h('input', { id, type: 'text', placeholder: t('condition.idsExample'), 'aria-label': label, value: Array.isArray(current) ? current.join(', ') : '' })
    input.addEventListener('input', () => {
      context.set(path, input.value.split(/[\s,]+/).filter(Boolean).map((part) => /^\d+$/.test(part) ? Number(part) : part))
    })
    return input
  }
  if (schema.type === 'object') {
    const range = isObject(current) ? current : {}
    const end = (key: 'from' | 'to', words: string, aria: string) => {
      const input = h('input', { type: 'datetime-local', 'aria-label': aria, value: toLocalInput(range[key]) })
      input.addEventListener('input', () => {
        const next: Json = { ...(isObject(context.get(path)) ? context.get(path) as Json : {}) }
        const value = fromLocalInput(input.value)
        if (value === undefined) delete next[key]
        else next[key] = value
        context.set(path, next)
      })
      return h('label', { class: 'admin-date' }, words, input)
    }
    return h('span', { id, class: 'admin-range' },
      end('from', t('condition.from'), t('condition.fromUtc')), end('to', t('condition.to'), t('condition.toUtc')), h('span', { class: 'admin-help' }, t('condition.utc')))
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
  const typeSelect = h('select', { id: fieldId([...path, 'type']), 'aria-label': t('condition.type') },
    ...(type === undefined ? [h('option', { value: String(condition.type ?? ''), selected: true }, t('condition.unknown', { type: String(condition.type ?? '') }))] : []),
    ...types.map((candidate) => h('option', { value: candidate.type, selected: candidate === type }, typeLabel(candidate))))
  typeSelect.addEventListener('change', () => {
    const next = types.find((candidate) => candidate.type === typeSelect.value)
    if (next === undefined) return
    context.restructure(path, { type: next.type, operator: next.operators[0], value: firstValue(next.value_schema as Schema) }, pathKey([...path, 'type']))
  })
  const operators = type?.operators ?? [String(condition.operator ?? '')]
  const operatorSelect = h('select', { id: fieldId([...path, 'operator']), 'aria-label': t('condition.operator') },
    ...operators.map((operator) => h('option', { value: operator, selected: operator === condition.operator }, operatorWords(operator))))
  operatorSelect.addEventListener('change', () => { context.set([...path, 'operator'], operatorSelect.value) })
  const value = type === undefined ? h('span', { translate: 'no' }, JSON.stringify(condition.value)) : valueControl(context, [...path, 'value'], type)
  const removeButton = h('button', { type: 'button', class: 'admin-danger', 'aria-label': t('condition.remove') }, t('condition.removeButton'))
  removeButton.addEventListener('click', remove)
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const row = h('div', { class: 'admin-condition', 'data-path': pathKey(path) }, typeSelect, operatorSelect, value, removeButton, error)
  context.field(path, row, error)
  return row
}

/** A group: all or any, its rows, and buttons to add a condition (and at the top level, a group). */
function groupEditor (context: FormContext, path: Path, nested: boolean, removeGroup?: () => void): HTMLElement {
  const group = asGroup(context.get(path))
  const match = h('select', { id: fieldId([...path, 'match']), 'aria-label': t('condition.match') },
    h('option', { value: 'all', selected: group.match === 'all' }, t('condition.matchAll')),
    h('option', { value: 'any', selected: group.match === 'any' }, t('condition.matchAny')))
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
  const addCondition = h('button', { type: 'button', 'data-action': 'add-condition' }, t('condition.add'))
  addCondition.addEventListener('click', () => {
    if (first === undefined) return
    const list = [...asGroup(context.get(path)).conditions, { type: first.type, operator: first.operators[0], value: firstValue(first.value_schema as Schema) }]
    context.restructure(listPath, list, pathKey([...listPath, list.length - 1, 'type']))
  })
  const addGroup = nested ? null : h('button', { type: 'button', 'data-action': 'add-group' }, t('condition.addGroup'))
  addGroup?.addEventListener('click', () => {
    const list = [...asGroup(context.get(path)).conditions, { match: 'any', conditions: [] }]
    context.restructure(listPath, list, pathKey([...listPath, list.length - 1]))
  })
  const removeButton = removeGroup ? h('button', { type: 'button', class: 'admin-danger' }, t('condition.removeGroup')) : null
  removeButton?.addEventListener('click', () => { removeGroup?.() })
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const editor = h('div', { class: nested ? 'admin-conditions admin-group' : 'admin-conditions', 'data-path': pathKey(path), tabindex: -1 },
    // At the top the row's label says when (“Offer it when”): the list of how they combine follows it.
    h('p', {}, ...(nested ? tNodes('condition.groupWhen', { match }) : [match])),
    ...rows,
    rows.length === 0 ? h('p', { class: 'admin-help' }, nested ? t('condition.emptyGroup') : t('condition.none')) : null,
    h('p', { class: 'admin-item-actions' }, addCondition, addGroup, removeButton),
    error)
  context.field(path, editor, error)
  return editor
}

/** The condition group of an add-on or the spotlight, as rows built from `GET conditions/types`. */
export function conditionsEditor (context: FormContext, path: Path): HTMLElement {
  return groupEditor(context, path, false)
}
