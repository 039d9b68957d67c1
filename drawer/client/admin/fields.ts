import { h } from '../dom.ts'
import { explain } from './api.ts'
import type { FormContext } from './context.ts'
import { t } from './i18n.ts'
import { helpFor, isMoney, labelFor, optionLabel, reshapes } from './labels.ts'
import { amountHint, amountInput } from './money.ts'
import { pathKey, type Path } from './paths.ts'
import { describeProduct } from './products.ts'
import { isColor, type Schema } from './schema.ts'

export const fieldId = (path: Path): string => `f-${path.join('-')}`

/**
 * The help text under a setting, from the catalog (never the schema's description: it is written for developers, in
 * English); how to type an amount or a list of ids.
 */
function helpText (path: Path, schema: Schema, context: FormContext): string | null {
  const help = helpFor(path)
  const typed = schema.type === 'array' && schema.items?.type === 'integer' && context.products === null
    ? t('field.typeIds')
    : null
  const hint = isMoney(path, (at) => context.get(at as Path)) ? amountHint(context.currency) : typed
  return [help, hint].filter(Boolean).join(' ') || null
}

/**
 * A labelled row: the control, its help text, and the place for the server's error. A checkbox sits inside its label,
 * so the whole row (its words too) is what a finger or a click ticks.
 */
export function fieldRow (context: FormContext, path: Path, control: HTMLElement, schema: Schema, options: { label?: string, labelFor?: boolean } = {}): HTMLElement {
  const id = fieldId(path)
  const text = helpText(path, schema, context)
  const help = text ? h('p', { class: 'admin-help', id: `${id}-help` }, text) : null
  const error = h('p', { class: 'admin-error', id: `${id}-error`, 'data-error': pathKey(path) })
  const words = options.label ?? labelFor(path)
  const check = control.matches('input[type=checkbox]')
  const label = check
    ? h('label', { class: 'admin-check', for: id }, h('span', {}, words), control)
    : options.labelFor === false
      ? h('span', { class: 'admin-label', id: `${id}-label` }, words)
      : h('label', { for: id }, words)
  const focusable = control.matches('input,select,textarea') ? control : control.querySelector('input,select,textarea,button')
  focusable?.setAttribute('aria-describedby', [help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' '))
  const row = h('div', { class: check ? 'admin-field admin-field-check' : 'admin-field', 'data-path': pathKey(path) }, label, check ? null : control, help, error)
  context.field(path, row, error)
  return row
}

function numberInput (context: FormContext, path: Path, schema: Schema): HTMLInputElement {
  const input = h('input', {
    id: fieldId(path),
    type: 'number',
    min: schema.minimum,
    max: schema.maximum,
    step: schema.type === 'integer' ? 1 : 'any',
    inputmode: 'numeric',
    value: String(context.get(path) ?? '')
  })
  input.addEventListener('input', () => {
    const value = input.valueAsNumber
    // A value the schema refuses is still sent: the server names the problem next to the field.
    context.set(path, Number.isFinite(value) ? value : input.value)
  })
  return input
}

/** An amount of money, typed in the shop's currency and saved in its smallest unit. */
function moneyInput (context: FormContext, path: Path): HTMLElement {
  return amountInput(fieldId(path), context.get(path), context.currency, (value, problem) => {
    context.set(path, value)
    context.invalid(path, problem)
  })
}

function colorInput (context: FormContext, path: Path): HTMLElement {
  const value = String(context.get(path) ?? '#000000')
  const input = h('input', { id: fieldId(path), type: 'color', value })
  const code = h('code', { 'aria-hidden': 'true', translate: 'no' }, value)
  input.addEventListener('input', () => {
    code.textContent = input.value
    context.set(path, input.value)
  })
  return h('span', { class: 'admin-color' }, input, code)
}

