import { h, safeUrl } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { CartItem, CartState } from '../types.ts'

export interface LineActions {
  setQuantity (item: CartItem, quantity: number): void
  remove (item: CartItem): void
}

export function lineName (item: CartItem): string {
  return item.presentation?.name || item.name
}

/** The nearest allowed quantity: a multiple of `multipleOf`, within the minimum and maximum. */
export function allowedQuantity (wanted: number, { minimum, maximum, multipleOf }: CartItem['quantityLimits']): number {
  const step = Math.max(1, multipleOf)
  const stepped = Math.round(wanted / step) * step
  return Math.min(Math.floor(maximum / step) * step, Math.max(Math.ceil(minimum / step) * step, stepped))
}

/** Quantity controls, only where the line's quantity may be edited, bounded by its `quantityLimits`. */
function quantityControls (item: CartItem, name: string, actions: LineActions, i18n: I18n): HTMLElement {
  const limits = item.quantityLimits
  const step = Math.max(1, limits.multipleOf)
  const down = allowedQuantity(item.quantity - step, limits)
  const up = allowedQuantity(item.quantity + step, limits)
  const input = h('input', {
    type: 'number',
    inputmode: 'numeric',
    min: limits.minimum,
    max: limits.maximum,
    step,
    value: item.quantity,
    'aria-label': i18n.t('quantityOf', { name }),
    'data-fk': `qty:${item.key}`
  })
  // Enter applies a typed quantity at once (a number field alone would wait for the blur).
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') input.dispatchEvent(new Event('change')) })
  input.addEventListener('change', () => {
    const wanted = allowedQuantity(Number(input.value) || limits.minimum, limits)
    input.value = String(wanted)
    if (wanted !== item.quantity) actions.setQuantity(item, wanted)
  })
  return h('div', { class: 'svc-qty', role: 'group', 'aria-label': i18n.t('quantityOf', { name }) },
    h('button', {
      type: 'button',
      'aria-label': i18n.t('decrease', { name }),
      disabled: down >= item.quantity,
      'data-fk': `dec:${item.key}`,
      onclick: () => actions.setQuantity(item, down)
    }, '−'),
    input,
    h('button', {
      type: 'button',
      'aria-label': i18n.t('increase', { name }),
      disabled: up <= item.quantity,
      'data-fk': `inc:${item.key}`,
      onclick: () => actions.setQuantity(item, up)
    }, '+'))
}

function line (item: CartItem, cart: CartState, actions: LineActions, i18n: I18n): HTMLElement {
  const money = (minor: string | number) => i18n.money(minor, cart.currency)
  const name = lineName(item)
  const presentation = item.presentation
  const summary = presentation?.variationSummary ?? item.variationSummary
  const extra = presentation?.extraLines ?? []
  const notice = presentation?.backorderNotice ?? item.backorderNotice
  const locked = cart.optionalLockedKeys.includes(item.key)
  const subtotal = item.totals.line_subtotal
  const total = item.totals.line_total
  return h('li', { class: 'svc-line', 'data-key': item.key },
    h('img', { class: 'svc-thumb', src: safeUrl(item.image?.thumbnail), alt: '', width: 56, height: 56, loading: 'lazy' }),
    h('div', {},
      h('a', { class: 'svc-name', href: safeUrl(item.permalink), dir: 'auto' }, name),
      summary && h('p', { class: 'svc-meta' }, summary),
      extra.length > 0 && h('ul', { class: 'svc-extra' }, ...extra.map((row) => h('li', {}, i18n.t('detail', { label: row.label, value: row.value })))),
      item.quantity > 1 && h('p', { class: 'svc-meta' }, i18n.t('unitPrice', { quantity: item.quantity, price: money(item.prices.price) })),
      notice && h('p', { class: 'svc-backorder', 'data-svc': 'backorder' }, notice),
      locked && h('span', { class: 'svc-tag' }, i18n.t('addonTag')),
      h('div', { class: 'svc-controls' },
        item.quantityEditable ? quantityControls(item, name, actions, i18n) : h('span', { class: 'svc-meta' }, i18n.t('quantityFixed', { quantity: item.quantity })),
        item.removable && h('button', {
          type: 'button',
          class: 'svc-link',
          'aria-label': i18n.t('removeName', { name }),
          'data-fk': `rm:${item.key}`,
          onclick: () => actions.remove(item)
        }, i18n.t('remove')))),
    h('div', { class: 'svc-price' },
      total !== subtotal && h('s', {}, h('bdi', {}, money(subtotal))),
      h('bdi', {}, money(total))))
}

/** The cart's lines: presentation rows, limits, backorder notices; an empty cart says so. */
export function renderLines (cart: CartState, actions: LineActions, i18n: I18n): Node[] {
  const visible = cart.cartItems.filter((item) => item.visible)
  if (visible.length === 0) return [h('p', { class: 'svc-empty' }, i18n.t('empty'))]
  return [h('ul', { class: 'svc-lines', 'data-svc': 'lines' }, ...visible.map((item) => line(item, cart, actions, i18n)))]
}
