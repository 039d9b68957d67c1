import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { isListedInCatalog } from '../../../kernel/domain/catalog.ts'
import type { Product, ProductCategory } from '../../../kernel/domain/types.ts'
import { RestError } from '../../../kernel/errors/index.ts'
import {
  ProductCategoriesQuery, ProductCategoryListResponses, ProductCategoryParams, ProductCategoryResponses, RouteOptionsResponses
} from '../schemas/store-api.ts'
import { ProductCategoryItemSchema } from '../schemas/store-api-product.ts'
import { PUBLIC_SECURITY } from '../../../drawer/index.ts'
import { invalidParams, routeOptions } from './route-support.ts'

interface CategoryCount {
  category: ProductCategory
  count: number
}

/**
 * The catalog's categories, gathered from its published products (a category only drafts or private products use is
 * not shown). `count` counts the products listed in the catalog (published, visibility `visible` or `catalog`).
 */
async function catalogCategories (list: (page: number) => Promise<{ products: Product[], total: number }>): Promise<CategoryCount[]> {
  const found = new Map<number, CategoryCount>()
  for (let page = 1; ; page++) {
    const { products, total } = await list(page)
    for (const product of products) {
      for (const category of product.categories) {
        const entry = found.get(category.id) ?? { category, count: 0 }
        if (isListedInCatalog(product)) entry.count++
        found.set(category.id, entry)
      }
    }
    if (products.length === 0 || page * 100 >= total) break
  }
  return [...found.values()]
}

/** `{restRoot}wc/store/v1/products/categories…`: WooCommerce's ProductCategories and ProductCategoriesById. */
export const productCategoryRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  const categories = () => catalogCategories((page) => shop.storage.listProducts({ statuses: ['publish'], page, perPage: 100 }))
  const serialize = ({ category, count }: CategoryCount) => ({
    id: category.id,
    name: category.name,
    slug: category.slug,
    description: '',
    parent: 0,
    count,
    image: null,
    review_count: 0,
    permalink: `${shop.homeUrl}/product-category/${encodeURIComponent(category.slug)}/`
  })

  app.get('/products/categories', {
    attachValidation: true,
    schema: {
      tags: ['store-api'],
      operationId: 'listProductCategories',
      summary: 'Product categories',
      description: 'The categories of the published products, by name; `hide_empty` (default true) leaves out those ' +
        'without a product listed in the catalog.',
      querystring: ProductCategoriesQuery,
      security: PUBLIC_SECURITY,
      response: ProductCategoryListResponses
    }
  }, async (request, reply) => {
    if (request.validationError) throw invalidParams(request.validationError)
    const { hide_empty: hideEmpty, orderby = 'name', order = 'asc' } = request.query
    const hide = hideEmpty === undefined || hideEmpty === true || hideEmpty === '1' || hideEmpty === 'yes' || hideEmpty === 'true'
    const sign = order === 'desc' ? -1 : 1
    const key = (entry: CategoryCount): string | number => orderby === 'id'
      ? entry.category.id
      : orderby === 'count'
        ? entry.count
        : orderby === 'slug' ? entry.category.slug : entry.category.name.toLowerCase()
    const list = (await categories())
      .filter((entry) => !hide || entry.count > 0)
      .sort((a, b) => {
        const ka = key(a)
        const kb = key(b)
        return sign * (ka < kb ? -1 : ka > kb ? 1 : a.category.id - b.category.id)
      })
    reply.header('X-WP-Total', String(list.length))
    reply.header('X-WP-TotalPages', list.length > 0 ? '1' : '0')
    return list.map(serialize)
  })

  app.get('/products/categories/:id', {
    attachValidation: true,
    schema: {
      tags: ['store-api'],
      operationId: 'getProductCategory',
      summary: 'One product category',
      params: ProductCategoryParams,
      security: PUBLIC_SECURITY,
      response: ProductCategoryResponses
    }
  }, async (request) => {
    if (request.validationError) {
      if (/^[0-9]+$/.test(String((request.params as { id?: unknown }).id))) {
        throw new RestError('woocommerce_rest_category_invalid_id', 'Invalid category ID.', 404)
      }
      throw invalidParams(request.validationError)
    }
    const found = (await categories()).find((entry) => entry.category.id === request.params.id)
    if (found === undefined) throw new RestError('woocommerce_rest_category_invalid_id', 'Invalid category ID.', 404)
    return serialize(found)
  })

  app.options('/products/categories', { schema: { tags: ['store-api'], operationId: 'productCategoriesRouteOptions', summary: 'The route described: namespace, methods, arguments, item schema', security: PUBLIC_SECURITY, response: RouteOptionsResponses } },
    async () => routeOptions('/products/categories', ProductCategoriesQuery.properties, ProductCategoryItemSchema, 'product-category'))
  app.options('/products/categories/:id', { schema: { tags: ['store-api'], operationId: 'productCategoryRouteOptions', summary: 'The route described: namespace, methods, arguments, item schema', security: PUBLIC_SECURITY, response: RouteOptionsResponses } },
    async () => routeOptions('/products/categories/(?P<id>[\\d]+)', ProductCategoryParams.properties, ProductCategoryItemSchema, 'product-category'))
}
