import { CartActionError } from './cart-action-error.ts'
import { addToCart, copyLine, normaliseCouponCode, removeLines, setLineQuantity, withLines } from './cart.ts'
import type { Viewer } from './catalog.ts'
import { applyCoupon, removeCoupon } from './coupons.ts'
import type { CartData, Coupon, Currency, DomainError, Product } from './types.ts'

/**
 * One change of a cart, as the drawer asks for it. A list of changes is applied in order, together or not at all
 * (`CartsPort.change`): a bundle's members are added in one step.
 *
 * - `add`: adds `quantity` of a product (a variation: the variation's id and its chosen attributes), merged into the
 *   line that has the same product, variation and `mark`. The mark (`CartLine.mark`, opaque to the shop) keys a line
 *   apart: the shop stores it with the line, keeps it through quantity changes and the login merge, and gives it back.
 *   `ifAbsent`: nothing is added when a line with that mark already exists (an add-on toggled on twice).
 * - `setQuantity`: a line's quantity becomes `quantity` under the product's rules (0 removes the line); an unknown key
 *   refuses the list, so does a locked line unless the change is the drawer's own.
 * - `remove`: the lines of these keys go (an unknown key refuses the list; so does a locked one, unless the change is
 *   the drawer's own: `CartChangeOptions.service`); `removeMarked`: every line with the mark goes (none: nothing
 *   happens).
 * - `applyCoupon`, `removeCoupon`: as the shop's own coupon rules say.
 */
export type CartChange =
  | { type: 'add', id: number, quantity: number, variation?: Record<string, string>, mark?: string, ifAbsent?: boolean }
  | { type: 'setQuantity', key: string, quantity: number }
  | { type: 'remove', keys: readonly string[] }
  | { type: 'removeMarked', mark: string }
  | { type: 'applyCoupon', code: string }
  | { type: 'removeCoupon', code: string }

/** What applying a change list to `CartData` needs from the shop, read before the write (no I/O inside it). */
export interface CartChangeContext {
  /** The product an add names with its parent and the line's attributes (refused as `CartActionError`). */
  resolved: ReadonlyMap<number, { product: Product, parent: Product, variation: Record<string, string> }>
  /** The products of the lines a `setQuantity` names, by id (a variation's own id): a missing one refuses the change. */
  lineProducts?: ReadonlyMap<number, Product>
  /** The coupons the list applies, by normalised code (null: no such coupon). */
  coupons: ReadonlyMap<string, Coupon | null>
  /** The cart's items total as the shop prices it (a coupon's minimum spend is held against it). */
  subtotal: (data: CartData) => number
  /** The lines only the drawer's own changes may remove; an empty set for the drawer's own (`service`). */
  locked: (data: CartData) => ReadonlySet<string>
  now: Date
  currency: Currency
  viewer: Viewer
}

function refused (error: DomainError, index: number): never {
  throw new CartActionError(error, index)
}

/**
 * A shop that keeps its carts as the package's `CartData` applies a change list with this: each change in order, the
 * first refusal thrown as `CartActionError` naming its position, nothing applied then (the caller stores the answer
 * only when it returns). Pure: the products and coupons come in `context`.
 */
export function applyCartChanges (data: CartData, changes: readonly CartChange[], context: CartChangeContext): CartData {
  let next = data
  changes.forEach((change, index) => {
    const check = <T>(result: { ok: true, value: T } | { ok: false, error: DomainError }): T => result.ok ? result.value : refused(result.error, index)
    switch (change.type) {
      case 'add': {
        if (change.ifAbsent === true && change.mark !== undefined && next.lines.some((line) => line.mark === change.mark)) return
        const resolved = context.resolved.get(change.id)
        if (resolved === undefined) refused({ reason: 'product_not_purchasable', message: 'This product cannot be added to the cart.' }, index)
        const { product, parent, variation } = resolved
        next = check(addToCart(next, {
          product,
          parent,
          quantity: change.quantity,
          variation,
          ...(change.mark === undefined ? {} : { mark: change.mark })
        }, context.viewer)).cart
        return
      }
      case 'setQuantity': {
        if (context.locked(next).has(change.key)) {
          refused({ reason: 'item_locked', message: 'This cart item is locked: it can only be changed by the drawer\'s own controls.', data: { keys: [change.key] } }, index)
        }
        if (change.quantity === 0) {
          next = check(removeLines(next, [change.key]))
          return
        }
        const line = next.lines.find((candidate) => candidate.key === change.key)
        next = check(setLineQuantity(next, change.key, change.quantity, line === undefined ? null : context.lineProducts?.get(line.variationId || line.productId)))
        return
      }
      case 'remove':
        next = check(removeLines(next, change.keys, context.locked(next)))
        return
      case 'removeMarked':
        next = withLines(next, next.lines.filter((line) => line.mark !== change.mark).map(copyLine))
        return
      case 'applyCoupon': {
        const code = normaliseCouponCode(change.code)
        next = check(applyCoupon(next, context.coupons.get(code) ?? null, { code, subtotal: context.subtotal(next), now: context.now, currency: context.currency }))
        return
      }
      case 'removeCoupon':
        next = check(removeCoupon(next, change.code))
    }
  })
  return next
}

/** The keys of the lines a change list sets the quantity of (their products are read before the write). */
export function quantityLineKeys (changes: readonly CartChange[]): string[] {
  return changes.flatMap((change) => change.type === 'setQuantity' ? [change.key] : [])
}

/** The normalised codes of the coupons a change list applies (to read before the write). */
export function appliedCouponCodes (changes: readonly CartChange[]): string[] {
  return [...new Set(changes.flatMap((change) => change.type === 'applyCoupon' ? [normaliseCouponCode(change.code)] : []))]
}