function selectInput (context: FormContext, path: Path, options: unknown[]): HTMLSelectElement {
  const current = context.get(path)
  const select = h('select', { id: fieldId(path) },
    ...options.map((option) => h('option', { value: String(option), selected: option === current }, optionLabel(path, option))))
  select.addEventListener('change', () => {
    const value = options.find((option) => String(option) === select.value)
    if (reshapes(path)) context.restructure(path, value, pathKey(path))
    else context.set(path, value)
  })
  return select
}

function toggleInput (context: FormContext, path: Path): HTMLElement {
  const input = h('input', { id: fieldId(path), type: 'checkbox', checked: context.get(path) === true })
  input.addEventListener('change', () => { context.set(path, input.checked) })
  return input
}

function textInput (context: FormContext, path: Path, schema: Schema): HTMLElement {
  const value = String(context.get(path) ?? '')
  // A long text gets a box of lines; a patterned one (an address) is one line however long.
  const long = (schema.maxLength ?? 0) > 100 && schema.pattern === undefined
  const input = long
    ? h('textarea', { id: fieldId(path), maxlength: schema.maxLength, rows: 3 })
    : h('input', { id: fieldId(path), type: 'text', maxlength: schema.maxLength, value })
  if (input instanceof HTMLTextAreaElement) input.value = value
  input.addEventListener('input', () => { context.set(path, input.value) })
  return input
}

/** A set of choices (`launcher.hide_on_devices`): a box for each, the ticked ones saved in the schema's order. */
function choicesInput (context: FormContext, path: Path, options: unknown[]): HTMLElement {
  const chosen = () => { const value = context.get(path); return Array.isArray(value) ? value : [] }
  return h('div', { class: 'admin-choices', role: 'group', 'aria-labelledby': `${fieldId(path)}-label` }, ...options.map((option) => {
    const box = h('input', { type: 'checkbox', value: String(option), checked: chosen().includes(option) })
    box.addEventListener('change', () => {
      const now = chosen()
      context.set(path, options.filter((other) => other === option ? box.checked : now.includes(other)))
    })
    return h('label', {}, box, optionLabel(path, option))
  }))
}

/** A list of texts (`launcher.hide_on_paths`): one per line; empty lines are dropped. */
function linesInput (context: FormContext, path: Path): HTMLTextAreaElement {
  const current = context.get(path)
  const input = h('textarea', { id: fieldId(path), rows: Math.min(6, Math.max(3, Array.isArray(current) ? current.length + 1 : 3)), spellcheck: 'false' })
  input.value = Array.isArray(current) ? current.join('\n') : ''
  input.addEventListener('input', () => { context.set(path, input.value.split('\n').map((line) => line.trim()).filter(Boolean)) })
  return input
}

/** Ids typed as `12, 15, 3` (Free, where there is no product search). */
function idListInput (context: FormContext, path: Path): HTMLInputElement {
  const current = context.get(path)
  const input = h('input', {
    id: fieldId(path),
    type: 'text',
    inputmode: 'numeric',
    placeholder: t('field.idsExample'),
    value: Array.isArray(current) ? current.join(', ') : ''
  })
  input.addEventListener('input', () => {
    const parts = input.value.split(/[\s,]+/).filter(Boolean)
    context.set(path, parts.map((part) => /^\d+$/.test(part) ? Number(part) : part))
  })
  return input
}

/** A search box listing products; choosing one calls `pick`. */
function productSearch (context: FormContext, id: string, label: string, pick: (id: number) => void): HTMLElement {
  const products = context.products!
  const input = h('input', { id, type: 'search', placeholder: t('picker.search'), autocomplete: 'off', 'aria-label': label })
  const results = h('ul', { class: 'admin-results', 'data-role': 'results' })
  const note = h('p', { class: 'admin-help admin-search-note', role: 'status' })
  let timer = 0
  let asked = 0
  const run = async () => {
    const query = input.value.trim()
    const ticket = ++asked
    if (query === '') {
      results.replaceChildren()
      return
    }
    try {
      const found = await products.search(query)
      if (ticket !== asked) return
      note.textContent = found.length === 0 ? t('picker.none') : ''
      results.replaceChildren(...found.map((product) => {
        const button = h('button', { type: 'button', 'data-product-id': product.id }, ...describeProduct(product))
        button.addEventListener('click', () => {
          pick(product.id)
          input.value = ''
          results.replaceChildren()
          input.focus()
        })
        return h('li', {}, button)
      }))
    } catch (error) {
      note.replaceChildren(explain(error))
    }
  }
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = window.setTimeout(() => { run().catch(() => {}) }, 200)
  })
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      results.querySelector('button')?.focus()
    }
  })
  return h('div', { class: 'admin-picker' }, input, results, note)
}

