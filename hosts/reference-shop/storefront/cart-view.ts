/**
 * The cart page's and the checkout summary's markup, rendered from a Store API cart body on the server. The page
 * script (cart-script.ts) renders the same markup from the Store API's answers in the browser: the two must agree
 * character for character (test/browser/checkout.test.ts compares them), so both write compact HTML without
 * whitespace between elements.
 */
import { escapeHtml } from '../../../kernel/domain/html.ts'
import type { StoreApiCartBody } from '../schemas/store-api-cart.ts'

type CurrencyFields = StoreApiCartBody['totals']

/** Minor units as a string (`"1250"`) formatted with the answer's currency fields, as kernel/domain/money.ts's formatMoney. */
export function formatAmount (amount: string | number, currency: CurrencyFields): string {
  const rounded = Math.round(Number(amount))
  const negative = rounded < 0
  const minorUnit = Math.max(0, Math.trunc(currency.currency_minor_unit))
  const padded = String(Math.abs(rounded)).padStart(minorUnit + 1, '0')
  const whole = padded.slice(0, padded.length - minorUnit)
  const fraction = padded.slice(padded.length - minorUnit)
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, currency.currency_thousand_separator)
  const number = minorUnit > 0 ? `${grouped}${currency.currency_decimal_separator}${fraction}` : grouped
  return `${negative ? '-' : ''}${currency.currency_prefix}${number}${currency.currency_suffix}`
}

/** The selected shipping rate's name, if the cart ships. */
function shippingName (cart: StoreApiCartBody): string {
  for (const pack of cart.shipping_rates) {
    const selected = pack.shipping_rates.find((rate) => rate.selected)
    if (selected) return selected.name
  }
  return ''
}

/** The totals table rows: subtotal, each coupon's discount, fees, shipping, tax, total. */
export function renderTotals (cart: StoreApiCartBody): string {
  const totals = cart.totals
  const money = (amount: string | number) => escapeHtml(formatAmount(amount, totals))
  const row = (name: string, value: string, className: string) =>
    `<tr class="${className}"><th scope="row">${escapeHtml(name)}</th><td>${value}</td></tr>`
  const discount = Number(totals.total_discount)
  const shipping = totals.total_shipping === null
    ? 'No shipping needed'
    : Number(totals.total_shipping) === 0
      ? escapeHtml(shippingName(cart) || 'Free shipping')
      : `${money(totals.total_shipping)} <span class="rate-name">${escapeHtml(shippingName(cart))}</span>`
  return '<table class="cart-totals"><caption>Cart totals</caption><tbody>' +
    row('Subtotal', money(totals.total_items), 'subtotal') +
    row('Discount', discount > 0 ? money(-discount) : money(0), 'discount') +
    cart.fees.map((fee) => row(fee.name, money(fee.totals.total), 'fee')).join('') +
    row('Shipping', shipping, 'shipping') +
    row('Tax', money(totals.total_tax), 'tax') +
    row('Total', `<strong>${money(totals.total_price)}</strong>`, 'order-total') +
    '</tbody></table>'
}

/** The cart's own notices (a coupon that no longer applies, a line whose product is gone). */
function renderCartErrors (cart: StoreApiCartBody): string {
  if (cart.errors.length === 0) return ''
  return `<ul class="cart-errors">${cart.errors.map((error) => `<li>${escapeHtml(error.message)}</li>`).join('')}</ul>`
}

