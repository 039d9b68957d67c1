/**
 * A priced line's quantity limits and backorder notice count the units the cart's other lines hold of the same stock
 * item (`alreadyInCart`); totals.ts sums them per stock item once. Checked against the definition (every other
 * line of the same stock item, by line key) on random carts where lines share stock: a product added with different
 * attributes, the same variation twice, lines of one key.
 */
import fc from 'fast-check'
import { test } from 'tap'
import { lineStockId } from '../../../kernel/domain/cart.ts'
import { backorderNotice } from '../../../kernel/domain/catalog.ts'
import { quantityLimits } from '../../../kernel/domain/quantity.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { CartLine, Product } from '../../../kernel/domain/types.ts'
import { makeConfig, makeProduct, makeVariableParent, makeVariation, NOW } from './fixtures.ts'

const stocked = { manageStock: true, stockQuantity: 5, backorders: 'notify' as const }
const products = new Map<number, Product>([
  [1, makeProduct({ id: 1, regularPrice: 100, ...stocked })],
  [2, makeProduct({ id: 2, regularPrice: 100, maxQuantity: 8 } as Partial<Product>)],
  [10, makeVariableParent({ id: 10 })],
  [11, makeVariation({ id: 11, parentId: 10, regularPrice: 200, ...stocked })]
])

const lineArbitrary = fc.record({
  which: fc.constantFrom<[number, number]>([1, 0], [2, 0], [10, 11]),
  quantity: fc.integer({ min: 1, max: 9 }),
  key: fc.constantFrom('a', 'b', 'c', 'd')
}).map(({ which: [productId, variationId], quantity, key }): CartLine =>
  ({ key: key.repeat(32), productId, variationId, variation: {}, quantity }))

test('alreadyInCart: the units of the other lines of the same stock item', async (t) => {
  fc.assert(fc.property(fc.array(lineArbitrary, { maxLength: 12 }), (lines) => {
    const priced = priceCart({ lines, coupons: [] }, products, new Map(), makeConfig(), NOW)
    for (const { line, product, quantityLimits: limits, backorderNotice: notice } of priced.lines) {
      const alreadyInCart = lines
        .filter((other) => other.key !== line.key && lineStockId(other) === lineStockId(line))
        .reduce((units, other) => units + other.quantity, 0)
      if (JSON.stringify(limits) !== JSON.stringify(quantityLimits(product, { alreadyInCart }))) return false
      if (notice !== backorderNotice(product, alreadyInCart + line.quantity)) return false
    }
    return true
  }), { numRuns: 300 })
  t.pass('held for every generated cart')
})
