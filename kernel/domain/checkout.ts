import { markOrigin } from './marks.ts'
/**
 * The checkout's rules, free of I/O: which payment methods the shop offers, what makes an address complete, and the
 * order a priced cart becomes.
 */
import type { Address, BillingAddress, NewOrder, OrderStatus, PricedCart } from './types.ts'

/** An offline payment method: nothing is charged online; the order waits in `orderStatus`. */
export interface PaymentMethod {
  id: string
  title: string
  description: string
  /** The status an order paid this way starts in (cash on delivery ships at once; a transfer waits for the money). */
  orderStatus: OrderStatus
  /** Shown on the order-received page. */
  instructions: string
}

export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  {
    id: 'cod',
    title: 'Cash on delivery',
    description: 'Pay in cash when your order arrives.',
    orderStatus: 'processing',
    instructions: 'Please have the order total ready in cash when your order arrives.'
  },
  {
    id: 'bacs',
    title: 'Direct bank transfer',
    description: 'Pay by bank transfer; your order ships once the transfer has arrived.',
    orderStatus: 'on-hold',
    instructions: 'Please transfer the order total to the shop\'s bank account, quoting your order number as the reference. Your order ships once the transfer has arrived.'
  }
]

export function findPaymentMethod (id: string): PaymentMethod | undefined {
  return PAYMENT_METHODS.find((method) => method.id === id)
}

export const EMPTY_ADDRESS: Address = {
  firstName: '', lastName: '', company: '', address1: '', address2: '', city: '', state: '', postcode: '', country: '', phone: ''
}
export const EMPTY_BILLING: BillingAddress = { ...EMPTY_ADDRESS, email: '' }

/** States (or provinces) a country requires, by code. Countries not listed take any state text, or none. */
const STATES: Readonly<Record<string, readonly string[]>> = {
  US: ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
    'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA',
    'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AA', 'AE', 'AP', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI'],
  CA: ['AB', 'BC', 'MB', 'NB', 'NL', 'NT', 'NS', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })

/** The country's English name, or undefined for a code that names no country. */
export function countryName (code: string): string | undefined {
  // Codes kept for private use (AA, QM–QZ, XA–XZ but Kosovo's XK, ZZ) name no country.
  if (!/^[A-Z]{2}$/.test(code) || /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ)$/.test(code)) return undefined
  try {
    const name = regionNames.of(code)
    return name === undefined || name === code ? undefined : name
  } catch {
    return undefined
  }
}

// A practical address check (one @, a dot in the domain, no spaces), as shops apply before sending mail.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/

export function isEmail (value: string): boolean {
  return value.length <= 254 && EMAIL.test(value)
}

/** Postcode formats checked where they are fixed; other countries take any postcode. */
const POSTCODES: Readonly<Record<string, RegExp>> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/
}

const LABELS: Readonly<Record<keyof BillingAddress, string>> = {
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  address1: 'Address',
  address2: 'Apartment, suite, etc.',
  city: 'City',
  state: 'State',
  postcode: 'Postal code',
  country: 'Country',
  phone: 'Phone',
  email: 'Email address'
}

const REQUIRED: ReadonlyArray<keyof Address> = ['firstName', 'lastName', 'address1', 'city', 'postcode', 'country']

/** One address's problems, each a sentence naming the field: empty when the address is complete and valid. */
export function addressProblems (address: Address | BillingAddress, { withEmail }: { withEmail: boolean }): string[] {
  const problems: string[] = []
  for (const field of REQUIRED) {
    if (address[field].trim() === '') problems.push(`${LABELS[field]} is required.`)
  }
  const country = address.country.trim().toUpperCase()
  if (country !== '' && countryName(country) === undefined) problems.push(`"${address.country}" is not a valid country code.`)
  const states = STATES[country]
  if (states !== undefined) {
    const state = address.state.trim().toUpperCase()
    if (state === '') problems.push(`${LABELS.state} is required.`)
    else if (!states.includes(state)) problems.push(`"${address.state}" is not a valid state for ${countryName(country)} (${country}).`)
  }
  const postcode = POSTCODES[country]
  if (postcode !== undefined && address.postcode.trim() !== '' && !postcode.test(address.postcode.trim())) {
    problems.push(`"${address.postcode}" is not a valid postal code for ${countryName(country)} (${country}).`)
  }
  if (withEmail) {
    const email = (address as BillingAddress).email.trim()
    if (email === '') problems.push(`${LABELS.email} is required.`)
    else if (!isEmail(email)) problems.push('The email address is not valid.')
  }
  return problems
}

/** The address trimmed, with the country and a listed country's state in upper case. */
export function normaliseAddress<A extends Address> (address: A): A {
  const trimmed = Object.fromEntries(Object.entries(address).map(([field, value]) => [field, String(value).trim()])) as unknown as A
  const country = trimmed.country.toUpperCase()
  return { ...trimmed, country, state: STATES[country] !== undefined ? trimmed.state.toUpperCase() : trimmed.state }
}

export interface CheckoutInput {
  billing: BillingAddress
  shipping: Address
  customerNote: string
  paymentMethod: PaymentMethod
  customerId: number | null
}

/** The order a priced cart becomes (before storage gives it an id). */
export function orderFromCart (priced: PricedCart, input: CheckoutInput, context: { key: string, currency: string, now: Date }): NewOrder {
  const { totals } = priced
  return {
    key: context.key,
    status: input.paymentMethod.orderStatus,
    customerId: input.customerId,
    billing: input.billing,
    shipping: priced.needsShipping ? input.shipping : { ...EMPTY_ADDRESS },
    customerNote: input.customerNote,
    paymentMethod: input.paymentMethod.id,
    paymentMethodTitle: input.paymentMethod.title,
    lines: priced.lines.map(({ line, product, unitPrice, lineSubtotal, lineSubtotalTax, lineTotal, lineTotalTax }) => ({
      key: line.key,
      productId: line.productId,
      variationId: line.variationId,
      name: product.name,
      sku: product.sku,
      variation: { ...line.variation },
      quantity: line.quantity,
      unitPrice,
      subtotal: lineSubtotal,
      subtotalTax: lineSubtotalTax,
      total: lineTotal,
      totalTax: lineTotalTax,
      ...(markOrigin(line.mark) === undefined ? {} : { origin: markOrigin(line.mark) })
    })),
    coupons: priced.coupons.map(({ coupon, discount, discountTax }) => ({ code: coupon.code, discount, discountTax })),
    fees: priced.fees.map(({ fee, tax }) => ({ name: fee.name, total: fee.amount, totalTax: tax })),
    shippingLines: priced.needsShipping
      ? [{
          methodId: priced.freeShipping ? 'free_shipping' : 'flat_rate',
          name: priced.freeShipping ? 'Free shipping' : 'Flat rate',
          total: totals.totalShipping,
          totalTax: totals.totalShippingTax
        }]
      : [],
    totals: { ...totals, taxLines: totals.taxLines.map((line) => ({ ...line })) },
    currency: context.currency,
    createdAt: context.now.toISOString()
  }
}

/** The stock an order takes: each line's quantity from the variation's stock, else the product's. */
export function orderStock (priced: PricedCart): Array<{ productId: number, quantity: number }> {
  return priced.lines.map(({ line }) => ({ productId: line.variationId || line.productId, quantity: line.quantity }))
}
