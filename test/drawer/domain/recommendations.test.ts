import { test } from 'tap'
import { isRecommendationAddable, pickRecommendations, recommendationCandidates, type RecommendationSettings } from '../../../drawer/domain/recommendations.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import { makeProduct } from '../../kernel/domain/fixtures.ts'

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
  const { isAddonAddable } = await import('../../../drawer/domain/recommendations.ts')
  t.equal(isAddonAddable(makeProduct({ catalogVisibility: 'hidden' })), true)
  t.equal(isAddonAddable(makeProduct({ status: 'draft' })), false)
  t.equal(isAddonAddable(makeProduct({ stockStatus: 'outofstock' })), false)
  t.equal(isAddonAddable(makeProduct({ regularPrice: null })), false)
  t.equal(isAddonAddable(makeProduct({ type: 'variable', regularPrice: null })), false)
})

test('recommendationQuantity: what recommendations/add adds, or null when it refuses', async (t) => {
  const { recommendationQuantity } = await import('../../../drawer/domain/recommendations.ts')
  const packs = makeProduct({ id: 5, quantityRules: { minimum: 2, maximum: 10, multipleOf: 2 } })
  t.equal(recommendationQuantity(makeProduct({ id: 5 }), cart()), 1, 'no rule: 1')
  t.equal(recommendationQuantity(packs, cart()), 2, 'sold in 2–10 in steps of 2: 2')
  t.equal(recommendationQuantity(makeProduct({ id: 5, quantityRules: { minimum: 3, multipleOf: 2 } }), cart()), 4, 'minimum 3 in steps of 2: 4')
  t.equal(recommendationQuantity(packs, { lines: [{ key: 'k'.repeat(32), productId: 5, variationId: 0, variation: {}, quantity: 8 }], coupons: [] }), 2, 'in the cart: one step more')
  t.equal(recommendationQuantity(packs, { lines: [{ key: 'k'.repeat(32), productId: 5, variationId: 0, variation: {}, quantity: 10 }], coupons: [] }), null, 'at its maximum')
  t.equal(recommendationQuantity(makeProduct({ id: 5, soldIndividually: true }), cart()), 1)
  t.equal(recommendationQuantity(makeProduct({ id: 5, soldIndividually: true }), cart(5)), null, 'sold individually, in the cart')
  t.equal(recommendationQuantity(makeProduct({ id: 5, manageStock: true, stockQuantity: 1, quantityRules: { minimum: 2 } }), cart()), null, 'its least quantity is more than its stock')
  t.equal(recommendationQuantity(makeProduct({ id: 5, quantityRules: { minimum: 4, maximum: 3 } }), cart()), null, 'rules that allow no quantity')
  t.equal(recommendationQuantity(makeProduct({ id: 5, catalogVisibility: 'hidden' }), cart()), null, 'not visible to the shopper')
})

test('recommendationPlan: the first rule that holds, else the source, then each fallback once', async (t) => {
  const { recommendationPlan } = await import('../../../drawer/domain/recommendations.ts')
  const context = { subtotal: 5000, itemCount: 3, productIds: new Set([1]), categoryIds: new Set([9]), loggedIn: false, capabilities: [], now: new Date() }
  const threeItems = { match: 'all' as const, conditions: [{ type: 'cart_item_count', operator: 'gte', value: 3 }] }
  const loggedIn = { match: 'all' as const, conditions: [{ type: 'logged_in', operator: 'is', value: true }] }
  const base = settings({ fallbacks: ['same_category', 'cross_sells', 'best_sellers', 'same_category'], manual_ids: [7] })
  t.same(recommendationPlan(base, context).map((step) => step.source), ['cross_sells', 'same_category', 'best_sellers'], 'no rules; each source once')
  const ruled = { ...base, rules: [{ conditions: loggedIn, source: 'upsells' as const, product_ids: [] }, { conditions: threeItems, source: 'manual' as const, product_ids: [4, 5] }] }
  t.same(recommendationPlan(ruled, context)[0], { source: 'manual', productIds: [4, 5] }, 'the second rule holds: its own products')
  t.same(recommendationPlan(ruled, { ...context, itemCount: 1 })[0], { source: 'cross_sells', productIds: [7] }, 'none holds: the source')
  t.same(recommendationPlan(ruled, null)[0]?.source, 'cross_sells', 'no context: no rule')
  t.same(recommendationPlan({ ...ruled, enabled: false }, context), [], 'disabled')
})
