import type { AdminApi } from './api.ts'

export interface FoundProduct {
  id: number
  parent_id: number
  name: string
  sku: string
  type: string
  status: string
  stock_status: string
}

/**
 * Products for the pickers (Pro, `GET products/search`): names by id for the products the settings name, and search
 * by name or SKU.
 */
export class ProductDirectory {
  readonly #api: AdminApi
  readonly #names = new Map<number, string>()

  constructor (api: AdminApi) {
    this.#api = api
  }

  /** The first hundred products, so the pickers can name what the settings hold. */
  async preload (): Promise<void> {
    this.#remember(await this.#api.json<FoundProduct[]>('GET', 'products/search?limit=100'))
  }

  async search (query: string): Promise<FoundProduct[]> {
    const found = await this.#api.json<FoundProduct[]>('GET', `products/search?limit=15&q=${encodeURIComponent(query)}`)
    this.#remember(found)
    return found
  }

  label (id: number): string {
    const name = this.#names.get(id)
    return name === undefined ? `#${id}` : `${name} (#${id})`
  }

  #remember (products: FoundProduct[]): void {
    for (const product of products) this.#names.set(product.id, product.name)
  }
}

/** How a search result reads in a picker. */
export function describeProduct (product: FoundProduct): string {
  const notes = [product.type, product.status === 'publish' ? '' : product.status, product.stock_status === 'instock' ? '' : product.stock_status]
    .filter(Boolean).join(', ')
  return `${product.name} (#${product.id}${product.sku ? `, ${product.sku}` : ''}${notes ? `; ${notes}` : ''})`
}
