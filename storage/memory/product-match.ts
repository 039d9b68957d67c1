import type { Product } from '../../kernel/domain/types.ts'
import { DEFAULT_PRODUCT_TYPES } from '../rules.ts'
import type { ProductCategoryTerm, ProductQuery } from '../contract/index.ts'

// `listProducts` of the memory storage: the same rules as storage/sql/product-query.ts, in JavaScript.

/** The price charged (the sale price when lower than the regular one), or null. */
function chargedPrice (product: Product): number | null {
  const { regularPrice, salePrice } = product
  if (salePrice !== null && regularPrice !== null && salePrice < regularPrice) return salePrice
  return regularPrice
}

function ownSale (product: Product): boolean {
  return product.salePrice !== null && product.regularPrice !== null && product.salePrice < product.regularPrice
}

/** ASCII letters folded to lower case, the rest left as it is (the SQL side's `lower(…) COLLATE "C"`). */
function foldAscii (text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
}

/** Byte order of the UTF-8 encodings (PostgreSQL's "C" collation). */
function compareBytes (a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}

function hasTerm (product: Product, term: ProductCategoryTerm): boolean {
  return (product.categories ?? []).some((category) => 'id' in term ? category.id === term.id : category.slug === term.slug)
}

export interface ProductLookup {
  /** Every stored product (variations included). */
  all: Iterable<Product>
}

/** The filter and the order of a query over the stored products. */
export function productSelection (query: ProductQuery, { all }: ProductLookup) {
  const products = [...all]
  const variationsOf = new Map<number, Product[]>()
  const byId = new Map<number, Product>()
  for (const product of products) {
    byId.set(product.id, product)
    if (product.type === 'variation' && product.status === 'publish') {
      variationsOf.set(product.parentId, [...(variationsOf.get(product.parentId) ?? []), product])
    }
  }
  const bound = (product: Product, which: 'min' | 'max'): number | null => {
    if (product.type !== 'variable') return chargedPrice(product)
    const prices = (variationsOf.get(product.id) ?? []).map(chargedPrice).filter((price): price is number => price !== null)
    if (prices.length === 0) return null
    return which === 'min' ? Math.min(...prices) : Math.max(...prices)
  }
  const onSale = (product: Product) => ownSale(product) ||
    (product.type === 'variable' && (variationsOf.get(product.id) ?? []).some(ownSale))

  const types = new Set(query.types ?? DEFAULT_PRODUCT_TYPES)
  const statuses = query.statuses && new Set(query.statuses)
  const visibilities = query.visibilities && new Set(query.visibilities)
  const ids = query.ids && new Set(query.ids)
  const excluded = new Set(query.excludeIds ?? [])
  const slugs = query.slugs && new Set(query.slugs)
  const skus = query.skus && new Set(query.skus)
  const parents = query.parentIds && new Set(query.parentIds)
  const excludedParents = new Set(query.parentExcludeIds ?? [])
  const parentStatuses = query.parentStatuses && new Set(query.parentStatuses)
  const stockStatuses = query.stockStatuses && new Set(query.stockStatuses)
  const search = query.search?.trim().toLowerCase()

  const inCategories = (product: Product): boolean => {
    const terms = query.categories
    if (terms === undefined) return true
    switch (query.categoryOperator ?? 'in') {
      case 'and': return terms.every((term) => hasTerm(product, term))
      case 'not_in': return !terms.some((term) => hasTerm(product, term))
      default: return terms.some((term) => hasTerm(product, term))
    }
  }
  const inPriceRange = (product: Product): boolean => {
    if (query.minPrice !== undefined) {
      const highest = bound(product, 'max')
      if (highest === null || highest < query.minPrice) return false
    }
    if (query.maxPrice !== undefined) {
      const lowest = bound(product, 'min')
      if (lowest === null || lowest > query.maxPrice) return false
    }
    return true
  }

  const matches = (product: Product): boolean =>
    types.has(product.type) &&
    (statuses === undefined || statuses.has(product.status)) &&
    (visibilities === undefined || visibilities.has(product.catalogVisibility)) &&
    (ids === undefined || ids.has(product.id)) &&
    !excluded.has(product.id) &&
    (slugs === undefined || slugs.has(product.slug)) &&
    (skus === undefined || skus.has(product.sku)) &&
    (parents === undefined || parents.has(product.parentId)) &&
    !excludedParents.has(product.parentId) &&
    (parentStatuses === undefined || product.type !== 'variation' ||
      (byId.has(product.parentId) && parentStatuses.has(byId.get(product.parentId)!.status))) &&
    (query.categoryId === undefined || (product.categories ?? []).some((category) => category.id === query.categoryId)) &&
    inCategories(product) &&
    (stockStatuses === undefined || stockStatuses.has(product.stockStatus)) &&
    (query.onSale === undefined || onSale(product) === query.onSale) &&
    inPriceRange(product) &&
    (!search || product.name.toLowerCase().includes(search) || (product.sku ?? '').toLowerCase().includes(search))

  const sign = query.order === 'desc' ? -1 : 1
  const byIdOrder = (a: Product, b: Product) => sign * (a.id - b.id)
  let compare: (a: Product, b: Product) => number
  switch (query.orderBy ?? 'id') {
    case 'title':
      compare = (a, b) => sign * compareBytes(foldAscii(a.name), foldAscii(b.name)) || byIdOrder(a, b)
      break
    case 'slug':
      compare = (a, b) => sign * compareBytes(a.slug, b.slug) || byIdOrder(a, b)
      break
    case 'price': {
      const which = sign === 1 ? 'min' : 'max'
      compare = (a, b) => {
        const pa = bound(a, which)
        const pb = bound(b, which)
        if (pa === null || pb === null) return pa === pb ? byIdOrder(a, b) : pa === null ? 1 : -1
        return sign * (pa - pb) || byIdOrder(a, b)
      }
      break
    }
    case 'include': {
      const position = new Map<number, number>()
      for (const [index, id] of (query.ids ?? []).entries()) if (!position.has(id)) position.set(id, index)
      compare = query.ids
        ? (a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0) || a.id - b.id
        : byIdOrder
      break
    }
    default:
      compare = byIdOrder
  }
  return { matches, compare, products }
}
