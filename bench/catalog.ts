/** The bench's own catalog: simple products enough for the 100-line cart, beside the demo shop's. */
import type { Product } from '../domain/types.ts'

export const BENCH_PRODUCT_FIRST_ID = 90_001
export const BENCH_PRODUCT_COUNT = 100

export function benchProducts (homeUrl: string): Product[] {
  const base = homeUrl.replace(/\/+$/, '')
  return Array.from({ length: BENCH_PRODUCT_COUNT }, (_, index): Product => {
    const id = BENCH_PRODUCT_FIRST_ID + index
    const slug = `bench-product-${index + 1}`
    return {
      id,
      parentId: 0,
      type: 'simple',
      name: `Bench product ${index + 1}`,
      slug,
      sku: `BENCH-${id}`,
      shortDescription: 'A product of the benchmark catalog.',
      description: '',
      status: 'publish',
      catalogVisibility: 'visible',
      regularPrice: 1000 + index * 10,
      salePrice: index % 3 === 0 ? 900 + index * 10 : null,
      manageStock: false,
      stockQuantity: null,
      stockStatus: 'instock',
      backorders: 'no',
      backorderNotice: '',
      lowStockAmount: null,
      soldIndividually: false,
      quantityRules: {},
      images: [{ id, src: `${base}/images/${slug}.svg`, thumbnail: `${base}/images/${slug}.svg`, alt: `Bench product ${index + 1}`, name: slug }],
      categories: [],
      crossSellIds: [],
      upsellIds: [],
      attributes: [],
      variationIds: [],
      variationAttributes: {}
    }
  })
}
