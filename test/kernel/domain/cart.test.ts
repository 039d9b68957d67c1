import { test } from 'tap'
import { addToCart, cartItemKey, emptyCart, normaliseCouponCode, removeLine, setLineQuantity } from '../../../kernel/domain/cart.ts'
import type { CartData, DomainError, Product } from '../../../kernel/domain/types.ts'
import { makeProduct, makeVariableParent, makeVariation } from './fixtures.ts'

function deepFreeze<T> (value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** Adds and expects success. */
function add (cart: CartData, product: Product, quantity: number, parent: Product = product, variation: Record<string, string> = {}) {
  const result = addToCart(cart, { product, parent, quantity, variation })
  if (!result.ok) throw new Error(`unexpected ${result.error.reason}: ${result.error.message}`)
  return result.value
}

function errorOf (result: { ok: true } | { ok: false, error: DomainError }) {
  return result.ok ? null : { reason: result.error.reason, message: result.error.message }
}

test('cartItemKey', async (t) => {
  const key = cartItemKey(1, 0, {})
  t.match(key, /^[0-9a-f]{32}$/, '32 lowercase hex')
  t.equal(cartItemKey(1, 0, {}), key, 'stable')
  t.equal(cartItemKey(1, 0), key, 'attributes default to none')
  t.equal(cartItemKey(10, 11, { pa_size: 'S', pa_color: 'Red' }), cartItemKey(10, 11, { pa_color: 'Red', pa_size: 'S' }),
    'attribute order does not matter')
  const keys = new Set([
    key,
    cartItemKey(2, 0, {}),
    cartItemKey(10, 11, { pa_color: 'Red' }),
    cartItemKey(10, 12, { pa_color: 'Red' }),
    cartItemKey(10, 11, { pa_color: 'Blue' }),
    cartItemKey(10, 11, { pa_color: 'Red', pa_size: 'S' }),
    cartItemKey(10, 11, { pa_colorRed: '' }),
    cartItemKey(1, 1, {}),
    cartItemKey(11, 0, {})
  ])
  t.equal(keys.size, 9, 'different products, variations or attributes give different keys')
})

test('emptyCart', async (t) => {
  t.same(emptyCart(), { lines: [], coupons: [] })
  t.not(emptyCart(), emptyCart(), 'a fresh object each time')
})

test('normaliseCouponCode', async (t) => {
  t.equal(normaliseCouponCode('  SAVE10 '), 'save10')
  t.equal(normaliseCouponCode('Summer-Sale'), 'summer-sale')
})

test('addToCart: simple product, merging into one line', async (t) => {
  const mug = makeProduct({ id: 1 })
  const start = deepFreeze(emptyCart())
  const first = add(start, mug, 2)
  t.equal(first.key, cartItemKey(1, 0, {}))
  t.same(first.cart, { lines: [{ key: first.key, productId: 1, variationId: 0, variation: {}, quantity: 2 }], coupons: [] })
  t.same(start, { lines: [], coupons: [] }, 'input unchanged')
  deepFreeze(first.cart)
  const second = add(first.cart, mug, 3)
  t.equal(second.key, first.key, 'same key')
  t.equal(second.cart.lines.length, 1, 'merged into one line')
  t.equal(second.cart.lines[0]?.quantity, 5, '2 + 3')
  t.equal(first.cart.lines[0]?.quantity, 2, 'previous cart unchanged')
  const third = add(second.cart, makeProduct({ id: 2 }), 1)
  t.same(third.cart.lines.map((l) => [l.productId, l.quantity]), [[1, 5], [2, 1]], 'another product: a new line at the end')
})

test('addToCart keeps the cart\'s coupons', async (t) => {
  const cart = deepFreeze<CartData>({ lines: [], coupons: ['save10'] })
  t.same(add(cart, makeProduct(), 1).cart.coupons, ['save10'])
})

test('addToCart: purchasability', async (t) => {
  const refused = { reason: 'product_not_purchasable', message: 'This product cannot be added to the cart.' }
  const parent = makeVariableParent()
  t.same(errorOf(addToCart(emptyCart(), { product: parent, parent, quantity: 1 }))?.reason, refused.reason, 'variable parent refused')
  t.same(errorOf(addToCart(emptyCart(), { product: makeProduct({ status: 'draft' }), parent: makeProduct(), quantity: 1 }))?.reason, refused.reason, 'draft')
  const priv = makeProduct({ status: 'private' })
  t.same(errorOf(addToCart(emptyCart(), { product: priv, parent: priv, quantity: 1 }))?.reason, refused.reason, 'private for a guest')
  t.equal(addToCart(emptyCart(), { product: priv, parent: priv, quantity: 1 }, { canReadPrivate: true }).ok, true, 'private for staff')
  const hidden = makeProduct({ catalogVisibility: 'hidden' })
  t.equal(addToCart(emptyCart(), { product: hidden, parent: hidden, quantity: 1 }).ok, true, 'hidden but published')
  const unpriced = makeProduct({ regularPrice: null })
  t.same(errorOf(addToCart(emptyCart(), { product: unpriced, parent: unpriced, quantity: 1 }))?.reason, refused.reason, 'no price')
  t.same(errorOf(addToCart(emptyCart(), { product: makeVariation(), parent: makeVariableParent({ status: 'draft' }), quantity: 1 }))?.reason,
    refused.reason, 'variation of a draft parent')
  t.equal(errorOf(addToCart(emptyCart(), { product: makeProduct({ name: 'Plain Mug', status: 'draft' }), parent: makeProduct(), quantity: 1 }))?.message,
    '"Plain Mug" is not available for purchase.', 'WooCommerce\'s message')
})

test('addToCart: variations', async (t) => {
  const parent = makeVariableParent()
  const red = makeVariation({ id: 11 })
  const { cart, key } = add(emptyCart(), red, 1, parent, { pa_color: 'Red', pa_size: 'S' })
  t.same(cart.lines, [{ key, productId: 10, variationId: 11, variation: { pa_color: 'Red', pa_size: 'S' }, quantity: 1 }],
    'productId is the parent, variationId the variation')
  t.equal(key, cartItemKey(10, 11, { pa_size: 'S', pa_color: 'Red' }))
  const again = add(cart, red, 2, parent, { pa_size: 'S', pa_color: 'Red' })
  t.same(again.cart.lines.map((l) => l.quantity), [3], 'same attributes in another order merge')
  const anySize = makeVariation({ id: 12, variationAttributes: { pa_color: 'Blue', pa_size: '' }, manageStock: true, stockQuantity: 4 })
  const s = add(emptyCart(), anySize, 2, parent, { pa_color: 'Blue', pa_size: 'S' })
  const m = add(s.cart, anySize, 2, parent, { pa_color: 'Blue', pa_size: 'M' })
  t.equal(m.cart.lines.length, 2, 'different chosen values of an "any" attribute: two lines')
  t.equal(errorOf(addToCart(m.cart, { product: anySize, parent, quantity: 1, variation: { pa_color: 'Blue', pa_size: 'S' } }))?.reason,
    'quantity_exceeds_stock', 'both lines draw on the variation\'s stock of 4')
})

test('addToCart: stock', async (t) => {
  const gone = makeProduct({ name: 'Kettle', stockStatus: 'outofstock' })
  t.same(errorOf(addToCart(emptyCart(), { product: gone, parent: gone, quantity: 1 })),
    { reason: 'product_out_of_stock', message: '"Kettle" is out of stock and cannot be purchased.' })
  const none = makeProduct({ name: 'Kettle', manageStock: true, stockQuantity: 0, backorders: 'no' })
  t.equal(errorOf(addToCart(emptyCart(), { product: none, parent: none, quantity: 1 }))?.reason, 'product_out_of_stock',
    'managed, none left, no backorders')
  const five = makeProduct({ name: 'Kettle', manageStock: true, stockQuantity: 5 })
  const three = add(emptyCart(), five, 3)
  t.same(errorOf(addToCart(three.cart, { product: five, parent: five, quantity: 3 })), {
    reason: 'quantity_exceeds_stock',
    message: 'There is not enough stock of "Kettle" for that quantity (5 remaining).'
  }, '3 + 3 > 5 in stock')
  t.equal(add(three.cart, five, 2).cart.lines[0]?.quantity, 5, '3 + 2 = all the stock')
  const notify = makeProduct({ manageStock: true, stockQuantity: 0, backorders: 'notify' })
  t.equal(add(emptyCart(), notify, 7).cart.lines[0]?.quantity, 7, 'backorders allowed beyond stock')
})

test('addToCart: sold individually', async (t) => {
  const print = makeProduct({ name: 'Signed Print', soldIndividually: true })
  const once = add(emptyCart(), print, 3)
  t.equal(once.cart.lines[0]?.quantity, 1, 'added once whatever the quantity asked, as WooCommerce does')
  t.same(errorOf(addToCart(once.cart, { product: print, parent: print, quantity: 1 })), {
    reason: 'product_sold_individually',
    message: 'You cannot add another "Signed Print" to your cart.'
  }, 'twice refused')
})

test('addToCart: quantity rules on the merged quantity', async (t) => {
  const pairs = makeProduct({ name: 'Socks', quantityRules: { multipleOf: 2, maximum: 6 } })
  const two = add(emptyCart(), pairs, 2)
  t.same(errorOf(addToCart(two.cart, { product: pairs, parent: pairs, quantity: 1 })),
    { reason: 'quantity_not_multiple', message: 'The quantity of "Socks" must be a multiple of 2.' }, '2 + 1')
  t.same(errorOf(addToCart(two.cart, { product: pairs, parent: pairs, quantity: 6 })),
    { reason: 'quantity_above_maximum', message: 'The maximum quantity of "Socks" allowed in the cart is 6.' }, '2 + 6')
  t.equal(add(two.cart, pairs, 4).cart.lines[0]?.quantity, 6)
  for (const bad of [0, -2, 1.5]) {
    t.equal(errorOf(addToCart(two.cart, { product: pairs, parent: pairs, quantity: bad }))?.reason,
      'quantity_not_whole', `${bad} refused even though the merged quantity would be positive`)
  }
  const min = makeProduct({ name: 'Tiles', quantityRules: { minimum: 10 } })
  t.equal(errorOf(addToCart(emptyCart(), { product: min, parent: min, quantity: 4 }))?.reason, 'quantity_below_minimum', 'the platform\'s own adds refuse')
  const normalised = addToCart(emptyCart(), { product: min, parent: min, quantity: 4, normaliseQuantity: true })
  t.equal(normalised.ok && normalised.value.cart.lines[0]?.quantity, 10, 'the Store API\'s add brings a new line up to the minimum (WooCommerce)')
  t.equal(errorOf(addToCart(add(emptyCart(), pairs, 6).cart, { product: pairs, parent: pairs, quantity: 2 }))?.reason,
    'quantity_above_maximum', 'a merge is validated as it is')
})

test('setLineQuantity', async (t) => {
  const kettle = makeProduct({ id: 5, name: 'Kettle', manageStock: true, stockQuantity: 4 })
  const { cart, key } = add(emptyCart(), kettle, 1)
  deepFreeze(cart)
  const set = setLineQuantity(cart, key, 4, kettle)
  t.same(set.ok && set.value.lines.map((l) => l.quantity), [4])
  t.equal(cart.lines[0]?.quantity, 1, 'input unchanged')
  t.same(errorOf(setLineQuantity(cart, 'f'.repeat(32), 2, kettle)),
    { reason: 'item_not_found', message: 'Cart item no longer exists or is invalid.' })
  t.equal(errorOf(setLineQuantity(cart, key, 5, kettle))?.reason, 'quantity_exceeds_stock')
  t.equal(errorOf(setLineQuantity(cart, key, 0, kettle))?.reason, 'quantity_not_whole', '0 refused')
  t.equal(errorOf(setLineQuantity(cart, key, -1, kettle))?.reason, 'quantity_not_whole', 'negative refused')
  t.equal(errorOf(setLineQuantity(cart, key, 2, makeProduct({ id: 6 })))?.reason, 'product_not_purchasable', 'another product')
  t.equal(errorOf(setLineQuantity(cart, key, 2, null))?.reason, 'product_not_purchasable', 'the line\'s product is gone')
  t.equal(errorOf(setLineQuantity(cart, 'nope', 2, null))?.reason, 'item_not_found', 'unknown key checked first')
  const print = makeProduct({ id: 7, name: 'Print', soldIndividually: true })
  const withPrint = add(cart, print, 1)
  t.equal(errorOf(setLineQuantity(withPrint.cart, withPrint.key, 2, print))?.message,
    'The maximum quantity of "Print" allowed in the cart is 1.')
})

test('removeLine', async (t) => {
  const a = add(emptyCart(), makeProduct({ id: 1 }), 1)
  const b = add(a.cart, makeProduct({ id: 2 }), 1)
  deepFreeze(b.cart)
  const removed = removeLine(b.cart, a.key)
  t.same(removed.ok && removed.value.lines.map((l) => l.productId), [2])
  t.equal(b.cart.lines.length, 2, 'input unchanged')
  t.same(errorOf(removeLine(b.cart, 'nope')),
    { reason: 'item_not_found', message: 'Cart item no longer exists or is invalid.' })
})

test('removeLines removes every given line or none', async (t) => {
  const { removeLines } = await import('../../../kernel/domain/cart.ts')
  const cart = {
    lines: ['a', 'b', 'c'].map((key) => ({ key: key.repeat(32), productId: 1, variationId: 0, variation: {}, quantity: 1 })),
    coupons: ['save10']
  }
  const removed = removeLines(cart, ['a'.repeat(32), 'c'.repeat(32)])
  t.ok(removed.ok)
  if (removed.ok) {
    t.same(removed.value.lines.map((line) => line.key), ['b'.repeat(32)])
    t.same(removed.value.coupons, ['save10'])
  }
  const unknown = removeLines(cart, ['a'.repeat(32), 'x'.repeat(32)])
  t.notOk(unknown.ok)
  if (!unknown.ok) {
    t.equal(unknown.error.reason, 'item_not_found')
    t.same(unknown.error.data, { keys: ['x'.repeat(32)] })
  }
  const locked = removeLines(cart, ['a'.repeat(32), 'b'.repeat(32)], new Set(['b'.repeat(32)]))
  t.notOk(locked.ok)
  if (!locked.ok) {
    t.equal(locked.error.reason, 'item_locked')
    t.same(locked.error.data, { keys: ['b'.repeat(32)] })
  }
  t.equal(cart.lines.length, 3, 'the input is not changed')
})

test('restoreLines puts removed lines back at their places, keeping what changed since', async (t) => {
  const { restoreLines } = await import('../../../kernel/domain/cart.ts')
  const lineOf = (key: string, quantity = 1) => ({ key: key.repeat(32), productId: 1, variationId: 0, variation: {}, quantity })
  const keysOf = (data: { lines: Array<{ key: string }> }) => data.lines.map((line) => line.key[0])
  const before = { lines: ['a', 'b', 'c', 'd'].map((key) => lineOf(key)), coupons: [] }
  deepFreeze(before)

  const removed = { lines: [lineOf('b'), lineOf('d')], coupons: [] }
  t.same(keysOf(restoreLines(removed, before, ['a'.repeat(32), 'c'.repeat(32)])), ['a', 'b', 'c', 'd'], 'both back, in the order they had')

  const changedSince = { lines: [lineOf('b', 5), lineOf('d'), lineOf('e')], coupons: ['later'] }
  const restored = restoreLines(changedSince, before, ['c'.repeat(32)])
  t.same(keysOf(restored), ['b', 'c', 'd', 'e'], 'after the line that preceded it')
  t.equal(restored.lines[0]!.quantity, 5, 'a change made since stands')
  t.same(restored.coupons, ['later'])

  const withoutNeighbour = { lines: [lineOf('d')], coupons: [] }
  t.same(keysOf(restoreLines(withoutNeighbour, before, ['c'.repeat(32)])), ['d', 'c'], 'its neighbour gone: at its old index, within the cart')
  t.same(keysOf(restoreLines(removed, before, ['a'.repeat(32)])), ['a', 'b', 'd'], 'only the keys named')
  const present = { lines: [lineOf('a', 3), lineOf('b')], coupons: [] }
  t.same(restoreLines(present, before, ['a'.repeat(32)]).lines.map((line) => line.quantity), [3, 1], 'a line still there is not added twice')
})
