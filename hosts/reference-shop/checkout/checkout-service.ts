import { randomBytes } from 'node:crypto'
import { isInStock } from '../../../kernel/domain/catalog.ts'
import {
  addressProblems, EMPTY_ADDRESS, EMPTY_BILLING, findPaymentMethod, normaliseAddress, orderFromCart, orderStock, type PaymentMethod
} from '../../../kernel/domain/checkout.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { TierAdjuster } from '../../../kernel/domain/adjustments.ts'
import type { LineAdjuster } from '../../../kernel/domain/adjustments.ts'
import type { Address, BillingAddress, CartCustomer, CartData, Order, PricedCart, ShopConfig } from '../../../kernel/domain/types.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import { OrderConflictError, type CartStore, type CatalogStore, type OrderStore, type StoredCart } from '../../../storage/index.ts'
import type { Viewer } from '../cart/cart-service.ts'

/** What a checkout request gives: addresses over the cart's, a note and the payment method. */
export interface CheckoutRequest {
  billing: (current: BillingAddress) => BillingAddress
  /** Absent: the shipping address is the billing address (without the e-mail). */
  shipping?: (current: Address) => Address
  customerNote: string
  paymentMethod: string | undefined
}

/** What a free order placed without a payment method records. */
const FREE_ORDER: PaymentMethod = { id: '', title: '', description: '', orderStatus: 'processing', instructions: '' }

const ORDER_KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** `wc_order_` and 13 random letters and digits, as WooCommerce's order keys look. */
export function newOrderKey (): string {
  const bytes = randomBytes(13)
  let key = 'wc_order_'
  for (const byte of bytes) key += ORDER_KEY_ALPHABET[byte % ORDER_KEY_ALPHABET.length]
  return key
}

export function cartCustomer (data: CartData): CartCustomer {
  return data.customer ?? { billing: { ...EMPTY_BILLING }, shipping: { ...EMPTY_ADDRESS } }
}

/** The refusal of an invalid address: `rest_invalid_param` naming each address, with every problem. */
function invalidAddresses (problems: { billing: string[], shipping: string[] }): RestError {
  const params: Record<string, string> = {}
  if (problems.billing.length > 0) params.billing_address = `There was a problem with the provided billing address: ${problems.billing.join(' ')}`
  if (problems.shipping.length > 0) params.shipping_address = `There was a problem with the provided shipping address: ${problems.shipping.join(' ')}`
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, {
    params,
    errors: { billing: problems.billing, shipping: problems.shipping }
  })
}

/** Where the checkout takes the reward tiers from: the cart service (the drawer's `rewards` hook). */
export interface RewardSource {
  prepareRewards: () => Promise<void>
  tierAdjuster: (viewer: Viewer) => TierAdjuster | null
  lineAdjuster: (viewer: Viewer) => LineAdjuster | null
}

/** The stores `CheckoutService` uses: the cart's locked write, the order with its effects, and the catalog's reads. */
export type CheckoutStores =
  Pick<CartStore, 'updateCart'> & Pick<OrderStore, 'createOrder'> & Pick<CatalogStore, 'getProduct' | 'getProducts' | 'getCoupons'>

/**
 * The checkout: a cart becomes an order in one transaction that holds the cart's write lock — every rule is checked
 * against the cart as it is then, the stock is taken and the coupons counted with the order, and the cart is
 * emptied — or nothing changes.
 */
export class CheckoutService {
  readonly #storage: CheckoutStores
  readonly #config: ShopConfig
  readonly #now: () => Date
  readonly #rewards: RewardSource | undefined

  constructor (storage: CheckoutStores, config: ShopConfig, now: () => Date = () => new Date(), rewards?: RewardSource) {
    this.#rewards = rewards
    this.#storage = storage
    this.#config = config
    this.#now = now
  }

  async placeOrder (cartKey: string, viewer: Viewer, request: CheckoutRequest): Promise<Order> {
    try {
      await this.#rewards?.prepareRewards()
      const { result } = await this.#storage.updateCart(cartKey, async (current) => this.#place(current, viewer, request))
      return result
    } catch (error) {
      if (!(error instanceof OrderConflictError)) throw error
      // Another checkout took the stock (or the coupon's last use) between our read and our write: nothing changed.
      if (error.reason === 'coupon_usage_limit') {
        throw new RestError('woocommerce_rest_cart_coupon_errors', `Usage limit for coupon "${error.subject}" has been reached.`, 409)
      }
      const product = await this.#storage.getProduct(Number(error.subject))
      throw new RestError('woocommerce_rest_product_out_of_stock',
        `There is not enough "${product?.name ?? 'product'}" in stock to place this order.`, 403, { product_id: error.subject })
    }
  }

