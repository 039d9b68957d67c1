import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { effectivePrice } from '../../../kernel/domain/catalog.ts'
import { describeConditionTypes } from '../../domain/conditions/index.ts'
import { adminErrors, ConditionTypeSchema, ProductSearchQuery, ProductSearchResultSchema } from '../../schemas/svc-pro.ts'
import { currencyBlock } from '../../../kernel/domain/money.ts'

const tags = ['svc']

/** The admin screens' pickers: product search and the condition types. */
export const proAdminRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/products/search', {
    config: { svc: { edition: 'pro', access: 'admin' } },
    schema: {
      tags,
      operationId: 'svcSearchProducts',
      summary: 'Find products for the admin pickers',
      description: 'Every status, type and visibility, matched on name or SKU.',
      querystring: ProductSearchQuery,
      response: { 200: Type.Array(ProductSearchResultSchema), ...adminErrors }
    }
  }, async (request) => {
    // Money in svc/v1 bodies: strings of minor units with the currency block (design §3.7).
    const currency = currencyBlock(fastify.commerce.currency)
    const { products } = await fastify.commerce.listProducts({
      search: request.query.q?.trim() || undefined,
      types: ['simple', 'variable', 'variation'],
      perPage: request.query.limit
    })
    return products.map((product) => ({
      id: product.id,
      parent_id: product.parentId,
      name: product.name,
      sku: product.sku,
      type: product.type,
      status: product.status,
      catalog_visibility: product.catalogVisibility,
      stock_status: product.stockStatus,
      stock_quantity: product.manageStock ? product.stockQuantity : null,
      price: effectivePrice(product)?.toString() ?? null,
      currency
    }))
  })

  const types = describeConditionTypes()
  app.get('/conditions/types', {
    config: { svc: { edition: 'pro', access: 'admin' } },
    schema: { tags, operationId: 'svcListConditionTypes', summary: 'The condition types, their operators and value schemas', response: { 200: Type.Array(ConditionTypeSchema), ...adminErrors } }
  }, async () => types)
}
