import { DEFAULT_PRODUCT_TYPES, productPaging } from '../rules.ts'
import type { ProductQuery } from '../types.ts'

export interface ProductFilter {
  where: string
  params: unknown[]
  limit: number
  offset: number
}

function escapeLike (text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

/** Translates a `ProductQuery` into a WHERE clause over svc_products plus paging. */
export function productFilter (query: ProductQuery): ProductFilter {
  const params: unknown[] = []
  const param = (value: unknown): string => {
    params.push(value)
    return `$${params.length}`
  }
  const clauses = [`type = ANY(${param(query.types ?? DEFAULT_PRODUCT_TYPES)}::text[])`]
  if (query.statuses) clauses.push(`status = ANY(${param(query.statuses)}::text[])`)
  if (query.visibilities) clauses.push(`catalog_visibility = ANY(${param(query.visibilities)}::text[])`)
  if (query.ids) clauses.push(`id = ANY(${param(query.ids)}::int[])`)
  if (query.categoryId !== undefined) {
    clauses.push(`data->'categories' @> ${param(JSON.stringify([{ id: query.categoryId }]))}::jsonb`)
  }
  const search = query.search?.trim()
  if (search) {
    const pattern = param(`%${escapeLike(search)}%`)
    clauses.push(`(name ILIKE ${pattern} OR sku ILIKE ${pattern})`)
  }
  return { where: clauses.join(' AND '), params, ...productPaging(query) }
}
