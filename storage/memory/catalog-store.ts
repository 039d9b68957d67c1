import type { Coupon, Product } from '../../kernel/domain/types.ts'
import type { CatalogStore, ProductPage, ProductQuery } from '../contract/index.ts'
import { lastById, normaliseKey, productPaging } from '../rules.ts'
import { productSelection } from './product-match.ts'
import { copy, type MemoryState } from './state.ts'

/** `CatalogStore` in memory: products, coupons and the catalog's version. */
export class MemoryCatalogStore implements CatalogStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async getProduct (id: number): Promise<Product | null> {
    this.#state.assertOpen()
    const product = this.#state.products.get(id)
    return product === undefined ? null : copy(product)
  }

  async getProducts (ids: readonly number[]): Promise<Map<number, Product>> {
    this.#state.assertOpen()
    const found = new Map<number, Product>()
    for (const id of ids) {
      const product = this.#state.products.get(id)
      if (product !== undefined) found.set(id, copy(product))
    }
    return found
  }

  async listProducts (query: ProductQuery): Promise<ProductPage> {
    this.#state.assertOpen()
    const { matches, compare, products } = productSelection(query, { all: this.#state.products.values() })
    const found = products.filter(matches).sort(compare)
    const { limit, offset } = productPaging(query)
    return { products: found.slice(offset, offset + limit).map(copy), total: found.length }
  }

  async upsertProducts (products: readonly Product[]): Promise<void> {
    this.#state.assertOpen()
    if (products.length === 0) return
    for (const product of products) {
      if (!Number.isSafeInteger(product.id)) throw new TypeError(`a product id must be an integer, got ${product.id}`)
    }
    this.#state.bumpCatalog()
    for (const product of lastById(products, (item) => item.id)) this.#state.assign(this.#state.products, product.id, copy(product))
  }

  async getCoupon (code: string): Promise<Coupon | null> {
    this.#state.assertOpen()
    const coupon = this.#state.coupons.get(normaliseKey(code))
    return coupon === undefined ? null : copy(coupon)
  }

  async getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> {
    this.#state.assertOpen()
    const found = new Map<string, Coupon>()
    for (const code of codes) {
      const coupon = this.#state.coupons.get(normaliseKey(code))
      if (coupon !== undefined) found.set(coupon.code, copy(coupon))
    }
    return found
  }

  async upsertCoupons (coupons: readonly Coupon[]): Promise<void> {
    this.#state.assertOpen()
    if (coupons.length === 0) return
    const normalised = lastById(coupons.map((coupon) => ({ ...coupon, code: normaliseKey(coupon.code) })), (coupon) => coupon.code)
    this.#state.bumpCatalog()
    for (const coupon of normalised) this.#state.assign(this.#state.coupons, coupon.code, copy(coupon))
  }
}
