import type { Order, Product } from '../kernel/domain/types.ts'
import type { ProductQuery } from './contract/index.ts'

// Rules every backend applies the same way (SqlStorage in SQL, MemoryStorage in JavaScript).

/** Coupon codes and e-mail addresses are compared trimmed and in lower case. */
export function normaliseKey (value: string): string {
  return value.trim().toLowerCase()
}

/** The product types `listProducts` answers when the query names none: variations are left out. */
export const DEFAULT_PRODUCT_TYPES: ReadonlyArray<Product['type']> = ['simple', 'variable']
const DEFAULT_PER_PAGE = 10
const MAX_PER_PAGE = 100

function wholeNumber (value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) ? Math.floor(value) : fallback
}

/** A query's page as a limit and an offset: 1-based pages, 10 per page by default, at most 100. */
export function productPaging (query: ProductQuery): { limit: number, offset: number } {
  const page = Math.max(1, wholeNumber(query.page, 1))
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, wholeNumber(query.perPage, DEFAULT_PER_PAGE)))
  return { limit: perPage, offset: (page - 1) * perPage }
}

/** An order query's page, with the same rules as products' pages. */
export function orderPaging (query: { page?: number, perPage?: number }): { limit: number, offset: number } {
  return productPaging({ page: query.page, perPage: query.perPage })
}

/** The order statuses `bestSellers` counts (WooCommerce counts `total_sales` when an order reaches one of them). */
export const BEST_SELLER_STATUSES: ReadonlyArray<Order['status']> = ['processing', 'on-hold', 'completed']

/** `bestSellers`' limit: a whole number from 1 to 100. */
export function bestSellerLimit (limit: number): number {
  return Math.min(MAX_PER_PAGE, Math.max(1, wholeNumber(limit, DEFAULT_PER_PAGE)))
}

/** The items with duplicates of an id removed, the last of each kept. */
export function lastById<T> (items: readonly T[], id: (item: T) => string | number): T[] {
  return [...new Map(items.map((item) => [id(item), item])).values()]
}
