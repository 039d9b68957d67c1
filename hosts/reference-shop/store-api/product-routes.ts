import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Static, TSchema } from 'typebox'
import type { Product } from '../../../kernel/domain/types.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import {
  ProductListResponses, ProductParams, ProductResponses, ProductSchema, ProductsQuery, RouteOptionsResponses
} from '../schemas/store-api.ts'
import type { ProductCategoryTerm, ProductOrderBy, ProductQuery } from '../../../storage/contract/index.ts'
import { PUBLIC_SECURITY } from '../../../drawer/index.ts'
import { productCategoryRoutes } from './product-category-routes.ts'
import { invalidParams, routeOptions } from './route-support.ts'
import { serializeProduct, type ProductRelatives } from './serialize-product.ts'

type ProductsQueryType = Static<typeof ProductsQuery>

const MAX_ID = 2_147_483_647
const ALL_TYPES: Array<Product['type']> = ['simple', 'variable', 'variation']
/** WooCommerce's sort keys without data here (dates, sales, ratings, menu order) sort by id, the creation order. */
const ORDER_BY: Record<NonNullable<ProductsQueryType['orderby']>, ProductOrderBy> = {
  date: 'id', modified: 'id', id: 'id', include: 'include', title: 'title', slug: 'slug', price: 'price', popularity: 'id', rating: 'id', menu_order: 'id', comment_count: 'id'
}
const VISIBILITIES: Record<NonNullable<ProductsQueryType['catalog_visibility']>, Array<Product['catalogVisibility']> | undefined> = {
  any: undefined,
  visible: ['visible'],
  catalog: ['visible', 'catalog'],
  search: ['visible', 'search'],
  hidden: ['hidden']
}

function idList (values: readonly string[] | undefined): number[] | undefined {
  if (values === undefined) return undefined
  return values.flatMap((value) => value.split(',')).map((id) => Number(id.trim())).filter((id) => id <= MAX_ID)
}

function textList (value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '')
  // WooCommerce also tries the whole string, in case a slug or SKU itself holds a comma.
  return items.length > 1 ? [...items, value.trim()] : items
}

function wpBoolean (value: boolean | string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  return value === true || value === '1' || value === 'yes' || value === 'true'
}

/** `include[]=1&include[0]=2`, as WordPress clients write arrays, folded into `include`. */
function foldBracketKeys (request: FastifyRequest): void {
  const query = request.query as Record<string, unknown>
  for (const key of Object.keys(query)) {
    const match = /^([a-z_]+)\[[0-9]*\]$/.exec(key)
    if (match === null) continue
    const name = match[1]!
    const values = [query[key]].flat()
    const current = query[name]
    query[name] = current === undefined ? values : [...[current].flat(), ...values]
    delete query[key]
  }
}

