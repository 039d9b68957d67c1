import { h } from '../dom.ts'
import { money } from '../format.ts'
import type { CartState } from '../types.ts'

/** A label and its amount; the amount is left to right on any page, so that a right-to-left one keeps "−$9.00" whole. */
function row (label: string, value: string, name: string, strong = false): HTMLElement {
  return h('div', { class: strong ? 'svc-row svc-grand' : 'svc-row', 'data-svc': name }, h('span', {}, label), h('span', { dir: 'ltr' }, value))
}

/** Subtotal, discount, shipping, fees, tax and the total to pay. */
export function renderTotals (cart: CartState): Node[] {
  const { currency } = cart
  return [
    row('Subtotal', money(cart.cartSubtotal, currency), 'subtotal'),
    Number(cart.cartDiscount) > 0 && row('Discount', `−${money(cart.cartDiscount, currency)}`, 'discount'),
    ...cart.cartFees.map((fee) => row(fee.name, money(fee.total, currency), 'fee')),
    cart.cartShipping !== null && row('Shipping', Number(cart.cartShipping) === 0 ? 'Free' : money(cart.cartShipping, currency), 'shipping'),
    Number(cart.cartTax) > 0 && row('Tax', money(cart.cartTax, currency), 'tax'),
    row('Total', money(cart.cartTotal, currency), 'total', true)
  ].filter((node): node is HTMLElement => node !== false)
}
