import { cartHash, giftTierOf, type CartData, type CartState, type Coupon, type PricedCart, type Product, type RewardOutcome } from 'cart-drawer-service/drawer'
import type { ShopCoupon } from './catalog.ts'
import type { ShopCart } from './model.ts'
import type { Totals } from './totals.ts'

/**
 * The shop's cart as the commerce port shows it: `CartData` for the stored lines, `PricedCart` for the totals, and
 * the `CartState` the port's operations answer. Everything the drawer sees of the shop's carts passes here.
 */

export function toCartData (cart: ShopCart): CartData {
  return {
    lines: cart.lines.map((line) => ({
      key: line.id,
      productId: line.productId,
      variationId: line.variantId,
      variation: { ...line.attrs },
      quantity: line.qty,
      ...(line.mark === undefined ? {} : { mark: line.mark })
    })),
    coupons: [...cart.coupons]
  }
}

/** Back from the drawer's own change of `CartData` (`changeAsService`, a follow-up's `change`). */
export function fromCartData (data: CartData, cart: ShopCart): ShopCart {
  return {
    ...cart,
    coupons: [...data.coupons],
    lines: data.lines.map((line) => ({
      id: line.key,
      productId: line.productId,
      variantId: line.variationId,
      attrs: { ...line.variation },
      qty: line.quantity,
      ...(line.mark === undefined ? {} : { mark: line.mark })
    }))
  }
}

function asCoupon (coupon: ShopCoupon): Coupon {
  return {
    code: coupon.code,
    discountType: coupon.kind === 'percent' ? 'percent' : 'fixed_cart',
    amount: coupon.value,
    freeShipping: false,
    expiresAt: null,
    usageLimit: null,
    usageCount: 0,
    minimumAmount: coupon.minSpend > 0 ? coupon.minSpend : null,
    description: coupon.label
  }
}

const limits = (product: Product, gift: boolean) => ({
  minimum: 1,
  maximum: product.soldIndividually || gift ? 1 : 99,
  multipleOf: 1,
  editable: !product.soldIndividually && !gift,
  unlimited: false
})

/** The shop's totals as the port's `PricedCart` (prices include VAT: every tax figure is 0). */
export function toPricedCart (cart: ShopCart, totals: Totals, rewards: RewardOutcome | null): PricedCart {
  const data = toCartData(cart)
  const lines = totals.lines.map((priced) => ({
    line: data.lines.find((line) => line.key === priced.line.id)!,
    product: priced.product,
    parent: priced.parent,
    unitPrice: priced.unit,
    quantityLimits: limits(priced.product, giftTierOf(priced.line.mark) !== undefined),
    backorderNotice: '',
    lineSubtotal: priced.subtotal,
    lineSubtotalTax: 0,
    lineDiscount: priced.adjusted + priced.couponed + priced.rewarded,
    lineOwnDiscount: priced.adjusted,
    lineDiscountTax: 0,
    lineTotal: priced.total,
    lineTotalTax: 0
  }))
  const coupons: PricedCart['coupons'] = totals.coupons.map(({ coupon, amount }) => ({ coupon: asCoupon(coupon), discount: amount, discountTax: 0 }))
  if (totals.reward !== null) {
    const { id, label, amount } = totals.reward
    coupons.push({ coupon: asCoupon({ code: `reward_${id}`, kind: 'fixed', value: amount, minSpend: 0, label }), discount: amount, discountTax: 0, rewardId: id })
  }
  return {
    lines,
    coupons,
    fees: [],
    totals: {
      totalItems: totals.items,
      totalItemsTax: 0,
      totalFees: 0,
      totalFeesTax: 0,
      totalDiscount: totals.discount,
      totalDiscountTax: 0,
      totalShipping: totals.shipping,
      totalShippingTax: 0,
      totalPrice: totals.total,
      totalTax: 0,
      taxLines: []
    },
    itemsCount: lines.reduce((count, line) => count + line.line.quantity, 0),
    needsShipping: lines.length > 0,
    freeShipping: totals.freeShipping,
    errors: totals.dropped.map(({ reason, message }) => ({ reason, message })),
    rewards
  }
}

/** The port's `CartState` of a stored cart (null: not stored yet) priced as `priced`. */
export function toCartState (key: string, stored: ShopCart | null, priced: PricedCart, extra: Pick<CartState, 'crossSells' | 'settingsVersion' | 'catalogVersion'>): CartState {
  return {
    key,
    stored: stored === null ? null : { key, userId: stored.owner, data: toCartData(stored), version: stored.version, updatedAt: stored.updatedAt },
    priced,
    hash: cartHash(priced),
    ...extra
  }
}
