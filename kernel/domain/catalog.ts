import { toPlainText } from './plain-text.ts'
import type { Product } from './types.ts'

/** Who is looking at the catalog: only shop staff may see and buy private products. */
export interface Viewer {
  canReadPrivate: boolean
}

export const GUEST_VIEWER: Readonly<Viewer> = Object.freeze({ canReadPrivate: false })

/** WooCommerce's default backorder text, used when the product has none of its own. */
export const DEFAULT_BACKORDER_NOTICE = 'Available on backorder'

/** The price charged: the sale price when set and lower than the regular price, else the regular price. */
export function effectivePrice (p: Product): number | null {
  return isOnSale(p) ? p.salePrice : p.regularPrice
}

export function isOnSale (p: Product): boolean {
  return p.salePrice !== null && p.regularPrice !== null && p.salePrice < p.regularPrice
}

function statusVisibleTo (p: Product, viewer: Viewer): boolean {
  return p.status === 'publish' || (p.status === 'private' && viewer.canReadPrivate)
}

/**
 * Whether the product can be put in a cart: it exists, is published (or private and the viewer may read private
 * products), has a price, and is not a variable parent (the shopper buys one of its variations). A variation is
 * purchasable only with its parent: pass the variable parent it belongs to, without it the answer is false.
 * Catalog visibility does not matter ("hidden" products can be bought through a direct link).
 */
export function isPurchasable (p: Product | null | undefined, viewer: Viewer = GUEST_VIEWER, parent?: Product | null): boolean {
  if (p == null) return false
  if (p.type === 'variable') return false
  if (!statusVisibleTo(p, viewer)) return false
  if (effectivePrice(p) === null) return false
  if (p.type === 'variation') {
    if (parent == null || parent.id !== p.parentId || parent.type !== 'variable') return false
    if (!statusVisibleTo(parent, viewer)) return false
  }
  return true
}

/** Not out of stock; a managed product with no stock left and no backorders counts as out of stock. */
export function isInStock (p: Product): boolean {
  if (p.stockStatus === 'outofstock') return false
  if (p.manageStock && (p.stockQuantity ?? 0) <= 0 && p.backorders === 'no') return false
  return true
}

/** How many can be bought without going on backorder: the stock (never negative) when managed, else Infinity. */
export function stockAvailableFor (p: Product): number {
  return p.manageStock ? Math.max(0, p.stockQuantity ?? 0) : Infinity
}

/** Whether buying `quantity` (the whole quantity in the cart) puts some of it on backorder. */
export function isOnBackorder (p: Product, quantity: number): boolean {
  if (p.stockStatus === 'onbackorder') return true
  return p.manageStock && p.backorders !== 'no' && quantity > (p.stockQuantity ?? 0)
}

/**
 * The plain-text notice for a line on backorder, '' when none is due. As in WooCommerce only backorders 'notify'
 * shows it ('yes' allows backorders silently). HTML tags are stripped and whitespace collapsed; no length cut.
 */
export function backorderNotice (p: Product, quantity: number): string {
  if (p.backorders !== 'notify' || !isOnBackorder(p, quantity)) return ''
  const own = toPlainText(p.backorderNotice)
  return own !== '' ? own : DEFAULT_BACKORDER_NOTICE
}

/** Shown on shop and category pages. */
export function isListedInCatalog (p: Product): boolean {
  return p.status === 'publish' && (p.catalogVisibility === 'visible' || p.catalogVisibility === 'catalog')
}

/** Shown in search results. */
export function isListedInSearch (p: Product): boolean {
  return p.status === 'publish' && (p.catalogVisibility === 'visible' || p.catalogVisibility === 'search')
}

/** Anywhere a shopper may see it listed (catalog or search). */
export function isViewable (p: Product): boolean {
  return p.status === 'publish' && p.catalogVisibility !== 'hidden'
}

/** The stock left when managed and at or below the low-stock threshold (never below 0), else null. */
export function lowStockRemaining (p: Product): number | null {
  if (!p.manageStock || p.stockQuantity === null || p.lowStockAmount === null) return null
  return p.stockQuantity <= p.lowStockAmount ? Math.max(0, p.stockQuantity) : null
}

export { findVariation, normaliseVariationChoice } from './variations.ts'
