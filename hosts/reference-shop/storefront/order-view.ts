/**
 * The order-received page (WooCommerce's "thank you" page) and the account's order list, rendered from stored
 * orders. Every text is escaped.
 */
import { findPaymentMethod } from '../../../kernel/domain/checkout.ts'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import { formatMoney } from '../../../kernel/domain/money.ts'
import type { Address, Currency, Order, OrderStatus } from '../../../kernel/domain/types.ts'

const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed'
}

export function statusLabel (status: OrderStatus): string {
  return STATUS_LABELS[status] ?? status
}

/** The demo shop's bank account, shown with a bank transfer's instructions (WooCommerce's BACS account details). */
const DEMO_BANK_ACCOUNT: ReadonlyArray<[string, string]> = [
  ['Account name', 'Demo shop'],
  ['Bank', 'Demo Bank'],
  ['IBAN', 'DE00 0000 0000 0000 0000 00'],
  ['BIC', 'DEMODEXX']
]

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })

export function orderDate (order: Order): string {
  const date = new Date(order.createdAt)
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date)
}

/** The order-received URL of an order: its id and its key, as WooCommerce's `get_checkout_order_received_url`. */
export function orderReceivedUrl (homeUrl: string, order: Pick<Order, 'id' | 'key'>): string {
  return `${homeUrl}/checkout/order-received/${order.id}/?key=${encodeURIComponent(order.key)}`
}

/** The shop's currency, with the order's code when it was placed in another one. */
function orderCurrency (order: Order, shop: Currency): Currency {
  return order.currency === shop.code || order.currency === '' ? shop : { ...shop, code: order.currency, prefix: '', suffix: ` ${order.currency}` }
}

function addressLines (address: Address): string[] {
  const name = [address.firstName, address.lastName].filter(Boolean).join(' ')
  const cityLine = [address.city, address.state, address.postcode].filter(Boolean).join(', ')
  return [name, address.company, address.address1, address.address2, cityLine, address.country].filter((line) => line.trim() !== '')
}

function renderAddress (heading: string, address: Address, extra: string[] = []): string {
  const lines = [...addressLines(address), ...extra.filter((line) => line !== '')]
  if (lines.length === 0) return ''
  return `<section class="order-address"><h2>${escapeHtml(heading)}</h2><address>${lines.map(escapeHtml).join('<br>')}</address></section>`
}

