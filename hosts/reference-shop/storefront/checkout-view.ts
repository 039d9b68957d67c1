/**
 * The checkout page's form, rendered from the Store API cart: billing address, an optional shipping address, an
 * order note, the payment methods the cart offers and the order summary. The page script (cart-script.ts) posts it
 * to `wc/store/v1/checkout` in WooCommerce's body.
 */
import { findPaymentMethod } from '../../../kernel/domain/checkout.ts'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import type { StoreApiCartBody } from '../schemas/store-api-cart.ts'
import { renderOrderSummary } from './cart-view.ts'

/** A payment method's title, from the shop's methods (the Store API cart names them by id only). */
export function paymentMethodTitle (id: string): string {
  return findPaymentMethod(id)?.title ?? id
}

type AddressKind = 'billing' | 'shipping'

interface Field {
  name: keyof StoreApiCartBody['billing_address']
  label: string
  autocomplete: string
  required: boolean
  type?: string
}

const ADDRESS_FIELDS: readonly Field[] = [
  { name: 'first_name', label: 'First name', autocomplete: 'given-name', required: true },
  { name: 'last_name', label: 'Last name', autocomplete: 'family-name', required: true },
  { name: 'company', label: 'Company (optional)', autocomplete: 'organization', required: false },
  { name: 'country', label: 'Country / Region', autocomplete: 'country', required: true },
  { name: 'address_1', label: 'Street address', autocomplete: 'address-line1', required: true },
  { name: 'address_2', label: 'Apartment, suite, unit, etc. (optional)', autocomplete: 'address-line2', required: false },
  { name: 'city', label: 'Town / City', autocomplete: 'address-level2', required: true },
  { name: 'state', label: 'State / County', autocomplete: 'address-level1', required: false },
  { name: 'postcode', label: 'Postcode / ZIP', autocomplete: 'postal-code', required: true },
  { name: 'phone', label: 'Phone (optional)', autocomplete: 'tel', required: false, type: 'tel' },
  { name: 'email', label: 'Email address', autocomplete: 'email', required: true, type: 'email' }
]

// Region codes that name no country: groupings and codes withdrawn from ISO 3166-1.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'AN', 'BU', 'CS', 'DD', 'FX', 'NT', 'SU', 'TP', 'YD', 'YU', 'ZR'])
let countries: ReadonlyArray<{ code: string, name: string }> | undefined

/** ISO 3166-1 alpha-2 countries with their English names (from the runtime's CLDR data), sorted by name. */
export function countryList (): ReadonlyArray<{ code: string, name: string }> {
  if (countries) return countries
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
  const found: Array<{ code: string, name: string }> = []
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second
      if (NOT_COUNTRIES.has(code) || /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/.test(code)) continue
      let name: string | undefined
      try {
        name = names.of(code)
      } catch {
        name = undefined
      }
      if (name !== undefined && name !== code) found.push({ code, name })
    }
  }
  countries = found.sort((a, b) => a.name.localeCompare(b.name, 'en'))
  return countries
}

function countrySelect (id: string, selected: string, required: boolean): string {
  const chosen = selected.toUpperCase()
  const options = countryList().map(({ code, name }) =>
    `<option value="${code}"${code === chosen ? ' selected' : ''}>${escapeHtml(name)}</option>`).join('')
  return `<select id="${id}" name="${id}" autocomplete="${id.startsWith('shipping') ? 'shipping' : 'billing'} country"${required ? ' required' : ''}>` +
    `<option value="">Select a country / region…</option>${options}</select>`
}

function addressFields (kind: AddressKind, address: Record<string, string>): string {
  return ADDRESS_FIELDS.filter((field) => kind === 'billing' || field.name !== 'email').map((field) => {
    const id = `${kind}_${field.name}`
    const value = address[field.name] ?? ''
    // The shipping fields are required only while they are shown (the script sets `required` with the checkbox).
    const required = field.required && kind === 'billing'
    const control = field.name === 'country'
      ? countrySelect(id, value, required)
      : `<input id="${id}" name="${id}" type="${field.type ?? 'text'}" autocomplete="${kind} ${field.autocomplete}" value="${escapeHtml(value)}"` +
        `${required ? ' required' : ''}${field.required ? ' data-required="true"' : ''}>`
    return `<p class="form-row form-row-${field.name}"><label for="${id}">${escapeHtml(field.label)}${field.required ? ' <span class="required" aria-hidden="true">*</span>' : ''}</label>${control}</p>`
  }).join('')
}