  async #place (current: StoredCart, viewer: Viewer, request: CheckoutRequest) {
    const { data } = current
    if (data.lines.length === 0) throw new RestError('woocommerce_rest_cart_empty', 'Cannot create an order from an empty cart.', 400)
    // These reads join the write's transaction: the cart, its products and coupons as they are under the lock.
    const ids = data.lines.flatMap((line) => line.variationId ? [line.productId, line.variationId] : [line.productId])
    const [products, coupons] = await Promise.all([this.#storage.getProducts(ids), this.#storage.getCoupons(data.coupons)])
    const now = this.#now()
    const priced = priceCart(data, products, coupons, this.#config, now, viewer, this.#rewards?.tierAdjuster(viewer) ?? null, this.#rewards?.lineAdjuster(viewer) ?? null)
    this.#refuseCartProblems(priced, data)

    const saved = cartCustomer(data)
    const billing = normaliseAddress(request.billing(saved.billing))
    const shipping = normaliseAddress(request.shipping ? request.shipping(saved.shipping) : withoutEmail(billing))
    const problems = {
      billing: addressProblems(billing, { withEmail: true }),
      shipping: priced.needsShipping && request.shipping ? addressProblems(shipping, { withEmail: false }) : []
    }
    if (problems.billing.length > 0 || problems.shipping.length > 0) throw invalidAddresses(problems)
    const paymentMethod = this.#paymentMethod(request.paymentMethod, priced)

    const order = orderFromCart(priced, {
      billing,
      shipping,
      customerNote: request.customerNote.trim(),
      paymentMethod,
      customerId: viewer.userId ?? null
    }, { key: newOrderKey(), currency: this.#config.currency.code, now })
    const placed = await this.#storage.createOrder(order, {
      stock: orderStock(priced),
      // A reward's discount is no stored coupon: only the shopper's coupons are counted.
      coupons: priced.coupons.filter((coupon) => coupon.rewardId === undefined).map(({ coupon }) => coupon.code)
    })
    // The cart is emptied with the order; the addresses stay for the shopper's next order.
    return { data: { lines: [], coupons: [], customer: { billing, shipping } }, result: placed }
  }

  /** A cart that pricing had to change (a line or coupon dropped) or that stock cannot fill is not turned into an order. */
  #refuseCartProblems (priced: PricedCart, data: CartData): void {
    const couponProblems = priced.errors.filter((error) => error.reason.startsWith('coupon_'))
    if (couponProblems.length > 0) {
      throw new RestError('woocommerce_rest_cart_coupon_errors', couponProblems.map((error) => error.message).join(' '), 409)
    }
    const lineProblems = priced.errors.filter((error) => !error.reason.startsWith('coupon_'))
    if (lineProblems.length > 0 || priced.lines.length !== data.lines.length) {
      throw new RestError('woocommerce_cart_error', lineProblems.map((error) => error.message).join(' ') ||
        'Your cart has changed; please review it before placing the order.', 409)
    }
    for (const { product, line } of priced.lines) {
      const held = priced.lines.filter((other) => (other.line.variationId || other.line.productId) === (line.variationId || line.productId))
        .reduce((total, other) => total + other.line.quantity, 0)
      const short = product.manageStock && product.backorders === 'no' && held > (product.stockQuantity ?? 0)
      if (!isInStock(product) || short) {
        throw new RestError('woocommerce_rest_product_out_of_stock',
          `"${product.name}" is out of stock and cannot be purchased.`, 403, { product_id: product.id })
      }
    }
  }

  #paymentMethod (id: string | undefined, priced: PricedCart): PaymentMethod {
    const method = id === undefined || id === '' ? undefined : findPaymentMethod(id)
    if (method !== undefined) return method
    if (priced.totals.totalPrice > 0 || (id !== undefined && id !== '')) {
      if (id === undefined || id === '') throw new RestError('woocommerce_rest_checkout_missing_payment_method', 'Please select a payment method to place the order.', 400)
      throw new RestError('woocommerce_rest_checkout_payment_method_disabled', `The payment method "${id}" is not available.`, 400)
    }
    // A free order needs no payment and records none (as WooCommerce clears it); it is being processed at once.
    return FREE_ORDER
  }
}

function withoutEmail ({ email: _email, ...address }: BillingAddress): Address {
  return address
}
