import type { Currency, Order, Product } from '../../../kernel/domain/types.ts'
import type { StoreApiCheckoutBody, StoreApiOrderBody } from '../schemas/store-api-checkout.ts'
import { toWireAddress, toWireBilling } from '../store-api/address-wire.ts'
import { amount, currencyBlock } from '../store-api/money.ts'

/** Where the shopper sees a placed order: the storefront's order-received page. */
export function orderReceivedUrl (homeUrl: string, order: Pick<Order, 'id' | 'key'>): string {
  return `${homeUrl}/checkout/order-received/${order.id}/?key=${encodeURIComponent(order.key)}`
}

/** The `POST checkout` answer for a placed order. */
export function serializePlacedOrder (order: Order, homeUrl: string): StoreApiCheckoutBody {
  return {
    order_id: order.id,
    status: order.status,
    order_key: order.key,
    order_number: String(order.id),
    customer_note: order.customerNote,
    customer_id: order.customerId ?? 0,
    billing_address: toWireBilling(order.billing),
    shipping_address: toWireAddress(order.shipping),
    payment_method: order.paymentMethod,
    payment_result: { payment_status: 'success', payment_details: [], redirect_url: orderReceivedUrl(homeUrl, order) },
    additional_fields: {},
    extensions: {}
  }
}

/**
 * The `GET order/{id}` answer. `variationLabels` gives attribute labels by parent product (the order keeps the
 * attribute names it was placed with).
 */
export function serializeOrder (order: Order, currency: Currency, parents: ReadonlyMap<number, Product> = new Map()): StoreApiOrderBody {
  const money = currencyBlock(currency)
  const { totals } = order
  return {
    id: order.id,
    status: order.status,
    items: order.lines.map((line) => {
      const parent = parents.get(line.productId)
      return {
        key: line.key,
        id: line.variationId || line.productId,
        quantity: line.quantity,
        name: line.name,
        sku: line.sku,
        variation: Object.entries(line.variation).map(([name, value]) => ({
          attribute: parent?.attributes.find((attribute) => attribute.name === name)?.label ?? name,
          value
        })),
        prices: { price: amount(line.unitPrice), ...money },
        totals: {
          line_subtotal: amount(line.subtotal),
          line_subtotal_tax: amount(line.subtotalTax),
          line_total: amount(line.total),
          line_total_tax: amount(line.totalTax),
          ...money
        }
      }
    }),
    coupons: order.coupons.map((coupon) => ({
      code: coupon.code,
      totals: { total_discount: amount(coupon.discount), total_discount_tax: amount(coupon.discountTax), ...money }
    })),
    fees: order.fees.map((fee) => ({ name: fee.name, totals: { total: amount(fee.total), total_tax: amount(fee.totalTax), ...money } })),
    totals: {
      subtotal: amount(totals.totalItems),
      total_discount: amount(totals.totalDiscount),
      total_shipping: amount(totals.totalShipping),
      total_fees: amount(totals.totalFees),
      total_tax: amount(totals.totalTax),
      total_refund: '0',
      total_price: amount(totals.totalPrice),
      total_items: amount(totals.totalItems),
      total_items_tax: amount(totals.totalItemsTax),
      total_fees_tax: amount(totals.totalFeesTax),
      total_discount_tax: amount(totals.totalDiscountTax),
      total_shipping_tax: amount(totals.totalShippingTax),
      tax_lines: totals.taxLines.map((line) => ({ name: line.name, price: amount(line.price), rate: line.rate })),
      ...money
    },
    shipping_address: toWireAddress(order.shipping),
    billing_address: toWireBilling(order.billing),
    // The offline methods take no payment online: a placed order waits for none.
    needs_payment: false,
    needs_shipping: order.shippingLines.length > 0,
    payment_requirements: ['products'],
    errors: [],
    payment_method: order.paymentMethod,
    payment_method_title: order.paymentMethodTitle,
    customer_note: order.customerNote,
    date_created: order.createdAt
  }
}
