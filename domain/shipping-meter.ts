export interface ShippingMeter {
  /** Minor units needed for free shipping. */
  threshold: number
  /** What counts towards it: the subtotal after discounts, before tax and shipping. */
  basis: number
  remaining: number
  /** 0 to 1. */
  progress: number
  /** True from the threshold on (exactly at the threshold counts as reached). */
  reached: boolean
}

/**
 * How far a cart is from free shipping. A threshold of 0 (or less) means shipping is always free; a free-shipping
 * coupon already in the cart reaches the goal whatever the basis.
 */
export function shippingMeter (threshold: number, basis: number, freeShippingApplied = false): ShippingMeter {
  const goal = Math.max(0, Math.round(threshold))
  const spent = Math.max(0, Math.round(basis))
  const reached = freeShippingApplied || spent >= goal
  return {
    threshold: goal,
    basis: spent,
    remaining: reached ? 0 : goal - spent,
    progress: reached || goal === 0 ? 1 : Math.min(1, spent / goal),
    reached
  }
}