/** The order-received page's content. */
export function renderOrderReceived (order: Order, shopCurrency: Currency): string {
  const currency = orderCurrency(order, shopCurrency)
  const money = (minor: number) => escapeHtml(formatMoney(minor, currency))
  const method = findPaymentMethod(order.paymentMethod)
  const bank = order.paymentMethod === 'bacs'
    ? `<dl class="bank-details">${DEMO_BANK_ACCOUNT.map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}` +
      `<dt>Reference</dt><dd>${escapeHtml(`Order ${order.id}`)}</dd></dl>`
    : ''
  const instructions = method
    ? `<section class="payment-instructions"><h2>${order.paymentMethod === 'bacs' ? 'Our bank details' : escapeHtml(method.title)}</h2>` +
      `<p>${escapeHtml(method.instructions)}</p>${bank}</section>`
    : ''
  const lines = order.lines.map((line) => {
    const variation = Object.entries(line.variation)
    return `<tr><td>${escapeHtml(line.name)}` +
      (variation.length === 0 ? '' : ` <span class="variation">(${escapeHtml(variation.map(([name, value]) => `${name}: ${value}`).join(', '))})</span>`) +
      ` <strong class="product-quantity">× ${line.quantity}</strong></td><td>${money(line.subtotal)}</td></tr>`
  }).join('')
  const { totals } = order
  const row = (name: string, value: string) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${value}</td></tr>`
  const shipping = order.shippingLines.length === 0
    ? ''
    : row('Shipping', order.shippingLines.map((line) => `${money(line.total)} <span class="rate-name">${escapeHtml(line.name)}</span>`).join(', '))
  const discount = totals.totalDiscount > 0
    ? row(`Discount${order.coupons.length > 0 ? ` (${order.coupons.map((coupon) => coupon.code).join(', ')})` : ''}`, money(-totals.totalDiscount))
    : ''
  return '<h1>Order received</h1>' +
    '<p class="thankyou">Thank you. Your order has been received.</p>' +
    '<ul class="order-overview">' +
    `<li class="order-number">Order number: <strong>${order.id}</strong></li>` +
    `<li class="order-date">Date: <strong>${escapeHtml(orderDate(order))}</strong></li>` +
    (order.billing.email === '' ? '' : `<li class="order-email">Email: <strong>${escapeHtml(order.billing.email)}</strong></li>`) +
    `<li class="order-total">Total: <strong>${money(totals.totalPrice)}</strong></li>` +
    `<li class="order-status">Status: <strong>${escapeHtml(statusLabel(order.status))}</strong></li>` +
    `<li class="order-payment-method">Payment method: <strong>${escapeHtml(order.paymentMethodTitle || order.paymentMethod)}</strong></li>` +
    '</ul>' +
    instructions +
    '<section class="order-details"><h2>Order details</h2>' +
    '<table class="order-lines"><thead><tr><th scope="col">Product</th><th scope="col">Total</th></tr></thead>' +
    `<tbody>${lines}</tbody><tfoot>` +
    row('Subtotal', money(totals.totalItems)) +
    discount +
    order.fees.map((fee) => row(fee.name, money(fee.total))).join('') +
    shipping +
    row('Tax', money(totals.totalTax)) +
    row('Payment method', escapeHtml(order.paymentMethodTitle || order.paymentMethod)) +
    row('Total', `<strong>${money(totals.totalPrice)}</strong>`) +
    '</tfoot></table>' +
    (order.customerNote === '' ? '' : `<p class="customer-note"><strong>Note:</strong> ${escapeHtml(order.customerNote)}</p>`) +
    '</section>' +
    '<div class="order-addresses">' +
    renderAddress('Billing address', order.billing, [order.billing.phone, order.billing.email]) +
    renderAddress('Shipping address', order.shipping, [order.shipping.phone]) +
    '</div>'
}

/** The 404 page's content for an order that does not exist or whose key does not match: it says nothing more. */
export function renderOrderNotFound (homeUrl: string): string {
  return '<h1>Order not found</h1><p>This order cannot be shown. Please check the link in your order confirmation.</p>' +
    `<p><a href="${escapeHtml(`${homeUrl}/`)}">Return to the shop</a></p>`
}

export interface AccountOrdersView {
  orders: readonly Order[]
  total: number
  page: number
  perPage: number
  homeUrl: string
  currency: Currency
}

/** The logged-in shopper's orders, newest first, with links to each order's page. */
export function renderAccountOrders ({ orders, total, page, perPage, homeUrl, currency }: AccountOrdersView): string {
  if (total === 0) {
    return '<h1>My orders</h1><p class="no-orders">No order has been made yet.</p>' +
      `<p><a href="${escapeHtml(`${homeUrl}/`)}">Browse products</a></p>`
  }
  const rows = orders.map((order) => {
    const url = escapeHtml(orderReceivedUrl(homeUrl, order))
    const items = order.lines.reduce((sum, line) => sum + line.quantity, 0)
    return `<tr data-order-id="${order.id}">` +
      `<th scope="row"><a href="${url}">${escapeHtml(`#${order.id}`)}</a></th>` +
      `<td>${escapeHtml(orderDate(order))}</td>` +
      `<td>${escapeHtml(statusLabel(order.status))}</td>` +
      `<td>${escapeHtml(formatMoney(order.totals.totalPrice, orderCurrency(order, currency)))} for ${items} ${items === 1 ? 'item' : 'items'}</td>` +
      '</tr>'
  }).join('')
  const pages = Math.max(1, Math.ceil(total / perPage))
  const nav = pages === 1
    ? ''
    : '<nav class="pagination" aria-label="Order pages">' +
      (page > 1 ? `<a href="${escapeHtml(`${homeUrl}/account/orders/?page=${page - 1}`)}">Newer orders</a> ` : '') +
      `<span>Page ${page} of ${pages}</span>` +
      (page < pages ? ` <a href="${escapeHtml(`${homeUrl}/account/orders/?page=${page + 1}`)}">Older orders</a>` : '') +
      '</nav>'
  return '<h1>My orders</h1>' +
    '<table class="account-orders"><thead><tr><th scope="col">Order</th><th scope="col">Date</th><th scope="col">Status</th><th scope="col">Total</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>${nav}`
}
