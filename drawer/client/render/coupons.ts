import { h } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { CartState } from '../types.ts'

export interface CouponForm {
  element: HTMLElement
  input: HTMLInputElement
  note: HTMLElement
  applied: HTMLElement
}

/** The coupon form, built once (what the shopper typed survives redraws); its note says why a code was refused. */
export function createCouponForm (i18n: I18n, onApply: (code: string) => void): CouponForm {
  const input = h('input', { type: 'text', name: 'coupon', autocomplete: 'off', placeholder: i18n.t('couponCode'), 'aria-label': i18n.t('couponCode'), 'data-fk': 'coupon-code' })
  const note = h('p', { class: 'svc-note', role: 'alert', 'data-svc': 'coupon-message' })
  const applied = h('ul', { class: 'svc-chips', 'aria-label': i18n.t('couponsApplied') })
  const form = h('form', { class: 'svc-coupon-form', novalidate: true },
    input,
    h('button', { type: 'submit', class: 'svc-btn', 'data-fk': 'coupon-apply' }, i18n.t('couponApply')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const code = input.value.trim()
    if (code === '') {
      note.textContent = i18n.t('couponMissing')
      input.focus()
      return
    }
    onApply(code)
  })
  const element = h('section', { class: 'svc-section', 'aria-labelledby': 'svc-coupons-title', 'data-svc': 'coupons' },
    h('h3', { id: 'svc-coupons-title' }, i18n.t('couponTitle')), form, note, applied)
  return { element, input, note, applied }
}

/** The applied coupons; only a removable one that is not a system reward gets a remove button. */
export function renderAppliedCoupons (cart: CartState, i18n: I18n, onRemove: (code: string) => void): Node[] {
  return cart.coupons.map((coupon) => h('li', { class: 'svc-chip', 'data-code': coupon.code },
    h('span', { dir: 'auto' }, i18n.t('couponChip', { label: coupon.label === `Coupon: ${coupon.code}` ? i18n.t('couponLabel', { code: coupon.code }) : coupon.label, amount: i18n.money(-Number(coupon.discount), cart.currency) })),
    coupon.removable && !coupon.isSystemReward && h('button', {
      type: 'button',
      'aria-label': i18n.t('couponRemove', { code: coupon.code }),
      'data-fk': `coupon-rm:${coupon.code}`,
      onclick: () => onRemove(coupon.code)
    }, '×')))
}
