import type { Product } from './types.ts'

/**
 * A product after `quantity` of it is sold, or null when its stock does not allow it. Only products that manage
 * stock change: the quantity falls, and the status follows it (`outofstock` at zero, `onbackorder` below zero when
 * backorders are allowed). Products that do not manage stock are returned as they are.
 */
export function takeStock (product: Product, quantity: number): Product | null {
  if (!product.manageStock || product.stockQuantity === null) return product
  const left = product.stockQuantity - quantity
  if (left < 0 && product.backorders === 'no') return null
  const stockStatus = left > 0 ? 'instock' : left === 0 ? 'outofstock' : 'onbackorder'
  return { ...product, stockQuantity: left, stockStatus }
}

/** The stock each product id loses, the quantities of one id summed. */
export function stockByProduct (lines: ReadonlyArray<{ productId: number, quantity: number }>): Map<number, number> {
  const taken = new Map<number, number>()
  for (const { productId, quantity } of lines) taken.set(productId, (taken.get(productId) ?? 0) + quantity)
  return taken
}
