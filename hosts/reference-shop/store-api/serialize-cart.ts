import { EMPTY_ADDRESS, EMPTY_BILLING, PAYMENT_METHODS } from '../../../kernel/domain/checkout.ts'
import { toWireAddress, toWireBilling } from './address-wire.ts'
import { lowStockRemaining } from '../../../kernel/domain/catalog.ts'
import { chosenShippingRate, FLAT_RATE, offeredShippingRates } from '../../../kernel/domain/totals.ts'
import { taxOn } from '../../../kernel/domain/rounding.ts'
import type { Address, BillingAddress, PricedCart, PricedLine, ShopConfig } from '../../../kernel/domain/types.ts'
import { storeApiCode } from '../../../kernel/errors/index.ts'
import type { CartState } from '../cart/cart-service.ts'
import type { ExtendSchema } from './extend-schema.ts'
import { amount, currencyBlock } from './money.ts'
import { permalink, serializeImages, serializePrices, serializeProduct, type SerializeContext } from './serialize-product.ts'

/** An address in the Store API's shape (snake_case keys, WooCommerce's order); all empty when none is given. */
export function serializeAddress (address: Address | undefined) {
  return toWireAddress(address ?? EMPTY_ADDRESS)
}

export function serializeBillingAddress (address: BillingAddress | undefined) {
  return toWireBilling(address ?? EMPTY_BILLING)
}

/** A coupon of the cart as `cart/coupons` answers it (and as the cart lists it). */
export function serializeCoupon ({ coupon, discount, discountTax }: PricedCart['coupons'][number], currencyCode: SerializeContext['currency']) {
  return {
    code: coupon.code,
    discount_type: coupon.discountType,
    totals: { total_discount: amount(discount), total_discount_tax: amount(discountTax), ...currencyBlock(currencyCode) }
  }
}

/** A line of the cart as `cart/items` answers it (and as the cart lists it). */
export async function serializeCartItem (line: PricedLine, state: CartState, context: SerializeContext, extend: ExtendSchema) {
  return serializeItem(line, context, await extend.itemData(line, state))
}

function serializeItem (priced: PricedLine, context: SerializeContext, extensions: Record<string, unknown>) {
  const { line, product, parent, quantityLimits: limits } = priced
  const currency = currencyBlock(context.currency)
  return {
    key: line.key,
    id: product.id,
    type: product.type,
    quantity: line.quantity,
    quantity_limits: {
      minimum: limits.minimum,
      maximum: limits.maximum,
      multiple_of: limits.multipleOf,
      editable: limits.editable
    },
    name: product.name,
    short_description: product.shortDescription || parent.shortDescription,
    description: product.description || parent.description,
    sku: product.sku,
    low_stock_remaining: lowStockRemaining(product),
    backorders_allowed: product.backorders !== 'no',
    show_backorder_badge: priced.backorderNotice !== '',
    sold_individually: product.soldIndividually,
    permalink: permalink(product, parent, context.homeUrl, line.variation),
    images: serializeImages(product.images.length > 0 ? product.images : parent.images),
    variation: parent.attributes
      .filter((attribute) => line.variation[attribute.name] !== undefined)
      .map((attribute) => ({ attribute: attribute.label, value: line.variation[attribute.name]! })),
    item_data: [],
    prices: serializePrices(product, context.currency),
    totals: {
      line_subtotal: amount(priced.lineSubtotal),
      line_subtotal_tax: amount(priced.lineSubtotalTax),
      line_total: amount(priced.lineTotal),
      line_total_tax: amount(priced.lineTotalTax),
      ...currency
    },
    catalog_visibility: parent.catalogVisibility,
    extensions
  }
}

