/** The bench's own catalog: simple products enough for the 100-line cart, beside the demo shop's. */
import type { Product } from '../kernel/domain/types.ts'
import { product } from '../seed/demo-catalog.ts'

export const BENCH_PRODUCT_FIRST_ID = 90_001
export const BENCH_PRODUCT_COUNT = 100

export function benchProducts (homeUrl: string): Product[] {
  const base = homeUrl.replace(/\/+$/, '')
  return Array.from({ length: BENCH_PRODUCT_COUNT }, (_, index) => {
    const id = BENCH_PRODUCT_FIRST_ID + index
    return product({
      id,
      name: `Bench product ${index + 1}`,
      slug: `bench-product-${index + 1}`,
      sku: `BENCH-${id}`,
      shortDescription: 'A product of the benchmark catalog.',
      regularPrice: 1000 + index * 10,
      salePrice: index % 3 === 0 ? 900 + index * 10 : null
    }, base)
  })
}
