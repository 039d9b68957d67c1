import fc from 'fast-check'
import { expectError } from '../../../helpers/security.ts'
import type { NewOrder } from '../../../../kernel/domain/types.ts'
import { adminRequest, BLUE_LARGE, currentSettings, errorData, onEveryBackend, Shopper, withSettings, type Json } from './helpers.ts'

/**
 * Recommendations list only what `POST recommendations/add` accepts, add the least quantity the
 * product's rules allow, take rules (conditions) and fall back from cross-sells to the cart's categories to the best
 * sellers of placed orders, at most `limit`; on the demo catalog (seed/demo-catalog.ts).
 */

const ids = (body: Json): number[] => body.products.map((product: Json) => product.id)
const quantityOf = (state: Json, productId: number): number | undefined =>
  state.cartItems.find((item: Json) => item.product_id === productId)?.quantity

/** Every demo product and variation a random cart or a manual list may name. */
const DEMO_IDS = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120]

const placedOrder = (lines: Array<[number, number]>): NewOrder => {
  const address = { firstName: 'A', lastName: 'B', company: '', address1: '1 St', address2: '', city: 'C', state: '', postcode: '1', country: 'US', phone: '' }
  return {
    key: `wc_order_${Math.random().toString(36).slice(2, 15)}`,
    status: 'processing',
    customerId: null,
    billing: { ...address, email: 'a@example.com' },
    shipping: address,
    customerNote: '',
    paymentMethod: 'cod',
    paymentMethodTitle: 'Cash on delivery',
    lines: lines.map(([productId, quantity]) => ({ key: String(productId).padStart(32, '0'), productId, variationId: 0, name: '', sku: '', variation: {}, quantity, unitPrice: 100, subtotal: 100 * quantity, subtotalTax: 0, total: 100 * quantity, totalTax: 0 })),
    coupons: [],
    fees: [],
    shippingLines: [],
    totals: { totalItems: 0, totalItemsTax: 0, totalFees: 0, totalFeesTax: 0, totalDiscount: 0, totalDiscountTax: 0, totalShipping: 0, totalShippingTax: 0, totalPrice: 0, totalTax: 0, taxLines: [] },
    currency: 'USD',
    createdAt: '2026-11-24T12:00:00.000Z'
  }
}

