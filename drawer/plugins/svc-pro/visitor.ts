import { ADDON_MARK_PREFIX } from '../../../kernel/domain/marks.ts'
import { conditionContext, evaluate, type ConditionGroup } from '../../domain/conditions/index.ts'
import type { CartViewLine } from '../../../kernel/domain/cart-view.ts'
import { computeDiscounts } from '../../../kernel/domain/discounts.ts'
import { cartView } from '../../../kernel/domain/totals.ts'
import type { PricedCart, PricedLine } from '../../../kernel/domain/types.ts'
import type { Viewer } from '../../port/index.ts'

export const ADDON_GROUP_PREFIX = ADDON_MARK_PREFIX

/** Lines the service added as add-ons. */
export function isAddonLine ({ line }: PricedLine): boolean {
  return line.mark?.startsWith(ADDON_GROUP_PREFIX) ?? false
}

const isAddonViewLine = (line: CartViewLine): boolean => line.mark?.startsWith(ADDON_GROUP_PREFIX) ?? false

/**
 * Whether conditions hold for a cart and a visitor, read from the cart's view. Add-on lines do not count towards the
 * facts, so an add-on cannot keep its own conditions true.
 */
export function conditionsHold (conditions: ConditionGroup, priced: PricedCart, viewer: Viewer, now: Date): boolean {
  const context = conditionContext(cartView(priced), { loggedIn: Boolean(viewer.userId), capabilities: viewer.capabilities ?? [] }, now, (line) => !isAddonViewLine(line))
  return evaluate(conditions, { ...context, subtotal: subtotalWithoutAddons(priced, context.subtotal) })
}

/**
 * The subtotal after discounts of the lines that count, with the coupons applied as if the add-on lines were not in
 * the cart: a fixed-cart coupon shares its amount with every line, so an add-on line would otherwise leave the other
 * lines a bigger subtotal and hold up its own subtotal condition.
 */
function subtotalWithoutAddons (priced: PricedCart, counted: number): number {
  if (priced.coupons.length === 0 || !priced.lines.some(isAddonLine)) return counted
  const amounts = priced.lines.filter((line) => !isAddonLine(line)).map((line) => line.lineSubtotal - line.lineOwnDiscount)
  const { lineDiscounts } = computeDiscounts(amounts, priced.coupons.map(({ coupon }) => coupon))
  return amounts.reduce((sum, amount, index) => sum + amount - (lineDiscounts[index] ?? 0), 0)
}
