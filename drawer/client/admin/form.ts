import { h } from '../dom.ts'
import { conditionsEditor } from './conditions.ts'
import type { FormContext } from './context.ts'
import { control, fieldRow } from './fields.ts'
import { t } from './i18n.ts'
import { helpFor, labelFor, listWords, sectionNote, sectionTitle, settingKey, singular } from './labels.ts'
import { isObject, pathKey, type Path } from './paths.ts'
import { createValue, isConditionGroup, type Schema } from './schema.ts'
import { textsEditor } from './texts.ts'

/** A new list item: the schema's defaults, and a fresh id where the items have one (`add-on-2`: ids are codes, not words). */
function newItem (context: FormContext, path: Path, schema: Schema, key: string): unknown {
  const item = createValue(schema, '', settingKey(path))
  if (isObject(item) && schema.properties?.id) {
    const list = context.get(path)
    const taken = new Set(Array.isArray(list) ? list.map((other) => isObject(other) ? other.id : undefined) : [])
    const base = singular(key).replace(/[^a-z0-9]+/g, '-')
    let n = 1
    while (taken.has(`${base}-${n}`)) n++
    item.id = `${base}-${n}`
  }
  return item
}

/** A list of objects (add-ons, bundles, a bundle's slots): each item's fields, with move, remove and add buttons. */
function listEditor (context: FormContext, path: Path, schema: Schema): HTMLElement {
  const key = String(path[path.length - 1])
  const itemSchema = schema.items ?? {}
  const value = context.get(path)
  const list = Array.isArray(value) ? value : []
  const words = listWords(path)
  const move = (from: number, to: number) => {
    const next = [...list]
    const [item] = next.splice(from, 1)
    next.splice(to, 0, item)
    context.restructure(path, next, pathKey([...path, to]))
  }
  const items = list.map((item, index) => {
    const record = isObject(item) ? item : {}
    // The item's own name (the shop's words for its shoppers) when it has one, else "Bundle 2".
    const named = String(record.label ?? record.title ?? '')
    const title = named || words.item(index + 1)
    const headingId = `h-${[...path, index].join('-')}`
    const button = (text: string, aria: string, action: () => void, disabled = false) => {
      const element = h('button', { type: 'button', 'aria-label': aria, disabled }, text)
      element.addEventListener('click', action)
      return element
    }
    return h('div', { class: 'admin-item', 'data-path': pathKey([...path, index]), role: 'group', 'aria-labelledby': headingId, tabindex: -1 },
      h('div', { class: 'admin-item-head' },
        h(path.length > 2 ? 'h4' : 'h3', named ? { id: headingId, translate: 'no', dir: 'auto' } : { id: headingId }, title),
        h('span', { class: 'admin-item-actions' },
          button('↑', t('list.moveUp', { item: title }), () => { move(index, index - 1) }, index === 0),
          button('↓', t('list.moveDown', { item: title }), () => { move(index, index + 1) }, index === list.length - 1),
          button(t('list.removeButton'), t('list.remove', { item: title }), () => {
            context.restructure(path, list.filter((_, other) => other !== index), `${pathKey(path)}.add`)
          }))),
      ...objectFields(context, [...path, index], itemSchema))
  })
  const full = schema.maxItems !== undefined && list.length >= schema.maxItems
  const add = h('button', { type: 'button', 'data-action': 'add', 'data-path': `${pathKey(path)}.add`, disabled: full }, words.add)
  add.addEventListener('click', () => {
    context.restructure(path, [...list, newItem(context, path, itemSchema, key)], pathKey([...path, list.length]))
  })
  const error = h('p', { class: 'admin-error', 'data-error': pathKey(path) })
  const wrapper = h('div', { class: 'admin-list-wrap', 'data-list': pathKey(path) },
    h(path.length > 2 ? 'h4' : 'h3', {}, labelFor(path)),
    helpFor(path) === null ? null : h('p', { class: 'admin-help' }, helpFor(path)),
    h('div', { class: 'admin-list' }, ...items),
    list.length === 0 ? h('p', { class: 'admin-help' }, words.none) : null,
    h('p', {}, add, full ? ` ${t('list.atMost', { max: schema.maxItems ?? 0 })}` : ''),
    error)
  context.field(path, wrapper, error)
  return wrapper
}

/** The fields of an object: values as labelled controls, objects as fieldsets, lists of objects as list editors. */
export function objectFields (context: FormContext, path: Path, schema: Schema): HTMLElement[] {
  return Object.entries(schema.properties ?? {}).map(([key, child]) => {
    const at = [...path, key]
    if (isConditionGroup(child)) {
      const error = h('p', { class: 'admin-error' })
      const row = h('div', { class: 'admin-field admin-field-wide', 'data-path': `${pathKey(at)}.field` },
        h('span', { class: 'admin-label' }, labelFor(at)), conditionsEditor(context, at), error)
      return row
    }
    if (pathKey(at) === 'language.texts') return textsEditor(context, at)
    if (child.type === 'object') {
      return h('fieldset', { class: 'admin-fieldset', 'data-path': pathKey(at) }, h('legend', {}, labelFor(at)), ...objectFields(context, at, child))
    }
    if (child.type === 'array' && child.items?.type === 'object') return listEditor(context, at, child)
    const element = control(context, at, child)
    const labelled = element.matches('input,select,textarea') || element.querySelector('input[id],select[id],textarea[id]') !== null
    return fieldRow(context, at, element, child, { labelFor: labelled })
  })
}

/** A section's introduction, from the catalog (not the schema's description, written for developers). */
function noteOf (key: string): HTMLElement | null {
  const note = sectionNote(key)
  return note ? h('p', { class: 'admin-note' }, note) : null
}

/** The whole form: one card per section of the settings document (the Pro sections only in Pro). */
export function buildForm (context: FormContext, schema: Schema, sections: readonly string[]): HTMLElement[] {
  return sections.map((key) => {
    const child = schema.properties?.[key]
    if (child === undefined) return null
    const headingId = `section-${key}`
    const body = child.type === 'object'
      ? objectFields(context, [key], child)
      : [fieldRow(context, [key], control(context, [key], child), child)]
    return h('section', { class: 'admin-card', 'data-section': key, 'aria-labelledby': headingId },
      h('h2', { id: headingId }, sectionTitle(key)),
      child.type === 'object' ? noteOf(key) : null,
      ...body)
  }).filter((section): section is HTMLElement => section !== null)
}
