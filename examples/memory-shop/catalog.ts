import type { Coupon, Product, ShopConfig } from 'cart-drawer-service/drawer'
import type { ProductPage, ProductQuery } from 'cart-drawer-service/storage'

/** The tea shop's pricing: euros, 7 % VAT on net prices, €4.50 flat shipping. */
export const TEA_SHOP_CONFIG: ShopConfig = {
  currency: { code: 'EUR', symbol: '€', minorUnit: 2, decimalSeparator: ',', thousandSeparator: '.', prefix: '', suffix: ' €' },
  taxRatePercent: 7,
  taxLabel: 'VAT',
  shippingFlatRate: 450,
  fees: []
}

type Draft = Partial<Product> & Pick<Product, 'id' | 'name' | 'regularPrice'>

/** A published, visible, in-stock simple product with the draft's fields on top. */
function product (draft: Draft): Product {
  const slug = draft.slug ?? draft.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '')
  return {
    parentId: 0,
    type: 'simple',
    slug,
    sku: `TEA-${draft.id}`,
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

const teas = { id: 10, name: 'Teas', slug: 'teas' }
const gear = { id: 20, name: 'Gear', slug: 'gear' }

/** The catalog, written out: ids of its own (1–9, variations 51 and 52). */
export const TEA_SHOP_PRODUCTS: readonly Product[] = [
  product({ id: 1, name: 'Sencha Green Tea', regularPrice: 1200, categories: [teas], shortDescription: 'Grassy, bright, from Shizuoka.', crossSellIds: [3, 4] }),
  product({ id: 2, name: 'Assam Black Tea', regularPrice: 1000, categories: [teas], shortDescription: 'Malty breakfast tea.', crossSellIds: [3] }),
  product({ id: 3, name: 'Tea Strainer', regularPrice: 800, categories: [gear], shortDescription: 'Fine stainless mesh.' }),
  product({ id: 4, name: 'Heather Honey', regularPrice: 900, categories: [gear], shortDescription: 'A jar of 250 g.' }),
  product({
    id: 5,
    name: 'Cast Iron Teapot',
    type: 'variable',
    regularPrice: null,
    categories: [gear],
    shortDescription: 'Choose a size.',
    attributes: [{ name: 'pa_size', label: 'Size', options: ['small', 'large'] }],
    variationIds: [51, 52]
  }),
  product({ id: 51, parentId: 5, type: 'variation', name: 'Cast Iron Teapot - Small', slug: 'cast-iron-teapot-small', regularPrice: 3500, variationAttributes: { pa_size: 'small' } }),
  product({ id: 52, parentId: 5, type: 'variation', name: 'Cast Iron Teapot - Large', slug: 'cast-iron-teapot-large', regularPrice: 4500, variationAttributes: { pa_size: 'large' } }),
  product({ id: 6, name: 'Gift Box', regularPrice: 400, categories: [gear], shortDescription: 'Added from the cart only.', catalogVisibility: 'hidden' }),
  product({ id: 7, name: 'Matcha Whisk', regularPrice: 1500, categories: [gear], shortDescription: 'One per order.', soldIndividually: true }),
  product({ id: 8, name: 'Oolong Sampler', regularPrice: 2200, categories: [teas], shortDescription: 'Draft: not on sale yet.', status: 'draft' }),
  product({ id: 9, name: 'Jasmine Green Tea', regularPrice: 1400, salePrice: 1100, categories: [teas], shortDescription: 'Scented with jasmine blossoms.' })
]

function coupon (draft: Partial<Coupon> & Pick<Coupon, 'code' | 'discountType' | 'amount'>): Coupon {
  return { freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '', ...draft }
}

export const TEA_SHOP_COUPONS: readonly Coupon[] = [
  coupon({ code: 'steep10', discountType: 'percent', amount: 10, description: '10 % off the whole cart.' }),
  coupon({ code: 'kettle3', discountType: 'fixed_cart', amount: 300, description: '€3 off the cart.' })
]

const DEFAULT_TYPES: ReadonlyArray<Product['type']> = ['simple', 'variable']

/** The catalog in memory. It never changes while the shop runs: its version stays 1. */
export class Catalog {
  readonly version = 1
  readonly #products: Map<number, Product>
  readonly #coupons: Map<string, Coupon>

  constructor (products: readonly Product[] = TEA_SHOP_PRODUCTS, coupons: readonly Coupon[] = TEA_SHOP_COUPONS) {
    this.#products = new Map(products.map((item) => [item.id, item]))
    this.#coupons = new Map(coupons.map((item) => [item.code, item]))
  }

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
    for (const item of this.#products.values()) if (item.type !== 'variation' && item.slug === slug) return item
    return null
  }

  /** As `Storage.listProducts`: filters, case-insensitive search on name or SKU, by id, one page. */
  list (query: ProductQuery): ProductPage {
    const search = query.search?.trim().toLowerCase()
    const types = query.types ?? DEFAULT_TYPES
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

  /** What the shop page lists: published products shown in the catalog. */
  listed (): Product[] {
    return this.list({ statuses: ['publish'], visibilities: ['visible', 'catalog'], perPage: 100 }).products
  }

  /** Coupons by normalised code. */
  coupons (codes: Iterable<string>): Map<string, Coupon> {
    const found = new Map<string, Coupon>()
    for (const code of codes) {
      const item = this.#coupons.get(code)
      if (item !== undefined) found.set(code, item)
    }
    return found
  }

  coupon (code: string): Coupon | null {
    return this.#coupons.get(code) ?? null
  }
}
