import type { FastifyInstance } from 'fastify'
import type { AppOptions, FilterCallback, FilterName } from '../../../../app.ts'
import { cartItemKey } from '../../../../kernel/domain/cart.ts'
import type { Product } from '../../../../kernel/domain/types.ts'
import type { Storage } from '../../../../storage/contract/index.ts'
import { buildTestApp } from '../../../helpers/app.ts'

export type Json = Record<string, any>

/** A log line as pino writes it. */
export interface LogLine {
  level: number
  msg: string
  filter?: string
  part?: string
  times?: number
  [key: string]: unknown
}

/** The whole app with its log lines (warn and above) collected. */
export async function buildLoggedApp (t: { teardown (fn: () => unknown): void }, storage: Storage, options: Partial<AppOptions> = {}) {
  const logs: LogLine[] = []
  const app = await buildTestApp(t, storage, {
    logger: { level: 'warn', stream: { write: (line: string) => { logs.push(JSON.parse(line) as LogLine) } } },
    ...options
  })
  return { app, logs }
}

/** Adds a filter for the rest of the (sub)test. */
export function withFilter<N extends FilterName> (t: { teardown (fn: () => unknown): void }, app: FastifyInstance, name: N, callback: FilterCallback<N>, priority?: number) {
  const remove = app.shop.filters.add(name, callback, priority)
  t.teardown(remove)
}

/** A copy of a stored demo product with other values. */
export async function productLike (storage: Storage, id: number, overrides: Partial<Product>): Promise<Product> {
  const base = await storage.getProduct(id)
  if (base === null) throw new Error(`no product ${id}`)
  return { ...base, ...overrides }
}

/**
 * A cart of `count` lines of new simple products (ids from `firstId`), written straight to storage (the platform's
 * add-item would need `count` requests). Returns the cart key.
 */
export async function bigCart (storage: Storage, count: number, firstId = 50000): Promise<string> {
  const template = await productLike(storage, 103, {})
  const products = Array.from({ length: count }, (_, index): Product => ({
    ...template,
    id: firstId + index,
    name: `Bulk item ${index + 1}`,
    slug: `bulk-item-${index + 1}`,
    sku: `BULK-${index + 1}`,
    crossSellIds: []
  }))
  await storage.upsertProducts(products)
  const key = `t_${'b'.repeat(24)}${String(firstId).padStart(6, '0')}`
  const lines = products.map((product) => ({ key: cartItemKey(product.id, 0, {}), productId: product.id, variationId: 0, variation: {}, quantity: 1 }))
  await storage.updateCart(key, () => ({ data: { lines, coupons: [] }, result: null }))
  return key
}
