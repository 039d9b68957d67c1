/**
 * Recommendations are picked once per catalog version, settings version, plan and cart lines (`RecommendationCache`):
 * the same pick again reads no products, a catalog or settings change or another cart reads again, and a pick that
 * read the best sellers (counted from orders, which no version covers) is never kept.
 */
import { test } from 'tap'
import type { FastifyInstance } from 'fastify'
import type { CartState } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { RecommendationCache } from '../../../../drawer/plugins/svc-free/recommendation-cache.ts'
import { recommendationsFor } from '../../../../drawer/plugins/svc-free/recommendations.ts'
import type { CartLine, PricedLine, Product } from '../../../../kernel/domain/types.ts'
import { makeProduct } from '../../../kernel/domain/fixtures.ts'

const USD = { code: 'USD', symbol: '$', minorUnit: 2, decimalSeparator: '.', thousandSeparator: ',', prefix: '$', suffix: '' }

function shopWith (catalog: Product[], source: string, fallbacks: string[] = []) {
  const calls = { getProducts: 0, listProducts: 0, bestSellers: 0 }
  const byId = new Map(catalog.map((product) => [product.id, product]))
  const fastify = {
    settings: { at: async () => ({ version: 1, settings: { recommendations: { enabled: true, source, manual_ids: [], limit: 4, fallbacks, rules: [] } } }) },
    commerce: {
      currency: USD,
      now: () => new Date('2026-11-24T12:00:00Z'),
      productUrl: (product: Product) => `https://shop.test/product/${product.slug}/`,
      getProducts: async (ids: readonly number[]) => {
        calls.getProducts++
        return new Map(ids.flatMap((id) => byId.has(id) ? [[id, byId.get(id)!] as const] : []))
      },
      listProducts: async () => {
        calls.listProducts++
        return { products: [], total: 0 }
      },
      bestSellers: async () => {
        calls.bestSellers++
        return [12]
      }
    }
  }
  return { fastify: fastify as unknown as FastifyInstance, calls }
}

function stateOf (lines: Array<[Product, number]>, versions: { catalogVersion?: number, settingsVersion?: number }): CartState {
  const cartLines: CartLine[] = lines.map(([product, quantity]) => ({ key: String(product.id).padStart(32, '0'), productId: product.id, variationId: 0, variation: {}, quantity }))
  const priced = lines.map(([product], index) => ({ line: cartLines[index]!, product, parent: product, lineTotal: 1000 }) as unknown as PricedLine)
  return {
    key: 'cart',
    stored: { key: 'cart', userId: null, data: { lines: cartLines, coupons: [] }, version: 1, updatedAt: '2026-11-24T12:00:00.000Z' },
    priced: { lines: priced, coupons: [] } as unknown as CartState['priced'],
    hash: 'h',
    crossSells: async () => [],
    ...versions
  }
}

const shirt = makeProduct({ id: 10, slug: 'shirt', crossSellIds: [11, 12] })
const socks = makeProduct({ id: 11, slug: 'socks' })
const belt = makeProduct({ id: 12, slug: 'belt' })

test('the same pick at the same versions reads no product again', async (t) => {
  const { fastify, calls } = shopWith([shirt, socks, belt], 'cross_sells')
  const first = await recommendationsFor(fastify, stateOf([[shirt, 1]], { catalogVersion: 3, settingsVersion: 1 }))
  t.strictSame(first.products.map((product) => product.id), [11, 12])
  const again = await recommendationsFor(fastify, stateOf([[shirt, 2]], { catalogVersion: 3, settingsVersion: 1 }))
  t.strictSame(again, first, 'the same answer, also for another quantity')
  t.equal(calls.getProducts, 1, 'one product read')
  await recommendationsFor(fastify, stateOf([[shirt, 1]], { catalogVersion: 4, settingsVersion: 1 }))
  t.equal(calls.getProducts, 2, 'the catalog moved: read again')
  await recommendationsFor(fastify, stateOf([[shirt, 1]], { catalogVersion: 4, settingsVersion: 2 }))
  t.equal(calls.getProducts, 3, 'the settings moved: read again')
  await recommendationsFor(fastify, stateOf([[shirt, 1], [socks, 1]], { catalogVersion: 4, settingsVersion: 2 }))
  t.equal(calls.getProducts, 4, 'other lines: read again')
  await recommendationsFor(fastify, stateOf([[shirt, 1]], {}))
  await recommendationsFor(fastify, stateOf([[shirt, 1]], {}))
  t.equal(calls.getProducts, 6, 'a read without versions is never kept')
})

test('a pick that read the best sellers is not kept', async (t) => {
  const { fastify, calls } = shopWith([shirt, socks, belt], 'manual', ['best_sellers'])
  const state = stateOf([[shirt, 1]], { catalogVersion: 3, settingsVersion: 1 })
  t.strictSame((await recommendationsFor(fastify, state)).products.map((product) => product.id), [12])
  await recommendationsFor(fastify, state)
  t.equal(calls.bestSellers, 2, 'the best sellers are asked each time')
})

test('RecommendationCache: shared misses, failures forgotten, oldest out', async (t) => {
  const cache = new RecommendationCache<number>(2)
  let computed = 0
  const compute = async () => ++computed
  t.strictSame(await Promise.all([cache.get('a', compute), cache.get('a', compute)]), [1, 1], 'concurrent misses share one computation')
  await t.rejects(cache.get('b', async () => { throw new Error('down') }))
  t.equal(await cache.get('b', compute), 2, 'a failure is not kept')
  await cache.get('c', compute)
  t.equal(cache.size, 2)
  t.equal(await cache.get('a', compute), 4, 'the oldest went first')
})