function paymentMethods (cart: StoreApiCartBody): string {
  if (!cart.needs_payment) return '<p class="no-payment">Your order needs no payment.</p>'
  if (cart.payment_methods.length === 0) {
    return '<p class="no-payment">Sorry, no payment method is available at the moment. Please contact the shop.</p>'
  }
  return '<ul class="payment-methods">' + cart.payment_methods.map((id, index) => {
    const text = findPaymentMethod(id)
    const inputId = `payment_method_${id}`
    const describedBy = text ? ` aria-describedby="${escapeHtml(`${inputId}_description`)}"` : ''
    return `<li><input id="${escapeHtml(inputId)}" type="radio" name="payment_method" value="${escapeHtml(id)}"${index === 0 ? ' checked' : ''}${describedBy} required>` +
      `<label for="${escapeHtml(inputId)}">${escapeHtml(paymentMethodTitle(id))}</label>` +
      (text ? `<p class="payment-description" id="${escapeHtml(`${inputId}_description`)}">${escapeHtml(text.description)}</p>` : '') +
      '</li>'
  }).join('') + '</ul>'
}

const ADDRESS_KEYS = ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode', 'country', 'phone'] as const

/** Whether the cart's shipping address is filled in and differs from its billing address. */
function shipsElsewhere (cart: StoreApiCartBody): boolean {
  const shipping = cart.shipping_address as Record<string, string>
  const billing = cart.billing_address as Record<string, string>
  return ADDRESS_KEYS.some((key) => (shipping[key] ?? '') !== '') && ADDRESS_KEYS.some((key) => (shipping[key] ?? '') !== (billing[key] ?? ''))
}

export interface CheckoutView {
  cart: StoreApiCartBody
  homeUrl: string
  /** The logged-in shopper's e-mail, used when the cart has none yet. */
  userEmail: string | null
}

/** The checkout page's content; an empty cart shows a message and a link back to the shop instead. */
export function renderCheckoutPage ({ cart, homeUrl, userEmail }: CheckoutView): string {
  if (cart.items.length === 0) {
    return '<h1>Checkout</h1><p class="cart-empty">Your cart is currently empty, so there is nothing to check out.</p>' +
      `<p class="return-to-shop"><a href="${escapeHtml(`${homeUrl}/`)}">Return to the shop</a></p>`
  }
  const billing: Record<string, string> = { ...cart.billing_address }
  if ((billing.email ?? '') === '' && userEmail !== null) billing.email = userEmail
  const elsewhere = shipsElsewhere(cart)
  const shipping = cart.needs_shipping
    ? '<fieldset class="ship-to-different-address"><legend>Shipping</legend>' +
      `<p class="form-row"><input id="ship-to-different-address" type="checkbox" name="ship_to_different_address"${elsewhere ? ' checked' : ''}>` +
      '<label for="ship-to-different-address">Ship to a different address?</label></p>' +
      `<div id="shipping-fields"${elsewhere ? '' : ' hidden'}>${addressFields('shipping', cart.shipping_address as Record<string, string>)}</div></fieldset>`
    : ''
  return '<h1>Checkout</h1>' +
    '<div id="checkout-error" class="checkout-error" role="alert" tabindex="-1"></div>' +
    '<form id="checkout-form" class="checkout" novalidate>' +
    '<div class="checkout-columns"><div class="checkout-customer">' +
    `<fieldset class="billing"><legend>Billing details</legend>${addressFields('billing', billing)}</fieldset>` +
    shipping +
    '<p class="form-row form-row-notes"><label for="order_comments">Order notes (optional)</label>' +
    '<textarea id="order_comments" name="order_comments" rows="3" placeholder="Notes about your order, e.g. special notes for delivery."></textarea></p>' +
    '</div><div class="checkout-review">' +
    `<section aria-labelledby="order-review-heading"><h2 id="order-review-heading">Your order</h2><div id="checkout-summary">${renderOrderSummary(cart)}</div></section>` +
    `<fieldset class="payment"><legend>Payment method</legend>${paymentMethods(cart)}</fieldset>` +
    '<p class="place-order"><button type="submit" id="place-order">Place order</button></p>' +
    '</div></div></form>'
}
