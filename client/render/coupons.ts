import { h } from '../dom.ts'
import { money } from '../format.ts'
import type { CartState } from '../types.ts'

export interface CouponForm {
  element: HTMLElement
  input: HTMLInputElement
  note: HTMLElement
  applied: HTMLElement
}

/** The coupon form, built once (what the shopper typed survives redraws); its note says why a code was refused. */
export function createCouponForm (onApply: (code: string) => void): CouponForm {
  const input = h('input', { type: 'text', name: 'coupon', autocomplete: 'off', placeholder: 'Coupon code', 'aria-label': 'Coupon code', 'data-fk': 'coupon-code' })
  const note = h('p', { class: 'svc-note', role: 'alert', 'data-svc': 'coupon-message' })
  const applied = h('ul', { class: 'svc-chips', 'aria-label': 'Applied coupons' })
  const form = h('form', { class: 'svc-coupon-form', novalidate: true },
    input,
    h('button', { type: 'submit', class: 'svc-btn', 'data-fk': 'coupon-apply' }, 'Apply'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const code = input.value.trim()
    if (code === '') {
      note.textContent = 'Enter a coupon code first.'
      input.focus()
      return
    }
    onApply(code)
  })
  const element = h('section', { class: 'svc-section', 'aria-labelledby': 'svc-coupons-title', 'data-svc': 'coupons' },
    h('h3', { id: 'svc-coupons-title' }, 'Coupon'), form, note, applied)
  return { element, input, note, applied }
}

/** The applied coupons; only a removable one that is not a system reward gets a remove button. */
export function renderAppliedCoupons (cart: CartState, onRemove: (code: string) => void): Node[] {
  return cart.coupons.map((coupon) => h('li', { class: 'svc-chip', 'data-code': coupon.code },
    h('span', {}, `${coupon.label} (−${money(coupon.discount, cart.currency)})`),
    coupon.removable && !coupon.isSystemReward && h('button', {
      type: 'button',
      'aria-label': `Remove coupon ${coupon.code}`,
      'data-fk': `coupon-rm:${coupon.code}`,
      onclick: () => onRemove(coupon.code)
    }, '×')))
}