onEveryBackend('recommendations: rules, fallbacks, the maximum and what recommendations/add accepts', async (t, free) => {
  const { app, storage } = free

  t.test('a product sold in 2–10 in steps of 2 is listed and added as 2, then one step more', async (t) => {
    await withSettings(t, free, { recommendations: { source: 'manual', manual_ids: [113, 112], limit: 12 } })
    const shopper = await Shopper.guest(app)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [113, 112], 'the Single and the Album are listed')
    const added = await shopper.svc('POST', 'recommendations/add', { product_id: 113 })
    t.equal(added.statusCode, 200, 'accepted, not refused for quantity 1', { body: added.body })
    t.equal(quantityOf(added.json(), 113), 2, 'the least quantity the rules allow')
    const again = await shopper.svc('POST', 'recommendations/add', { product_id: 113 })
    t.equal(quantityOf(again.json(), 113), 4, 'one step more: still a multiple of 2')
  })

  t.test('a product sold individually: added once, then neither listed nor accepted', async (t) => {
    await withSettings(t, free, { recommendations: { source: 'manual', manual_ids: [112], limit: 12 } })
    const shopper = await Shopper.guest(app)
    const added = await shopper.svc('POST', 'recommendations/add', { product_id: 112 })
    t.equal(quantityOf(added.json(), 112), 1)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [])
    expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: 112 }), 400, 'svc_product_not_addable', 'already at its limit')
    t.equal(quantityOf(await shopper.drawerCart(), 112), 1, 'unchanged')
  })

  t.test('a product whose least quantity is more than its stock is neither listed nor accepted', async (t) => {
    const single = (await storage.getProduct(113))!
    await storage.upsertProducts([{ ...single, id: 9113, slug: 'single-low', manageStock: true, stockQuantity: 1 }])
    t.teardown(async () => { await storage.upsertProducts([{ ...single, id: 9113, slug: 'single-low', status: 'draft' }]) })
    await withSettings(t, free, { recommendations: { source: 'manual', manual_ids: [9113, 107], limit: 12 } })
    const shopper = await Shopper.guest(app)
    t.same(ids((await shopper.svc('GET', 'recommendations')).json()), [107], 'one left, sold from 2')
    expectError(t, await shopper.svc('POST', 'recommendations/add', { product_id: 9113 }), 400, 'svc_product_not_addable')
  })

  t.test('the fallback chain: cross-sells, then the cart\'s categories, then best sellers; at most the limit', async (t) => {
    await withSettings(t, free, { recommendations: { source: 'cross_sells', fallbacks: ['same_category', 'best_sellers'], limit: 4 } })
    const hoodie = await Shopper.guest(app)
    await hoodie.add(106, 1, BLUE_LARGE) // no cross-sells; Clothing
    const clothing = (await hoodie.svc('GET', 'recommendations')).json()
    t.equal(clothing.source, 'cross_sells', 'the first source asked')
    t.same(ids(clothing), [105, 107, 108, 110], 'Clothing, in id order: not the Hoodie, not the sold-out Polo; four at most')

    const beanie = await Shopper.guest(app)
    await beanie.add(101) // cross-sells 102, 103; Accessories
    t.same(ids((await beanie.svc('GET', 'recommendations')).json()), [102, 103, 104, 117], 'cross-sells first, then Accessories (not hidden, not priceless)')

    // An empty cart has no cross-sells and no categories: the best sellers of placed orders.
    const empty = await Shopper.guest(app)
    t.same(ids((await empty.svc('GET', 'recommendations')).json()), [], 'no orders yet')
    await storage.createOrder(placedOrder([[104, 5], [109, 9], [114, 8]]), { stock: [], coupons: [] })
    await storage.createOrder(placedOrder([[120, 3], [101, 1]]), { stock: [], coupons: [] })
    await storage.createOrder({ ...placedOrder([[102, 50]]), status: 'cancelled' }, { stock: [], coupons: [] })
    t.same(ids((await empty.svc('GET', 'recommendations')).json()), [104, 120, 101],
      'most units first; the sold-out Polo, the draft Poster and a cancelled order\'s Belt left out')

    await withSettings(t, free, { recommendations: { limit: 2 } })
    t.same(ids((await beanie.svc('GET', 'recommendations')).json()), [102, 103], 'limit 2')
    t.same(ids((await empty.svc('GET', 'recommendations')).json()), [104, 120], 'limit 2')
  })

  t.test('rules: the first rule whose conditions hold chooses the first source', async (t) => {
    await withSettings(t, free, {
      recommendations: {
        source: 'cross_sells',
        rules: [
          { conditions: { match: 'all', conditions: [{ type: 'cart_item_count', operator: 'gte', value: 3 }] }, source: 'manual', product_ids: [117, 120] },
          { conditions: { match: 'all', conditions: [{ type: 'logged_in', operator: 'is', value: true }] }, source: 'upsells', product_ids: [] }
        ]
      }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const one = (await shopper.svc('GET', 'recommendations')).json()
    t.same([one.source, ids(one)], ['cross_sells', [102, 103]], 'one item, a guest: no rule holds')
    await shopper.add(101, 2)
    const three = (await shopper.svc('GET', 'recommendations')).json()
    t.same([three.source, ids(three)], ['manual', [117, 120]], 'three items: the first rule')
  })

  t.test('bad recommendation settings are refused with every problem listed, nothing saved', async (t) => {
    const before = await currentSettings(free)
    const response = await adminRequest(free, 'POST', 'settings', {
      settings: {
        recommendations: {
          limit: 0,
          source: 'popular',
          fallbacks: ['same_category', 'same_category'],
          rules: [{ conditions: { match: 'all', conditions: [{ type: 'cart_item_count', operator: 'about', value: -1 }] }, source: 'manual', product_ids: [] }]
        }
      }
    })
    expectError(t, response, 400, 'svc_invalid_params')
    const params = Object.keys(errorData(response).params)
    for (const path of ['recommendations.limit', 'recommendations.source', 'recommendations.fallbacks', 'recommendations.rules.0.conditions.conditions.0.operator', 'recommendations.rules.0.conditions.conditions.0.value']) {
      t.ok(params.includes(path), `${path} is listed`, { params })
    }
    t.same(await currentSettings(free), before, 'nothing saved')
  })

  t.test('property: every product GET recommendations lists is accepted by recommendations/add for that cart', async (t) => {
    await withSettings(t, free, { recommendations: { source: 'manual', manual_ids: DEMO_IDS, fallbacks: ['cross_sells', 'same_category', 'best_sellers'], limit: 12 } })
    const line = fc.record({ id: fc.constantFrom(...DEMO_IDS, 1061, 1062, 1063), quantity: fc.integer({ min: 1, max: 4 }) })
    let checked = 0
    await fc.assert(fc.asyncProperty(fc.array(line, { maxLength: 4 }), async (lines) => {
      const build = async () => {
        const shopper = await Shopper.guest(app)
        for (const { id, quantity } of lines) {
          // Lines the platform refuses (a draft, too many…) are simply not in the cart.
          await shopper.storeRequest('POST', 'cart/add-item', { id, quantity, ...(id === 1063 ? { variation: [{ attribute: 'pa_size', value: 'small' }] } : {}) })
        }
        return shopper
      }
      const shopper = await build()
      const listed = ids((await shopper.svc('GET', 'recommendations')).json())
      const before = (await shopper.drawerCart()).cartItems
      for (const id of listed) {
        // Each listed product against the cart as it was listed: a copy of the cart for every add.
        const copy = id === listed[0] ? shopper : await build()
        const added = await copy.svc('POST', 'recommendations/add', { product_id: id })
        if (added.statusCode !== 200) throw new Error(`cart ${JSON.stringify(before.map((item: Json) => [item.id, item.quantity]))}: product ${id} listed but refused: ${added.body}`)
        checked++
      }
    }), { numRuns: 12, seed: 19 })
    t.ok(checked > 0, `${checked} listed products added`)
  })
})
