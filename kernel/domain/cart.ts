import { createHash } from 'node:crypto'
import { GUEST_VIEWER, isInStock, isPurchasable } from './catalog.ts'
import type { Viewer } from './catalog.ts'
import { checkStock, checkWholeQuantity, normaliseNewLineQuantity, quantityLimits, validateQuantity } from './quantity.ts'
import { domainError, fail, ok } from './result.ts'
import type { CartData, CartLine, Product, Result } from './types.ts'

/**
 * The cart item key: md5 (32 lowercase hex) of `productId`, `variationId` and the attributes sorted by name, each
 * part URI-encoded so that no two different carts items share a canonical string.
 */
export function cartItemKey (productId: number, variationId: number, variation: Record<string, string> = {}, mark?: string): string {
  const attributes = Object.keys(variation).sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(variation[name] ?? '')}`)
    .join('&')
  const grouped = mark === undefined ? '' : `_group=${encodeURIComponent(mark)}`
  return createHash('md5').update(`${productId}_${variationId}_${attributes}${grouped}`).digest('hex')
}

export function emptyCart (): CartData {
  return { lines: [], coupons: [] }
}

/** The products a cart's lines name: each line's product, and its variation when it has one. */
export function cartProductIds (data: CartData): Set<number> {
  const ids = new Set<number>()
  for (const line of data.lines) {
    ids.add(line.productId)
    if (line.variationId) ids.add(line.variationId)
  }
  return ids
}

/** Trimmed and lower case, the form coupon codes are stored and compared in. */
export function normaliseCouponCode (code: string): string {
  return code.trim().toLowerCase()
}

/** The id that holds the stock of a line: the variation's, else the product's. */
export function lineStockId (line: Pick<CartLine, 'productId' | 'variationId'>): number {
  return line.variationId !== 0 ? line.variationId : line.productId
}

/** Units of the stock item `stockId` held by lines other than `exceptKey`. */
export function quantityInOtherLines (cart: CartData, stockId: number, exceptKey: string): number {
  let total = 0
  for (const line of cart.lines) {
    if (line.key !== exceptKey && lineStockId(line) === stockId) total += line.quantity
  }
  return total
}

function invalidKey () {
  return domainError('item_not_found', 'Cart item no longer exists or is invalid.')
}

/**
 * Reason `product_not_purchasable`, with WooCommerce's message for it (`"Name" is not available for purchase.`), or a
 * generic one when the product is not known.
 */
export function notPurchasable (product?: Pick<Product, 'name'>) {
  return domainError('product_not_purchasable', product === undefined
    ? 'This product cannot be added to the cart.'
    : `"${product.name}" is not available for purchase.`)
}

/** Reason `product_not_found`: no product has the id (WooCommerce's message). */
export function productNotFound (id: number) {
  return domainError('product_not_found', `Product with ID "${id}" was not found and cannot be added to the cart.`)
}

/** A copy of the cart's data with new lines and coupons; the customer and the chosen shipping rates are kept. */
export function withLines (cart: CartData, lines: CartLine[], coupons: string[] = [...cart.coupons]): CartData {
  const next: CartData = { lines, coupons }
  if (cart.customer !== undefined) next.customer = cart.customer
  if (cart.shippingRates !== undefined) next.shippingRates = { ...cart.shippingRates }
  return next
}

export interface AddToCartRequest {
  /** What is priced: a simple product or a variation. */
  product: Product
  /** The variable parent of a variation, else the product itself. */
  parent: Product
  quantity: number
  /** The chosen attribute values (canonical, see `normaliseVariationChoice`); {} for a simple product. */
  variation?: Record<string, string>
  /** The drawer's mark (`CartLine.mark`): the line has a key of its own, never merged with a line marked otherwise. */
  mark?: string
  /**
   * The Store API's add (CartController::add_to_cart): a new line's quantity is brought within the product's rules
   * instead of refused. Off for the platform's own adds (bundles, merges on login), which refuse.
   */
  normaliseQuantity?: boolean
}

/**
 * Adds `quantity` of a product, merging into the line with the same product, variation and attributes. Checks in
 * order: purchasable (`product_not_purchasable`), in stock (`product_out_of_stock`), a sold-individually product
 * already in the cart (`product_sold_individually`), then the merged quantity against the quantity limits.
 * A sold-individually product is added with quantity 1 whatever whole quantity is asked, as WooCommerce does.
 * Returns a new cart; `cart` is never changed.
 */
export function addToCart (cart: CartData, request: AddToCartRequest, viewer: Viewer = GUEST_VIEWER): Result<{ cart: CartData, key: string }> {
  const { product, parent } = request
  const isVariation = product.type === 'variation'
  if (!isPurchasable(product, viewer, isVariation ? parent : undefined)) return fail(notPurchasable(product))
  if (!isInStock(product)) {
    return fail(domainError('product_out_of_stock', `"${product.name}" is out of stock and cannot be purchased.`))
  }
  const productId = isVariation ? parent.id : product.id
  const variationId = isVariation ? product.id : 0
  const variation = { ...(request.variation ?? {}) }
  const key = cartItemKey(productId, variationId, variation, request.mark)
  const existing = cart.lines.find((line) => line.key === key)
  const stockId = lineStockId({ productId, variationId })

  if (product.soldIndividually && cart.lines.some((line) => lineStockId(line) === stockId && line.quantity > 0)) {
    return fail(domainError('product_sold_individually', `You cannot add another "${product.name}" to your cart.`))
  }
  const notWhole = checkWholeQuantity(product, request.quantity)
  if (notWhole !== null) return fail(notWhole)
  let quantity = product.soldIndividually ? 1 : request.quantity

  const context = { alreadyInCart: quantityInOtherLines(cart, stockId, key) }
  const limits = quantityLimits(product, context)
  if (existing === undefined && request.normaliseQuantity === true) {
    // As WooCommerce's CartController::add_to_cart: the asked quantity is held against the stock first, then a new
    // line's quantity is brought within the product's rules (up to the minimum, down to the maximum, to the nearest
    // multiple); a merge into an existing line is validated as it is.
    const short = checkStock(product, quantity, context)
    if (short !== null) return fail(short)
    quantity = normaliseNewLineQuantity(quantity, limits)
  }
  const merged = (existing?.quantity ?? 0) + quantity
  const error = validateQuantity(product, merged, limits, context)
  if (error !== null) return fail(error)

  const lines = existing !== undefined
    ? cart.lines.map((line) => line.key === key ? { ...line, variation: { ...line.variation }, quantity: merged } : copyLine(line))
    : [...cart.lines.map(copyLine), {
        key,
        productId,
        variationId,
        variation,
        quantity: merged,
        ...(request.mark === undefined ? {} : { mark: request.mark })
      }]
  return ok({ cart: withLines(cart, lines), key })
}

/**
 * Puts back the lines of `keys` that `before` held and `cart` no longer does, each at its place in `before` (after the
 * line that preceded it there, when that line is still in the cart; else where its index was): undoes a removal that
 * should have been refused, keeping whatever else changed since.
 */
export function restoreLines (cart: CartData, before: CartData, keys: readonly string[]): CartData {
  const restoring = new Set(keys)
  const lines = cart.lines.map(copyLine)
  before.lines.forEach((line, index) => {
    if (!restoring.has(line.key) || lines.some((kept) => kept.key === line.key)) return
    const previous = index === 0 ? -1 : lines.findIndex((kept) => kept.key === before.lines[index - 1]!.key)
    lines.splice(previous >= 0 ? previous + 1 : Math.min(index, lines.length), 0, copyLine(line))
  })
  return withLines(cart, lines)
}

export function copyLine (line: CartLine): CartLine {
  return { ...line, variation: { ...line.variation } }
}

/**
 * Sets a line's quantity. `product` is the line's priced product (the variation for a variable product). Unknown
 * key → `item_not_found`; a missing product (null) or one that is not the line's → `product_not_purchasable`; the
 * quantity is validated as when adding (0 is refused: use removeLine).
 */
export function setLineQuantity (cart: CartData, key: string, quantity: number, product: Product | null | undefined): Result<CartData> {
  const line = cart.lines.find((l) => l.key === key)
  if (line === undefined) return fail(invalidKey())
  const stockId = lineStockId(line)
  if (product == null || product.id !== stockId) return fail(notPurchasable(product ?? undefined))
  const context = { alreadyInCart: quantityInOtherLines(cart, stockId, key) }
  const error = validateQuantity(product, quantity, quantityLimits(product, context), context)
  if (error !== null) return fail(error)
  return ok(withLines(cart, cart.lines.map((l) => l.key === key ? { ...copyLine(l), quantity } : copyLine(l))))
}

/** Removes a line; unknown key → `item_not_found`. */
export function removeLine (cart: CartData, key: string): Result<CartData> {
  if (!cart.lines.some((l) => l.key === key)) return fail(invalidKey())
  return ok(withLines(cart, cart.lines.filter((l) => l.key !== key).map(copyLine)))
}

/**
 * Removes several lines at once, or none: every key must name a line (else `item_not_found`, listing the unknown
 * keys in `data.keys`) and none may be locked (else `item_locked`, likewise).
 */
export function removeLines (cart: CartData, keys: readonly string[], locked: ReadonlySet<string> = new Set()): Result<CartData> {
  const present = new Set(cart.lines.map((line) => line.key))
  const unknown = keys.filter((key) => !present.has(key))
  if (unknown.length > 0) return fail({ ...invalidKey(), data: { keys: unknown } })
  const lockedKeys = keys.filter((key) => locked.has(key))
  if (lockedKeys.length > 0) {
    return fail(domainError('item_locked', 'Locked cart items cannot be removed this way.', { keys: lockedKeys }))
  }
  const removing = new Set(keys)
  return ok(withLines(cart, cart.lines.filter((line) => !removing.has(line.key)).map(copyLine)))
}
