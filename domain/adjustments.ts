/**
 * Adjustments: how the drawer's offers change what a host charges, without the drawer writing a price. The drawer
 * computes them from a read-only view of the host's cart lines; the host applies them in its own totals (the model
 * of Medusa's line-item adjustments, which its promotion module computes and its cart stores and totals).
 */

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
  group?: string
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
