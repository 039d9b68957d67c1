import { test } from 'tap'
import { isRecommendationAddable, pickRecommendations, recommendationCandidates, type RecommendationSettings } from '../../domain/recommendations.ts'
import type { CartData, Product } from '../../domain/types.ts'
import { makeProduct } from './fixtures.ts'

const settings = (overrides: Partial<RecommendationSettings> = {}): RecommendationSettings =>
  ({ enabled: true, source: 'cross_sells', manual_ids: [], limit: 4, ...overrides })

const cart = (...productIds: number[]): CartData =>
  ({ lines: productIds.map((id) => ({ key: String(id).padStart(32, '0'), productId: id, variationId: 0, variation: {}, quantity: 1 })), coupons: [] })

const byId = (...products: Product[]) => new Map(products.map((product) => [product.id, product]))

test('only a published, visible, purchasable, in-stock simple product is addable', async (t) => {
  t.equal(isRecommendationAddable(makeProduct()), true)
  t.equal(isRecommendationAddable(makeProduct({ catalogVisibility: 'catalog' })), true, 'listed in the catalog')
  const refused: Array<[string, Partial<Product>]> = [
    ['variable', { type: 'variable', regularPrice: null }],
    ['variation', { type: 'variation', parentId: 1 }],
    ['draft', { status: 'draft' }],
    ['private', { status: 'private' }],
    ['hidden', { catalogVisibility: 'hidden' }],
    ['search only', { catalogVisibility: 'search' }],
    ['no price', { regularPrice: null }],
    ['out of stock', { stockStatus: 'outofstock' }],
    ['managed stock at zero', { manageStock: true, stockQuantity: 0, stockStatus: 'outofstock' }]
  ]
  for (const [name, overrides] of refused) t.equal(isRecommendationAddable(makeProduct(overrides)), false, name)
})

test('candidates follow the source, without duplicates', async (t) => {
  const parents = byId(makeProduct({ id: 1, crossSellIds: [5, 6], upsellIds: [7] }), makeProduct({ id: 2, crossSellIds: [6, 8], upsellIds: [9, 7] }))
  t.same(recommendationCandidates(cart(1, 2), parents, settings()), [5, 6, 8])
  t.same(recommendationCandidates(cart(1, 2), parents, settings({ source: 'upsells' })), [7, 9])
  t.same(recommendationCandidates(cart(1, 2), parents, settings({ source: 'manual', manual_ids: [3, 3, 4] })), [3, 4])
  t.same(recommendationCandidates(cart(1), parents, settings({ enabled: false })), [])
  t.same(recommendationCandidates(cart(99), parents, settings()), [], 'a line whose product vanished adds nothing')
})

test('picks skip products in the cart and products that cannot be added, up to the limit', async (t) => {
  const products = byId(
    makeProduct({ id: 5 }), makeProduct({ id: 6, stockStatus: 'outofstock' }), makeProduct({ id: 7 }),
    makeProduct({ id: 8 }), makeProduct({ id: 9, catalogVisibility: 'hidden' }), makeProduct({ id: 1 })
  )
  t.same(pickRecommendations(cart(1), [1, 5, 6, 7, 8, 9, 404], products, settings()).map((product) => product.id), [5, 7, 8])
  t.same(pickRecommendations(cart(1), [5, 7, 8], products, settings({ limit: 2 })).map((product) => product.id), [5, 7])
  t.same(pickRecommendations(cart(5, 7), [5, 7, 8], products, settings()).map((product) => product.id), [8])
})

test('an add-on product may be hidden from the catalog, but must be a published, purchasable, in-stock simple product', async (t) => {
  const { isAddonAddable } = await import('../../domain/recommendations.ts')
  t.equal(isAddonAddable(makeProduct({ catalogVisibility: 'hidden' })), true)
  t.equal(isAddonAddable(makeProduct({ status: 'draft' })), false)
  t.equal(isAddonAddable(makeProduct({ stockStatus: 'outofstock' })), false)
  t.equal(isAddonAddable(makeProduct({ regularPrice: null })), false)
  t.equal(isAddonAddable(makeProduct({ type: 'variable', regularPrice: null })), false)
})
