import type { Product, ShopConfig } from 'cart-drawer-service/drawer'
import type { ProductPage, ProductQuery } from 'cart-drawer-service/storage'

/**
 * The stationery shop's catalog. Products are the port's `Product` (the drawer reads them through `getProducts`);
 * the coupons are the shop's own, in its own shape.
 */

/** Euros; prices include VAT, so the totals show no separate tax; €4.90 flat shipping. */
export const SHOP_CONFIG: ShopConfig = {
  currency: { code: 'EUR', symbol: '€', minorUnit: 2, decimalSeparator: ',', thousandSeparator: '.', prefix: '', suffix: ' €' },
  taxRatePercent: 0,
  taxLabel: 'VAT included',
  shippingFlatRate: 490,
  fees: []
}

type Draft = Partial<Product> & Pick<Product, 'id' | 'name' | 'regularPrice'>

function product (draft: Draft): Product {
  return {
    parentId: 0,
    type: 'simple',
    slug: draft.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, ''),
    sku: `PI-${draft.id}`,
    shortDescription: '',
    description: '',
    status: 'publish',
    catalogVisibility: 'visible',
    salePrice: null,
    manageStock: false,
    stockQuantity: null,
    stockStatus: 'instock',
    backorders: 'no',
    backorderNotice: '',
    lowStockAmount: null,
    soldIndividually: false,
    quantityRules: {},
    images: [],
    categories: [],
    crossSellIds: [],
    upsellIds: [],
    attributes: [],
    variationIds: [],
    variationAttributes: {},
    ...draft
  }
}

export const PRODUCTS: readonly Product[] = [
  product({ id: 1, name: 'Dotted Notebook', regularPrice: 900, shortDescription: 'A5, 160 pages.', crossSellIds: [3, 4] }),
  product({ id: 2, name: 'Fountain Pen', regularPrice: 2400, shortDescription: 'Steel nib, medium.', crossSellIds: [3] }),
  product({ id: 3, name: 'Ink Bottle', regularPrice: 700, shortDescription: 'Blue-black, 50 ml.' }),
  product({ id: 4, name: 'Pencil Set', regularPrice: 600, shortDescription: 'Six grades, HB to 6B.' }),
  product({
    id: 5,
    name: 'Desk Lamp',
    type: 'variable',
    regularPrice: null,
    shortDescription: 'Choose a colour.',
    attributes: [{ name: 'pa_colour', label: 'Colour', options: ['black', 'white'] }],
    variationIds: [51, 52]
  }),
  product({ id: 51, parentId: 5, type: 'variation', name: 'Desk Lamp - Black', slug: 'desk-lamp-black', regularPrice: 3900, variationAttributes: { pa_colour: 'black' } }),
  product({ id: 52, parentId: 5, type: 'variation', name: 'Desk Lamp - White', slug: 'desk-lamp-white', regularPrice: 4200, variationAttributes: { pa_colour: 'white' } }),
  product({ id: 6, name: 'Gift Wrap', regularPrice: 300, shortDescription: 'An add-on, from the cart only.', catalogVisibility: 'hidden' }),
  product({ id: 7, name: 'Brass Bookmark', regularPrice: 500, shortDescription: 'A reward, from the cart only.', catalogVisibility: 'hidden' }),
  product({ id: 8, name: 'Washi Tape', regularPrice: 400, shortDescription: 'Three rolls.' }),
  product({ id: 9, name: 'Desk Pad', regularPrice: 1500, shortDescription: 'Felt, 60 × 30 cm.' })
]

/** The shop's own coupon: a percent off the cart or a fixed amount off it, with an optional minimum spend. */
export interface ShopCoupon {
  code: string
  kind: 'percent' | 'fixed'
  /** Percent (1–100), or minor units. */
  value: number
  /** Minimum items subtotal (minor units), or 0. */
  minSpend: number
  label: string
}

export const COUPONS: readonly ShopCoupon[] = [
  { code: 'ink10', kind: 'percent', value: 10, minSpend: 0, label: '10 % off the cart' },
  { code: 'paper5', kind: 'fixed', value: 500, minSpend: 2000, label: '€5 off from €20' }
]

/** The catalog in memory; it never changes while the shop runs (version 1). */
export class Catalog {
  readonly version = 1
  readonly #products = new Map(PRODUCTS.map((item) => [item.id, item]))
  readonly #coupons = new Map(COUPONS.map((item) => [item.code, item]))

  get (id: number): Product | null {
    return this.#products.get(id) ?? null
  }

  getMany (ids: Iterable<number>): Map<number, Product> {
    const found = new Map<number, Product>()
    for (const id of ids) {
      const item = this.#products.get(id)
      if (item !== undefined) found.set(id, item)
    }
    return found
  }

  bySlug (slug: string): Product | null {
    return [...this.#products.values()].find((item) => item.type !== 'variation' && item.slug === slug) ?? null
  }

  /** Filters, case-insensitive search on name or SKU, by ids, one page (simple and variable products by default). */
  list (query: ProductQuery): ProductPage {
    const search = query.search?.trim().toLowerCase()
    const types = query.types ?? ['simple', 'variable']
    const matching = [...this.#products.values()].filter((item) =>
      types.includes(item.type) &&
      (query.statuses === undefined || query.statuses.includes(item.status)) &&
      (query.visibilities === undefined || query.visibilities.includes(item.catalogVisibility)) &&
      (query.ids === undefined || query.ids.includes(item.id)) &&
      (query.categoryId === undefined || item.categories.some((category) => category.id === query.categoryId)) &&
      (!search || item.name.toLowerCase().includes(search) || item.sku.toLowerCase().includes(search))
    ).sort((a, b) => a.id - b.id)
    const perPage = Math.min(100, Math.max(1, Math.floor(query.perPage ?? 10)))
    const page = Math.max(1, Math.floor(query.page ?? 1))
    return { products: matching.slice((page - 1) * perPage, page * perPage), total: matching.length }
  }

  /** The shop page's products: published and shown in the catalog. */
  listed (): Product[] {
    return this.list({ statuses: ['publish'], visibilities: ['visible', 'catalog'], perPage: 100 }).products
  }

  coupon (code: string): ShopCoupon | null {
    return this.#coupons.get(code) ?? null
  }
}
