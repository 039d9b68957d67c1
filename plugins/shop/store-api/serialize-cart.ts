import { lowStockRemaining } from '../../../domain/catalog.ts'
import type { PricedLine } from '../../../domain/types.ts'
import { storeApiCode } from '../../../errors/index.ts'
import type { CartState } from '../cart/cart-service.ts'
import type { ExtendSchema } from './extend-schema.ts'
import { amount, currencyBlock } from './money.ts'
import { permalink, serializeImages, serializePrices, serializeProduct, type SerializeContext } from './serialize-product.ts'

const emptyAddress = {
  first_name: '',
  last_name: '',
  company: '',
  address_1: '',
  address_2: '',
  city: '',
  state: '',
  postcode: '',
  country: '',
  phone: ''
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
export async function serializeCart (state: CartState, context: SerializeContext, extend: ExtendSchema) {
  const { priced } = state
  const currency = currencyBlock(context.currency)
  const items = await Promise.all(priced.lines.map(async (line) =>
    serializeItem(line, context, await extend.itemData(line, state))))
  const { totals } = priced
  const shippingTotal = priced.needsShipping ? amount(totals.totalShipping) : null
  const shippingTax = priced.needsShipping ? amount(totals.totalShippingTax) : null

  return {
    items,
    coupons: priced.coupons.map(({ coupon, discount, discountTax }) => ({
      code: coupon.code,
      discount_type: coupon.discountType,
      totals: { total_discount: amount(discount), total_discount_tax: amount(discountTax), ...currency }
    })),
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
      tax_lines: totals.taxLines.map((line) => ({ name: line.name, price: amount(line.price), rate: line.rate })),
      ...currency
    },
    shipping_address: emptyAddress,
    billing_address: { ...emptyAddress, email: '' },
    needs_payment: totals.totalPrice > 0,
    needs_shipping: priced.needsShipping,
    payment_requirements: ['products'],
    has_calculated_shipping: priced.needsShipping,
    shipping_rates: priced.needsShipping
      ? [{
          package_id: 0,
          name: 'Shipment 1',
          destination: { address_1: '', address_2: '', city: '', state: '', postcode: '', country: '' },
          items: priced.lines.map(({ line, product }) => ({ key: line.key, name: product.name, quantity: line.quantity })),
          shipping_rates: [{
            rate_id: priced.freeShipping ? 'free_shipping:1' : 'flat_rate:1',
            name: priced.freeShipping ? 'Free shipping' : 'Flat rate',
            description: '',
            delivery_time: '',
            price: amount(totals.totalShipping),
            taxes: amount(totals.totalShippingTax),
            instance_id: 1,
            method_id: priced.freeShipping ? 'free_shipping' : 'flat_rate',
            meta_data: [],
            selected: true,
            ...currency
          }]
        }]
      : [],
    items_count: priced.itemsCount,
    items_weight: 0,
    cross_sells: (await state.crossSells()).map((product) => serializeProduct(product, context)),
    errors: priced.errors.map((error) => ({ code: storeApiCode(error.reason), message: error.message })),
    payment_methods: [],
    extensions: await extend.cartData(state)
  }
}

export type StoreApiCart = Awaited<ReturnType<typeof serializeCart>>
