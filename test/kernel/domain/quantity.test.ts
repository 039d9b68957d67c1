import { test } from 'tap'
import { DEFAULT_MAXIMUM_QUANTITY, quantityLimits, validateQuantity } from '../../../kernel/domain/quantity.ts'
import { makeProduct } from './fixtures.ts'

test('quantityLimits defaults', async (t) => {
  t.equal(DEFAULT_MAXIMUM_QUANTITY, 9999)
  t.same(quantityLimits(makeProduct()), { minimum: 1, maximum: 9999, multipleOf: 1, editable: true, unlimited: true })
  t.same(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 50000 })),
    { minimum: 1, maximum: 9999, multipleOf: 1, editable: true, unlimited: true }, 'stock above the ceiling does not cap')
})

test('quantityLimits: sold individually', async (t) => {
  t.same(quantityLimits(makeProduct({ soldIndividually: true })),
    { minimum: 1, maximum: 1, multipleOf: 1, editable: false, unlimited: false })
  t.same(quantityLimits(makeProduct({ soldIndividually: true, quantityRules: { minimum: 2, multipleOf: 2 } })),
    { minimum: 1, maximum: 1, multipleOf: 1, editable: false, unlimited: false }, 'rules do not apply')
})

test('quantityLimits: stock caps', async (t) => {
  t.same(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 5, backorders: 'no' })),
    { minimum: 1, maximum: 5, multipleOf: 1, editable: true, unlimited: false }, 'backorders refused: capped at stock')
  t.same(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 5, backorders: 'notify' })),
    { minimum: 1, maximum: 9999, multipleOf: 1, editable: true, unlimited: true }, 'backorders allowed: no cap')
  t.same(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 5, backorders: 'yes' })).maximum, 9999)
  t.equal(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 5 }), { alreadyInCart: 2 }).maximum, 3,
    '5 in stock, 2 held by another line: 3')
  t.equal(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 5 }), { alreadyInCart: 9 }).maximum, 0,
    'never below 0')
  t.equal(quantityLimits(makeProduct({ manageStock: false }), { alreadyInCart: 9 }).maximum, 9999, 'unmanaged ignores other lines')
})

test('quantityLimits: rules narrow and round to the multiple', async (t) => {
  t.same(quantityLimits(makeProduct({ quantityRules: { minimum: 3, maximum: 10, multipleOf: 4 } })),
    { minimum: 4, maximum: 8, multipleOf: 4, editable: true, unlimited: false }, 'min 3 → 4 (up), max 10 → 8 (down)')
  t.same(quantityLimits(makeProduct({ quantityRules: { multipleOf: 5 } })),
    { minimum: 5, maximum: 9995, multipleOf: 5, editable: true, unlimited: true }, 'multiple only: still unlimited')
  t.same(quantityLimits(makeProduct({ quantityRules: { minimum: 2, maximum: 6 } })),
    { minimum: 2, maximum: 6, multipleOf: 1, editable: true, unlimited: false })
  t.same(quantityLimits(makeProduct({ quantityRules: { maximum: 20000 } })).unlimited, true, 'a rule above the ceiling does not cap')
  t.same(quantityLimits(makeProduct({ manageStock: true, stockQuantity: 7, quantityRules: { multipleOf: 3, maximum: 12 } })),
    { minimum: 3, maximum: 6, multipleOf: 3, editable: true, unlimited: false }, 'stock 7 beats rule 12, rounded down to 6')
  t.same(quantityLimits(makeProduct({ quantityRules: { minimum: 0, maximum: -1, multipleOf: 1.5 } })),
    { minimum: 1, maximum: 9999, multipleOf: 1, editable: true, unlimited: true }, 'invalid rule values are ignored')
})

test('validateQuantity', async (t) => {
  const mug = makeProduct({ name: 'Mug' })
  const plain = quantityLimits(mug)
  t.equal(validateQuantity(mug, 3, plain), null, 'valid')
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    const error = validateQuantity(mug, bad, plain)
    t.equal(error?.reason, 'quantity_not_whole', `${bad} refused`)
    t.equal(error?.message, 'The quantity of "Mug" must be a whole number of at least 1.')
  }
  const ruled = makeProduct({ name: 'Mug', quantityRules: { minimum: 2, maximum: 10, multipleOf: 2 } })
  const limits = quantityLimits(ruled)
  t.same(validateQuantity(ruled, 1, limits),
    { reason: 'quantity_below_minimum', message: 'The minimum quantity of "Mug" allowed in the cart is 2.' })
  t.same(validateQuantity(ruled, 12, limits),
    { reason: 'quantity_above_maximum', message: 'The maximum quantity of "Mug" allowed in the cart is 10.' })
  t.same(validateQuantity(ruled, 3, limits),
    { reason: 'quantity_not_multiple', message: 'The quantity of "Mug" must be a multiple of 2.' })
  t.equal(validateQuantity(ruled, 4, limits), null)
})

test('validateQuantity: stock', async (t) => {
  const stocked = makeProduct({ name: 'Mug', manageStock: true, stockQuantity: 3 })
  t.equal(validateQuantity(stocked, 3, quantityLimits(stocked)), null, 'all the stock')
  t.same(validateQuantity(stocked, 4, quantityLimits(stocked)), {
    reason: 'quantity_exceeds_stock',
    message: 'There is not enough stock of "Mug" for that quantity (3 remaining).',
    data: { remaining: 3 }
  }, 'over stock is a stock error, not a maximum error')
  const context = { alreadyInCart: 2 }
  const error = validateQuantity(stocked, 2, quantityLimits(stocked, context), context)
  t.equal(error?.reason, 'quantity_exceeds_stock', 'other lines hold 2 of 3')
  t.same(error?.data, { remaining: 1 })
  const backorder = makeProduct({ manageStock: true, stockQuantity: 3, backorders: 'notify' })
  t.equal(validateQuantity(backorder, 100, quantityLimits(backorder)), null, 'backorders allowed')
  const single = makeProduct({ name: 'Print', soldIndividually: true })
  t.equal(validateQuantity(single, 2, quantityLimits(single))?.message, 'The maximum quantity of "Print" allowed in the cart is 1.')
})
