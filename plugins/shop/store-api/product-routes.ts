import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { isViewable } from '../../../domain/catalog.ts'
import { RestError } from '../../../errors/index.ts'
import { ProductListResponses, ProductParams, ProductResponses, ProductsQuery } from '../../../schemas/store-api.ts'
import { PUBLIC_SECURITY } from '../../openapi/index.ts'
import { serializeProduct } from './serialize-product.ts'

/** `{restRoot}wc/store/v1/products`: published products that the catalog shows. */
export const productRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify

  app.get('/products', {
    schema: {
      tags: ['store-api'],
      operationId: 'listProducts',
      summary: 'Published, visible products',
      description: 'One page of products; the `X-WP-Total` and `X-WP-TotalPages` headers give the totals.',
      querystring: ProductsQuery,
      security: PUBLIC_SECURITY,
      response: ProductListResponses
    }
  }, async (request, reply) => {
    const { page, per_page: perPage, search, category } = request.query
    const { products, total } = await shop.storage.listProducts({
      statuses: ['publish'],
      visibilities: search ? ['visible', 'search'] : ['visible', 'catalog'],
      search,
      categoryId: category,
      page,
      perPage
    })
    reply.header('X-WP-Total', String(total))
    reply.header('X-WP-TotalPages', String(Math.ceil(total / perPage)))
    return products.map((product) => serializeProduct(product, shop.serializeContext))
  })

  app.get('/products/:id', {
    schema: { tags: ['store-api'], operationId: 'getProduct', summary: 'One product', params: ProductParams, security: PUBLIC_SECURITY, response: ProductResponses }
  }, async (request) => {
    const product = await shop.storage.getProduct(request.params.id)
    if (product === null || product.type === 'variation' || !isViewable(product)) {
      throw new RestError('woocommerce_rest_product_invalid_id', 'Invalid product ID.', 404)
    }
    return serializeProduct(product, shop.serializeContext)
  })
}
