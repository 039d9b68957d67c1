import { DEFAULT_PRODUCT_TYPES, productPaging } from '../rules.ts'
import type { ProductQuery } from '../contract/index.ts'

export interface ProductFilter {
  where: string
  params: unknown[]
  /** The ORDER BY list (without the keywords); always ends with the id, so pages never overlap. */
  orderBy: string
  limit: number
  offset: number
}

function escapeLike (text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

/** The price charged for a row of svc_products `alias` (the sale price when lower than the regular one), or NULL. */
function chargedPrice (alias: string): string {
  const regular = `(${alias}.data->>'regularPrice')::numeric`
  const sale = `(${alias}.data->>'salePrice')::numeric`
  return `(CASE WHEN ${sale} < ${regular} THEN ${sale} ELSE ${regular} END)`
}

/** The lowest or highest charged price of a product: its own, or for a variable product its published variations'. */
function priceBound (bound: 'min' | 'max'): string {
  return `(CASE WHEN svc_products.type = 'variable'
    THEN (SELECT ${bound}(${chargedPrice('v')}) FROM svc_products v
          WHERE v.parent_id = svc_products.id AND v.type = 'variation' AND v.status = 'publish')
    ELSE ${chargedPrice('svc_products')} END)`
}

/** Names with ASCII letters folded, compared byte by byte: the same order on every backend. */
const TITLE = 'lower(svc_products.name) COLLATE "C"'

/** Translates a `ProductQuery` into a WHERE clause over svc_products, an ORDER BY list and paging. */
export function productFilter (query: ProductQuery): ProductFilter {
  const params: unknown[] = []
  const param = (value: unknown): string => {
    params.push(value)
    return `$${params.length}`
  }
  const clauses = [`type = ANY(${param(query.types ?? DEFAULT_PRODUCT_TYPES)}::text[])`]
  if (query.statuses) clauses.push(`status = ANY(${param(query.statuses)}::text[])`)
  if (query.visibilities) clauses.push(`catalog_visibility = ANY(${param(query.visibilities)}::text[])`)
  // Kept to order by position in the list (`include`) without a second copy of the parameter.
  const ids = query.ids ? param(query.ids) : null
  if (ids !== null) clauses.push(`id = ANY(${ids}::int[])`)
  if (query.excludeIds && query.excludeIds.length > 0) clauses.push(`NOT (id = ANY(${param(query.excludeIds)}::int[]))`)
  if (query.slugs) clauses.push(`(data->>'slug') = ANY(${param(query.slugs)}::text[])`)
  if (query.skus) clauses.push(`sku = ANY(${param(query.skus)}::text[])`)
  if (query.parentIds) clauses.push(`parent_id = ANY(${param(query.parentIds)}::int[])`)
  if (query.parentExcludeIds && query.parentExcludeIds.length > 0) {
    clauses.push(`NOT (parent_id = ANY(${param(query.parentExcludeIds)}::int[]))`)
  }
  if (query.parentStatuses) {
    clauses.push(`(type <> 'variation' OR EXISTS (SELECT 1 FROM svc_products p
      WHERE p.id = svc_products.parent_id AND p.status = ANY(${param(query.parentStatuses)}::text[])))`)
  }
  if (query.categoryId !== undefined) {
    clauses.push(`data->'categories' @> ${param(JSON.stringify([{ id: query.categoryId }]))}::jsonb`)
  }
  if (query.categories) {
    const terms = query.categories.map((term) => `data->'categories' @> ${param(JSON.stringify([term]))}::jsonb`)
    const operator = query.categoryOperator ?? 'in'
    if (terms.length === 0) {
      if (operator === 'in') clauses.push('false')
    } else if (operator === 'and') {
      clauses.push(`(${terms.join(' AND ')})`)
    } else {
      clauses.push(`${operator === 'not_in' ? 'NOT ' : ''}(${terms.join(' OR ')})`)
    }
  }
  if (query.stockStatuses) clauses.push(`(data->>'stockStatus') = ANY(${param(query.stockStatuses)}::text[])`)
  if (query.onSale !== undefined) {
    const own = '(data->>\'salePrice\')::numeric < (data->>\'regularPrice\')::numeric'
    const variation = `(type = 'variable' AND EXISTS (SELECT 1 FROM svc_products v WHERE v.parent_id = svc_products.id
      AND v.type = 'variation' AND v.status = 'publish' AND (v.data->>'salePrice')::numeric < (v.data->>'regularPrice')::numeric))`
    const onSale = `(coalesce(${own}, false) OR ${variation})`
    clauses.push(query.onSale ? onSale : `NOT ${onSale}`)
  }
  if (query.minPrice !== undefined) clauses.push(`${priceBound('max')} >= ${param(query.minPrice)}::numeric`)
  if (query.maxPrice !== undefined) clauses.push(`${priceBound('min')} <= ${param(query.maxPrice)}::numeric`)
  const search = query.search?.trim()
  if (search) {
    const pattern = param(`%${escapeLike(search)}%`)
    clauses.push(`(name ILIKE ${pattern} OR sku ILIKE ${pattern})`)
  }

  const direction = query.order === 'desc' ? 'DESC' : 'ASC'
  let orderBy: string
  switch (query.orderBy ?? 'id') {
    case 'title':
      orderBy = `${TITLE} ${direction}, id ${direction}`
      break
    case 'slug':
      orderBy = `(data->>'slug') COLLATE "C" ${direction}, id ${direction}`
      break
    case 'price':
      orderBy = `${priceBound(direction === 'ASC' ? 'min' : 'max')} ${direction} NULLS LAST, id ${direction}`
      break
    case 'include':
      orderBy = ids !== null ? `array_position(${ids}::int[], id), id` : `id ${direction}`
      break
    default:
      orderBy = `id ${direction}`
  }
  return { where: clauses.join(' AND '), params, orderBy, ...productPaging(query) }
}
