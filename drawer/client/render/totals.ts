import { h } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { CartState } from '../types.ts'

/**
 * A label and its amount; the amount is isolated (`<bdi>`, its direction from its own text), so that a right-to-left
 * page keeps "-$9.00" whole instead of "$9.00-".
 */
function row (label: string, value: string, name: string, strong = false): HTMLElement {
  return h('div', { class: strong ? 'svc-row svc-grand' : 'svc-row', 'data-svc': name }, h('span', {}, label), h('bdi', {}, value))
}

/** Subtotal, discount, shipping, fees, tax and the total to pay. */
export function renderTotals (cart: CartState, i18n: I18n): Node[] {
  const { currency } = cart
  const money = (minor: string | number) => i18n.money(minor, currency)
  return [
    row(i18n.t('subtotal'), money(cart.cartSubtotal), 'subtotal'),
    Number(cart.cartDiscount) > 0 && row(i18n.t('discount'), money(-Number(cart.cartDiscount)), 'discount'),
    ...cart.cartFees.map((fee) => row(fee.name, money(fee.total), 'fee')),
    cart.cartShipping !== null && row(i18n.t('shipping'), Number(cart.cartShipping) === 0 ? i18n.t('shippingFree') : money(cart.cartShipping), 'shipping'),
    Number(cart.cartTax) > 0 && row(i18n.t('tax'), money(cart.cartTax), 'tax'),
    row(i18n.t('total'), money(cart.cartTotal), 'total', true)
  ].filter((node): node is HTMLElement => node !== false)
}