/** `{restRoot}wc/store/v1/products…`: the catalog, WooCommerce's Store API way. */
export const productRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const storeApiUrl = new URL(`${shop.restRoot}wc/store/v1`, `${shop.homeUrl}/`).href

  /** The parents of variations and the published variations of variable products, read in one call. */
  async function relativesOf (products: readonly Product[]): Promise<(product: Product) => ProductRelatives> {
    const wanted = new Set<number>()
    for (const product of products) {
      if (product.type === 'variation') wanted.add(product.parentId)
      if (product.type === 'variable') for (const id of product.variationIds) wanted.add(id)
    }
    const found = wanted.size === 0 ? new Map<number, Product>() : await shop.storage.getProducts([...wanted])
    return (product) => ({
      storeApiUrl,
      parent: product.type === 'variation' ? found.get(product.parentId) ?? null : undefined,
      variations: product.type === 'variable'
        ? product.variationIds.map((id) => found.get(id))
          .filter((variation): variation is Product => variation !== undefined && variation.status === 'publish' && variation.parentId === product.id)
        : undefined
    })
  }

  /** The storage query for the collection's parameters, or null when nothing can match. */
  async function productQuery (query: ProductsQueryType): Promise<ProductQuery | null> {
    const include = idList(query.include)
    const slugs = textList(query.slug)
    const skus = textList(query.sku)
    const search = query.search?.trim() || undefined
    if (query.type === 'grouped' || query.type === 'external' || wpBoolean(query.featured) === true) return null

    let visibilities: Array<Product['catalogVisibility']> | undefined
    if (query.catalog_visibility !== undefined) visibilities = VISIBILITIES[query.catalog_visibility]
    else if (include !== undefined || slugs !== undefined || skus !== undefined) visibilities = undefined
    else visibilities = search ? ['visible', 'search'] : ['visible', 'catalog']

    let types: Array<Product['type']> | undefined
    if (query.type !== undefined) types = [query.type]
    else if (slugs !== undefined || skus !== undefined) types = ALL_TYPES

    let ids = include
    if (query.related !== undefined) {
      const related = await relatedIds(query.related)
      ids = include === undefined ? related : include.filter((id) => related.includes(id))
      if (ids.length === 0) return null
    }
    const categories: ProductCategoryTerm[] | undefined = textList(query.category)
      ?.filter((term, index, all) => all.length === 1 || index < all.length - 1)
      .map((term) => /^[0-9]+$/.test(term) ? { id: Number(term) } : { slug: term })
    const minPrice = query.min_price === undefined ? undefined : Number(query.min_price)
    const maxPrice = query.max_price === undefined ? undefined : Number(query.max_price)
    return {
      statuses: ['publish'],
      parentStatuses: ['publish'],
      visibilities,
      types,
      search,
      ids,
      excludeIds: idList(query.exclude),
      slugs,
      skus,
      parentIds: idList(query.parent),
      parentExcludeIds: idList(query.parent_exclude),
      categories,
      categoryOperator: query.category_operator,
      stockStatuses: query.stock_status?.flatMap((value) => value.split(',')) as Array<Product['stockStatus']> | undefined,
      onSale: wpBoolean(query.on_sale),
      minPrice: minPrice === 0 ? undefined : minPrice,
      maxPrice: maxPrice === 0 ? undefined : maxPrice,
      orderBy: query.orderby === undefined ? undefined : ORDER_BY[query.orderby],
      order: query.order ?? (query.orderby === undefined ? 'asc' : 'desc'),
      page: query.page,
      perPage: query.per_page
    }
  }

  /**
   * WooCommerce's related products, without its randomness: published products listed in the catalog that share a
   * category with the product, not the product itself nor its upsells, at most 100, by id.
   */
  async function relatedIds (id: number): Promise<number[]> {
    const product = await shop.storage.getProduct(id)
    if (product === null || product.status !== 'publish' || product.catalogVisibility === 'hidden' || product.type === 'variation') {
      throw new RestError('woocommerce_rest_product_not_found', 'The related product ID is invalid or the product is not visible.', 404)
    }
    if (product.categories.length === 0) return []
    const { products } = await shop.storage.listProducts({
      statuses: ['publish'],
      visibilities: ['visible', 'catalog'],
      categories: product.categories.map((category) => ({ id: category.id })),
      excludeIds: [product.id, ...product.upsellIds],
      perPage: 100
    })
    return products.map((related) => related.id)
  }

  function linkHeader (request: FastifyRequest, page: number, totalPages: number): string[] {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '')
    const at = (target: number) => {
      query.set('page', String(target))
      return `${storeApiUrl}/products?${query.toString()}`
    }
    const links: string[] = []
    if (page > 1) links.push(`<${at(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`)
    if (totalPages > page) links.push(`<${at(page + 1)}>; rel="next"`)
    return links
  }

  app.get('/products', {
    attachValidation: true,
    preValidation: async (request) => foldBracketKeys(request),
    schema: {
      tags: ['store-api'],
      operationId: 'listProducts',
      summary: 'Published products',
      description: 'One page of products; the `X-WP-Total` and `X-WP-TotalPages` headers give the totals and `Link` the ' +
        'neighbouring pages. Without `include`, `slug`, `sku` or `catalog_visibility`, only products shown in the ' +
        'catalog (or, with `search`, in search results) are listed.',
      querystring: ProductsQuery,
      security: PUBLIC_SECURITY,
      response: ProductListResponses
    }
  }, async (request, reply) => {
    if (request.validationError) throw invalidParams(request.validationError)
    const query = await productQuery(request.query)
    const { products, total } = query === null ? { products: [], total: 0 } : await shop.storage.listProducts(query)
    const perPage = request.query.per_page
    const totalPages = Math.ceil(total / perPage)
    reply.header('X-WP-Total', String(total))
    reply.header('X-WP-TotalPages', String(totalPages))
    const links = linkHeader(request, request.query.page, totalPages)
    if (links.length > 0) reply.header('Link', links)
    const relatives = await relativesOf(products)
    return products.map((product) => serializeProduct(product, shop.serializeContext, relatives(product)))
  })

  await fastify.register(productCategoryRoutes)

  app.get('/products/:id', {
    attachValidation: true,
    schema: {
      tags: ['store-api'],
      operationId: 'getProduct',
      summary: 'One product or variation, by id or slug',
      description: 'Any published product, whatever its catalog visibility, and the published variations of published ' +
        'products. Drafts and private products answer 404.',
      params: ProductParams,
      security: PUBLIC_SECURITY,
      response: ProductResponses
    }
  }, async (request) => {
    if (request.validationError) throw invalidParams(request.validationError)
    const product = await findProduct(request.params.id)
    if (product === null) throw new RestError('woocommerce_rest_product_invalid_id', 'Invalid product ID.', 404)
    const relatives = await relativesOf([product])
    return serializeProduct(product, shop.serializeContext, relatives(product))
  })

  /** A published product or variation (of a published parent) by id or slug, else null. */
  async function findProduct (idOrSlug: string): Promise<Product | null> {
    if (/^[0-9]+$/.test(idOrSlug)) {
      const id = Number(idOrSlug)
      if (id < 1 || id > MAX_ID) return null
      const product = await shop.storage.getProduct(id)
      if (product === null || product.status !== 'publish') return null
      if (product.type !== 'variation') return product
      const parent = await shop.storage.getProduct(product.parentId)
      return parent !== null && parent.status === 'publish' && parent.type === 'variable' ? product : null
    }
    const { products } = await shop.storage.listProducts({
      slugs: [idOrSlug], types: ALL_TYPES, statuses: ['publish'], parentStatuses: ['publish'], perPage: 1
    })
    return products[0] ?? null
  }

  const productArgs = routeOptionsArgs(ProductsQuery)
  app.options('/products', { schema: { tags: ['store-api'], operationId: 'productsRouteOptions', summary: 'The route described: namespace, methods, arguments, item schema', security: PUBLIC_SECURITY, response: RouteOptionsResponses } },
    async () => routeOptions('/products', productArgs, ProductSchema, 'product'))
  app.options('/products/:id', { schema: { tags: ['store-api'], operationId: 'productRouteOptions', summary: 'The route described: namespace, methods, arguments, item schema', security: PUBLIC_SECURITY, response: RouteOptionsResponses } },
    async () => routeOptions('/products/(?P<id>[\\S]+)', routeOptionsArgs(ProductParams), ProductSchema, 'product'))
}

function routeOptionsArgs (schema: TSchema & { properties?: Record<string, unknown> }): Record<string, unknown> {
  return schema.properties ?? {}
}
