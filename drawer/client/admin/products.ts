import type { AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { h } from '../dom.ts'
import type { AdminApi } from './api.ts'
import { formatList, t } from './i18n.ts'

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

const NOTES: Record<string, AdminMessageId> = {
  simple: 'product.simple',
  variable: 'product.variable',
  variation: 'product.variation',
  draft: 'product.draft',
  private: 'product.private',
  outofstock: 'product.outofstock',
  onbackorder: 'product.onbackorder'
}

/**
 * How a search result reads in a picker: the name and SKU as they are (data: `translate="no"`), the id, and the
 * product's kind, status and stock in the screens' words (a code the catalog does not know, as it came).
 */
export function describeProduct (product: FoundProduct): Array<Node | string> {
  const notes = [product.type, product.status === 'publish' ? '' : product.status, product.stock_status === 'instock' ? '' : product.stock_status]
    .filter(Boolean).map((code) => NOTES[code] === undefined ? code : t(NOTES[code]))
  return [
    h('span', { translate: 'no', dir: 'auto' }, product.name),
    ` (#${product.id}`,
    ...(product.sku ? [', ', h('span', { translate: 'no' }, product.sku)] : []),
    notes.length > 0 ? `; ${formatList(notes)})` : ')'
  ]
}