/** The Store API cart response body, keys in WooCommerce's order. */
export async function serializeCart (state: CartState, context: SerializeContext, extend: ExtendSchema, config?: Pick<ShopConfig, 'shippingFlatRate' | 'taxRatePercent'>) {
  const { priced } = state
  const currency = currencyBlock(context.currency)
  // Awaited only when some extension answered a promise: one promise per line is most of a large cart's overhead.
  const lineData = priced.lines.map((line) => extend.itemData(line, state))
  const extensions = lineData.some((value) => value instanceof Promise) ? await Promise.all(lineData) : lineData as Array<Record<string, unknown>>
  const items = priced.lines.map((line, index) => serializeItem(line, context, extensions[index]!))
  const { totals } = priced
  const shippingTotal = priced.needsShipping ? amount(totals.totalShipping) : null
  const shippingTax = priced.needsShipping ? amount(totals.totalShippingTax) : null
  const data = state.stored?.data ?? { lines: [], coupons: [] }
  const shipping = serializeAddress(data.customer?.shipping)
  const chosen = chosenShippingRate(data, priced.freeShipping)
  // The flat rate's price whether or not it is the chosen one (the totals carry the chosen rate's).
  const flatRate = chosen === FLAT_RATE ? totals.totalShipping : config?.shippingFlatRate ?? 0
  const flatRateTax = chosen === FLAT_RATE ? totals.totalShippingTax : taxOn(flatRate, config?.taxRatePercent ?? 0)

  return {
    items,
    coupons: priced.coupons.map((coupon) => serializeCoupon(coupon, context.currency)),
    fees: priced.fees.map(({ fee, tax }) => ({
      key: fee.id,
      name: fee.name,
      totals: { total: amount(fee.amount), total_tax: amount(tax), ...currency }
    })),
    totals: {
      total_items: amount(totals.totalItems),
      total_items_tax: amount(totals.totalItemsTax),
      total_fees: amount(totals.totalFees),
      total_fees_tax: amount(totals.totalFeesTax),
      total_discount: amount(totals.totalDiscount),
      total_discount_tax: amount(totals.totalDiscountTax),
      total_shipping: shippingTotal,
      total_shipping_tax: shippingTax,
      total_price: amount(totals.totalPrice),
      total_tax: amount(totals.totalTax),
      // `rate` is WooCommerce's text of the rate, with its percent sign ("10%"), as kernel/domain/totals.ts writes it.
      tax_lines: totals.taxLines.map((line) => ({ name: line.name, price: amount(line.price), rate: line.rate })),
      ...currency
    },
    shipping_address: serializeAddress(data.customer?.shipping),
    billing_address: serializeBillingAddress(data.customer?.billing),
    needs_payment: totals.totalPrice > 0,
    needs_shipping: priced.needsShipping,
    payment_requirements: ['products'],
    has_calculated_shipping: priced.needsShipping,
    shipping_rates: priced.needsShipping
      ? [{
          package_id: 0,
          name: 'Shipment 1',
          destination: {
            address_1: shipping.address_1,
            address_2: shipping.address_2,
            city: shipping.city,
            state: shipping.state,
            postcode: shipping.postcode,
            country: shipping.country
          },
          items: priced.lines.map(({ line, product }) => ({ key: line.key, name: product.name, quantity: line.quantity })),
          shipping_rates: offeredShippingRates(priced.freeShipping).map((rateId) => {
            const flat = rateId === FLAT_RATE
            const price = flat ? flatRate : 0
            return {
              rate_id: rateId,
              name: flat ? 'Flat rate' : 'Free shipping',
              description: '',
              delivery_time: '',
              price: amount(price),
              taxes: amount(flat ? flatRateTax : 0),
              instance_id: 1,
              method_id: flat ? 'flat_rate' : 'free_shipping',
              meta_data: [],
              selected: rateId === chosen,
              ...currency
            }
          })
        }]
      : [],
    items_count: priced.itemsCount,
    items_weight: 0,
    cross_sells: (await state.crossSells()).map((product) => serializeProduct(product, context)),
    errors: priced.errors.map((error) => ({ code: storeApiCode(error.reason), message: error.message })),
    payment_methods: PAYMENT_METHODS.map((method) => method.id),
    extensions: await extend.cartData(state)
  }
}

export type StoreApiCart = Awaited<ReturnType<typeof serializeCart>>