/** Pro: one product (`product_id`), chosen by search; 0 means none where the schema allows it. */
export function productPicker (context: FormContext, path: Path, schema: Schema): HTMLElement {
  const products = context.products!
  const chosen = h('span', { 'data-role': 'chosen' })
  const clear = h('button', { type: 'button', 'aria-label': t('picker.clearName', { label: labelFor(path) }) }, t('picker.clear'))
  const show = () => {
    const id = Number(context.get(path) ?? 0)
    // A product's name is data, not words of the screen.
    if (id > 0) chosen.setAttribute('translate', 'no')
    else chosen.removeAttribute('translate')
    chosen.textContent = id > 0 ? products.label(id) : t('picker.noneChosen')
    clear.hidden = id === 0 || (schema.minimum ?? 0) > 0
  }
  clear.addEventListener('click', () => {
    context.set(path, 0)
    show()
  })
  show()
  const search = productSearch(context, fieldId(path), t('picker.searchFor', { label: labelFor(path) }), (id) => {
    context.set(path, id)
    show()
  })
  return h('div', {}, h('p', { class: 'admin-chosen' }, chosen, ' ', clear), search)
}

/** Pro: a list of products (`product_ids`, `manual_ids`): chips with a remove button, and a search to add more. */
export function productListPicker (context: FormContext, path: Path): HTMLElement {
  const products = context.products!
  const chips = h('ul', { class: 'admin-chips', 'data-role': 'chosen' })
  const ids = (): number[] => {
    const value = context.get(path)
    return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : []
  }
  const draw = () => {
    chips.replaceChildren(...ids().map((id) => {
      const remove = h('button', { type: 'button', 'aria-label': t('picker.remove', { product: products.label(id) }) }, '×')
      remove.addEventListener('click', () => {
        context.set(path, ids().filter((other) => other !== id))
        draw()
        search.querySelector('input')?.focus()
      })
      return h('li', { class: 'admin-chip', 'data-product-id': id }, h('span', { translate: 'no', dir: 'auto' }, products.label(id)), remove)
    }))
  }
  const search = productSearch(context, fieldId(path), t('picker.addTo', { label: labelFor(path) }), (id) => {
    if (!ids().includes(id)) context.set(path, [...ids(), id])
    draw()
  })
  draw()
  return h('div', {}, chips, search)
}

/** The control for a value of the schema (not objects or lists of objects: see `form.ts`). */
export function control (context: FormContext, path: Path, schema: Schema): HTMLElement {
  const key = String(path[path.length - 1])
  if (schema.enum) return selectInput(context, path, schema.enum)
  if (schema.type === 'boolean') return toggleInput(context, path)
  if (isColor(schema)) return colorInput(context, path)
  if ((schema.type === 'integer' || schema.type === 'number') && isMoney(path, (at) => context.get(at as Path))) return moneyInput(context, path)
  if (schema.type === 'integer' || schema.type === 'number') {
    return key === 'product_id' && context.products ? productPicker(context, path, schema) : numberInput(context, path, schema)
  }
  if (schema.type === 'array' && (schema.items?.type === 'integer')) {
    return context.products ? productListPicker(context, path) : idListInput(context, path)
  }
  if (schema.type === 'array' && schema.items?.enum) return choicesInput(context, path, schema.items.enum)
  if (schema.type === 'array' && schema.items?.type === 'string') return linesInput(context, path)
  return textInput(context, path, schema)
}