function renderLine (item: StoreApiCartBody['items'][number], cart: StoreApiCartBody): string {
  const totals = cart.totals
  const image = item.images[0]
  const limits = item.quantity_limits
  const variation = item.variation.length === 0
    ? ''
    : `<dl class="variation">${item.variation.map((choice) => `<dt>${escapeHtml(choice.attribute)}:</dt><dd>${escapeHtml(choice.value)}</dd>`).join('')}</dl>`
  const quantityId = `quantity-${item.key}`
  const quantity = limits.editable
    ? `<label class="visually-hidden" for="${escapeHtml(quantityId)}">${escapeHtml(`Quantity of ${item.name}`)}</label>` +
      `<input id="${escapeHtml(quantityId)}" class="quantity" type="number" inputmode="numeric" name="quantity" value="${item.quantity}" ` +
      `min="${limits.minimum}" max="${limits.maximum}" step="${limits.multiple_of}" data-key="${escapeHtml(item.key)}">`
    : `<span class="quantity">${item.quantity}</span>`
  return `<tr class="cart-line" data-key="${escapeHtml(item.key)}">` +
    '<td class="product-thumbnail">' +
    (image ? `<img src="${escapeHtml(image.thumbnail)}" alt="${escapeHtml(image.alt)}" width="64" height="64">` : '') + '</td>' +
    `<td class="product-name"><a href="${escapeHtml(item.permalink)}">${escapeHtml(item.name)}</a>${variation}</td>` +
    `<td class="product-price">${item.prices.price === '' ? '' : escapeHtml(formatAmount(item.prices.price, totals))}</td>` +
    `<td class="product-quantity">${quantity}</td>` +
    `<td class="product-subtotal">${escapeHtml(formatAmount(item.totals.line_subtotal, totals))}</td>` +
    '<td class="product-remove">' +
    `<button type="button" class="remove" data-key="${escapeHtml(item.key)}" aria-label="${escapeHtml(`Remove ${item.name} from the cart`)}">Remove</button></td>` +
    '</tr>'
}

/**
 * The inside of `#cart-body`: the lines with their quantity inputs and remove buttons, the coupon form and the
 * applied coupons, the totals and the link to the checkout; or the empty cart's message.
 */
export function renderCartBody (cart: StoreApiCartBody, homeUrl: string): string {
  if (cart.items.length === 0) {
    return renderCartErrors(cart) + '<p class="cart-empty">Your cart is currently empty.</p>' +
      `<p class="return-to-shop"><a href="${escapeHtml(`${homeUrl}/`)}">Return to the shop</a></p>`
  }
  const coupons = cart.coupons.length === 0
    ? ''
    : '<ul class="applied-coupons" aria-label="Applied coupons">' + cart.coupons.map((coupon) =>
      `<li><span class="coupon-code">${escapeHtml(coupon.code)}</span> <span class="coupon-discount">${escapeHtml(formatAmount(-Number(coupon.totals.total_discount), cart.totals))}</span> ` +
      `<button type="button" class="remove-coupon" data-code="${escapeHtml(coupon.code)}" aria-label="${escapeHtml(`Remove coupon ${coupon.code}`)}">Remove</button></li>`).join('') +
      '</ul>'
  return renderCartErrors(cart) +
    '<table class="cart-lines"><caption class="visually-hidden">Products in the cart</caption><thead><tr>' +
    '<th scope="col"><span class="visually-hidden">Picture</span></th><th scope="col">Product</th><th scope="col">Price</th>' +
    '<th scope="col">Quantity</th><th scope="col">Subtotal</th><th scope="col"><span class="visually-hidden">Remove</span></th>' +
    `</tr></thead><tbody>${cart.items.map((item) => renderLine(item, cart)).join('')}</tbody></table>` +
    '<form id="coupon-form" class="coupon"><label for="coupon-code">Coupon code</label>' +
    '<input id="coupon-code" name="code" type="text" autocomplete="off" required>' +
    '<button type="submit">Apply coupon</button></form>' +
    coupons +
    renderTotals(cart) +
    `<p class="proceed"><a class="button checkout-button" href="${escapeHtml(`${homeUrl}/checkout/`)}">Proceed to checkout</a></p>`
}

/** The checkout's order summary: each line as `name × quantity` with its total, then the totals. */
export function renderOrderSummary (cart: StoreApiCartBody): string {
  const lines = cart.items.map((item) =>
    `<li><span class="summary-name">${escapeHtml(item.name)}</span>` +
    (item.variation.length === 0 ? '' : ` <span class="summary-variation">(${escapeHtml(item.variation.map((choice) => `${choice.attribute}: ${choice.value}`).join(', '))})</span>`) +
    ` <span class="summary-quantity">× ${item.quantity}</span> <span class="summary-total">${escapeHtml(formatAmount(item.totals.line_subtotal, cart.totals))}</span></li>`).join('')
  const coupons = cart.coupons.length === 0
    ? ''
    : `<p class="summary-coupons">Coupons: ${escapeHtml(cart.coupons.map((coupon) => coupon.code).join(', '))}</p>`
  return `<ul class="summary-lines">${lines}</ul>${coupons}${renderTotals(cart)}`
}
