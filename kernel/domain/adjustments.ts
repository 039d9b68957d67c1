/**
 * Adjustments: how the drawer's offers change what a host charges, without the drawer writing a price. The drawer
 * computes them from a read-only view of the host's cart lines; the host applies them in its own totals (the model
 * of Medusa's line-item adjustments, which its promotion module computes and its cart stores and totals).
 */

import type { CartView } from './cart-view.ts'
import type { RewardOutcome } from './reward-outcome.ts'

/** A line as an adjuster sees it: the host's line, read only. */
export interface AdjustableLine {
  key: string
  /** The product the shopper chose (a variation's parent). */
  productId: number
  variationId: number
  quantity: number
  /** The host's unit price, in minor units, before any discount. */
  unitPrice: number
  /** The drawer's mark on a line it added (`bundle:<id>`, `addon:<id>`, …), given back as the host stored it. */
  mark?: string
}

/** An amount off one line's subtotal, before the host's coupons, with what produced it. */
export interface LineAdjustment {
  lineKey: string
  /** Minor units off the line, at most its subtotal. */
  amount: number
  /** What the shopper is shown (a bundle's title). */
  label: string
  /** The rule that produced it (`bundle:<id>`). */
  rule: string
}

/** The drawer's line adjustments for a cart's lines (pure, no I/O: a host may call it under its lock). */
export type LineAdjuster = (lines: readonly AdjustableLine[]) => LineAdjustment[]

/** Each line's adjustments summed, capped at the line's subtotal. */
export function adjustedAmounts (lines: readonly AdjustableLine[], adjuster: LineAdjuster | null): Map<string, number> {
  const amounts = new Map<string, number>()
  if (adjuster === null || lines.length === 0) return amounts
  for (const adjustment of adjuster(lines)) {
    if (!Number.isInteger(adjustment.amount) || adjustment.amount <= 0) continue
    amounts.set(adjustment.lineKey, (amounts.get(adjustment.lineKey) ?? 0) + adjustment.amount)
  }
  for (const line of lines) {
    const amount = amounts.get(line.key)
    if (amount !== undefined) amounts.set(line.key, Math.min(amount, line.unitPrice * line.quantity))
  }
  return amounts
}

/**
 * An amount off the cart after the shopper's coupons, on what they left of each line (a reward tier's discount), with
 * how it falls on the lines.
 */
export interface CartAdjustment {
  /** Minor units off the cart: at most what the coupons left of it (0 when they left nothing). */
  amount: number
  /**
   * How `amount` falls on the lines (their amounts sum to it; a line that gets nothing is not listed): each comes off
   * its line's total after the coupons, so a host that taxes per line taxes what is left.
   */
  lines: Array<{ lineKey: string, amount: number }>
  /** What the shopper is shown (the tier's label). */
  label: string
  /** The rule that produced it (`reward:<tierId>`). */
  rule: string
}

/** The cart's shipping is waived: the host charges no shipping while one applies (one is enough). */
export interface ShippingAdjustment {
  /** What the shopper is shown (the tier's label). */
  label: string
  /** The rule that produced it (`reward:<tierId>`). */
  rule: string
}

/**
 * What the reward tiers do to a cart, as data a host applies in its own totals (the model of Medusa's line-item and
 * shipping-method adjustments): computed from the cart's view priced without them (`CartView`), never stored.
 */
export interface CartAdjustments {
  /**
   * Each held gift line's whole subtotal (rule `reward:<tierId>`): the line costs nothing. A host prices the line at
   * zero (as the reference platform and WooCommerce do) or takes the amount off it before its coupons; either way it
   * takes no share of a coupon.
   */
  lines: LineAdjustment[]
  /** The discount tier that applies (one at most): off the cart after the shopper's coupons. */
  cart: CartAdjustment[]
  /** The free-shipping tiers reached: the shipping is waived. */
  shipping: ShippingAdjustment[]
  /**
   * Every gift the cart earns, its line held or not: the host brings its gift lines in step with them
   * (`syncRewardGifts`). A gift whose line the cart does not hold grants nothing yet: its tier shows as blocked.
   */
  gifts: RewardOutcome['gifts']
  /** The tiers' progress as the shopper is shown it (what the drawer's meter and `extensions.svc` read). */
  outcome: RewardOutcome
}

/** The reward tiers' adjustments for a cart's view, or null while no tier is configured (pure, no I/O). */
export type TierAdjuster = (view: CartView) => CartAdjustments | null
