import { test } from 'tap'
import {
  addBundleLines, bundleGroup, bundleProductIds, companionsOf, isBundleProductAvailable, offeredSlots, bundleAdjustments,
  resolveBundleVariation, validateBundleSelection, type BundleDefinition, type BundleSelection
} from '../../../drawer/domain/bundles.ts'
import { addToCart, emptyCart } from '../../../kernel/domain/cart.ts'
import type { AdjustableLine } from '../../../kernel/domain/adjustments.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import { makeProduct, makeVariableParent, makeVariation } from '../../kernel/domain/fixtures.ts'

const KIT: BundleDefinition = {
  id: 'kit',
  title: 'Desk kit',
  description: '',
  discount_percent: 15,
  slots: [
    { label: 'Mug', product_ids: [1, 2] },
    { label: 'Pen', product_ids: [3, 4] },
    { label: 'Pad', product_ids: [5] }
  ]
}
const SOLO: BundleDefinition = { id: 'solo', title: 'Solo', description: '', discount_percent: 0, slots: [{ label: 'Only', product_ids: [1] }] }
const BUNDLES = [SOLO, KIT]

const catalog = (...products: Product[]) => new Map(products.map((product) => [product.id, product]))
const products = catalog(
  makeProduct({ id: 1, name: 'Mug', regularPrice: 1000 }),
  makeProduct({ id: 2, name: 'Cup', regularPrice: 800 }),
  makeProduct({ id: 3, name: 'Pen', regularPrice: 200, manageStock: true, stockQuantity: 2 }),
  makeProduct({ id: 4, name: 'Pencil', regularPrice: 100 }),
  makeProduct({ id: 5, name: 'Pad', regularPrice: 500 })
)

function selection (productIds: number[], bundles = BUNDLES, id = 'kit'): BundleSelection {
  const result = validateBundleSelection(bundles, id, productIds)
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

test('validateBundleSelection: a valid selection, one product per slot in slot order', async (t) => {
  const result = validateBundleSelection(BUNDLES, 'kit', [2, 3, 5])
  t.ok(result.ok)
  if (!result.ok) return
  t.equal(result.value.bundle, KIT)
  t.same(result.value.choices, [{ slotIndex: 0, productId: 2 }, { slotIndex: 1, productId: 3 }, { slotIndex: 2, productId: 5 }])
  t.ok(validateBundleSelection(BUNDLES, 'solo', [1]).ok, 'a bundle of one slot')
})

test('validateBundleSelection: refusals, each with its reason and a message saying why', async (t) => {
  const refused = (bundleId: string, productIds: number[]) => {
    const result = validateBundleSelection(BUNDLES, bundleId, productIds)
    if (result.ok) throw new Error('expected a refusal')
    return result.error
  }

  t.same(refused('nope', [1, 3, 5]), { reason: 'bundle_not_found', message: 'There is no bundle "nope".', data: { bundle_id: 'nope' } })
  t.equal(refused('KIT', [1, 3, 5]).reason, 'bundle_not_found', 'ids are compared exactly')
  t.equal(validateBundleSelection([], 'kit', [1, 3, 5]).ok, false, 'no bundles on offer (section disabled)')

  t.same(refused('kit', [1, 3]), {
    reason: 'bundle_slot_count',
    message: 'The bundle "Desk kit" has 3 slots: choose exactly one product for each (2 products given).',
    data: { bundle_id: 'kit', expected: 3, received: 2 }
  }, 'too few')
  t.match(refused('kit', [1, 3, 5, 2]), { reason: 'bundle_slot_count', data: { expected: 3, received: 4 } }, 'too many')
  t.equal(refused('solo', []).message, 'The bundle "Solo" has 1 slot: choose exactly one product for each (0 products given).', 'singular and none')
  t.equal(refused('kit', [1]).message, 'The bundle "Desk kit" has 3 slots: choose exactly one product for each (1 product given).')

  t.same(refused('kit', [1, 1, 5]), {
    reason: 'bundle_duplicate_product',
    message: 'Product 1 is chosen more than once: each slot needs a different product.',
    data: { bundle_id: 'kit', product_ids: [1] }
  }, 'a duplicate is reported before the slot check (1 is no pen either)')
  const twoTwice = validateBundleSelection([{ ...KIT, slots: [...KIT.slots, { label: 'Any', product_ids: [1, 3] }] }], 'kit', [1, 3, 3, 1])
  t.match(!twoTwice.ok && twoTwice.error, { message: 'Products 3, 1 are chosen more than once: each slot needs a different product.', data: { product_ids: [3, 1] } })

  t.same(refused('kit', [3, 1, 5]), {
    reason: 'bundle_product_not_in_slot',
    message: 'Product 3 is not an option of slot 1 ("Mug"); product 1 is not an option of slot 2 ("Pen").',
    data: { bundle_id: 'kit', choices: [{ slot: 0, label: 'Mug', product_id: 3 }, { slot: 1, label: 'Pen', product_id: 1 }] }
  }, 'every misplaced product is listed')
  t.match(refused('kit', [1, 3, 99]), { reason: 'bundle_product_not_in_slot', data: { choices: [{ slot: 2, label: 'Pad', product_id: 99 }] } }, 'a product of no slot')
})

test('isBundleProductAvailable: simple, published, purchasable by anyone, in stock; any catalog visibility', async (t) => {
  t.ok(isBundleProductAvailable(makeProduct()))
  t.ok(isBundleProductAvailable(makeProduct({ catalogVisibility: 'hidden' })), 'hidden from the catalog')
  t.ok(isBundleProductAvailable(makeProduct({ stockStatus: 'onbackorder' })), 'on backorder')
  t.notOk(isBundleProductAvailable(undefined), 'missing')
  t.notOk(isBundleProductAvailable(makeProduct({ status: 'draft' })), 'draft')
  t.notOk(isBundleProductAvailable(makeProduct({ status: 'private' })), 'private')
  t.notOk(isBundleProductAvailable(makeProduct({ regularPrice: null })), 'no price')
  t.notOk(isBundleProductAvailable(makeProduct({ stockStatus: 'outofstock' })), 'out of stock')
  t.notOk(isBundleProductAvailable(makeProduct({ manageStock: true, stockQuantity: 0 })), 'no stock left, no backorders')
  t.ok(isBundleProductAvailable(makeVariableParent()), 'a published variable product with variations (the shopper chooses one)')
  t.notOk(isBundleProductAvailable(makeVariableParent({ variationIds: [] })), 'a variable product without variations')
  t.notOk(isBundleProductAvailable(makeVariableParent({ status: 'draft' })), 'a draft variable product')
  t.notOk(isBundleProductAvailable(makeVariation()), 'a variation')
})

test('bundleProductIds, offeredSlots: one read for every bundle; a bundle with an empty slot is not offered', async (t) => {
  t.same(bundleProductIds(BUNDLES), [1, 2, 3, 4, 5], 'each id once, in order')
  t.same(bundleProductIds([]), [])
  const available = (ids: number[]) => (id: number) => ids.includes(id) ? `#${id}` : undefined
  t.same(offeredSlots(KIT, available([1, 2, 3, 4, 5])), [
    { label: 'Mug', products: ['#1', '#2'] },
    { label: 'Pen', products: ['#3', '#4'] },
    { label: 'Pad', products: ['#5'] }
  ])
  t.same(offeredSlots(KIT, available([2, 4, 5])), [
    { label: 'Mug', products: ['#2'] },
    { label: 'Pen', products: ['#4'] },
    { label: 'Pad', products: ['#5'] }
  ], 'unavailable products left out')
  t.equal(offeredSlots(KIT, available([1, 2, 3, 4])), null, 'the Pad slot is empty')
})

test('companionsOf: the bundles a product can be part of, with the other slots', async (t) => {
  const all = (id: number) => products.has(id) ? id : undefined
  const of = (productId: number, bundles: BundleDefinition[] = BUNDLES, available = all) =>
    companionsOf(bundles, productId, available, (id) => id).map(({ bundle, slotIndex, others }) => [bundle.id, slotIndex, others])

  t.same(of(3), [['kit', 1, [{ index: 0, label: 'Mug', products: [1, 2] }, { index: 2, label: 'Pad', products: [5] }]]])
  t.same(of(1), [['solo', 0, []], ['kit', 0, [{ index: 1, label: 'Pen', products: [3, 4] }, { index: 2, label: 'Pad', products: [5] }]]])
  t.same(of(42), [], 'in no bundle')
  t.same(of(3, BUNDLES, (id) => id === 3 ? undefined : all(id)), [], 'not available itself')
  t.same(of(1, BUNDLES, (id) => id === 5 ? undefined : all(id)), [['solo', 0, []]], 'a bundle with an empty slot is left out')

  const shared = (slots: number[][]): BundleDefinition => ({ ...KIT, slots: slots.map((ids, i) => ({ label: `S${i}`, product_ids: ids })) })
  t.same(of(1, [shared([[1, 2], [1, 2]])]), [['kit', 0, [{ index: 1, label: 'S1', products: [2] }]]], 'in two slots: the first, never its own companion')
  t.same(of(1, [shared([[1, 2], [1]])]), [['kit', 1, [{ index: 0, label: 'S0', products: [2] }]]], 'the slot that leaves the others a choice')
  t.same(of(1, [shared([[1], [1]])]), [], 'it could only go with itself')
})

test('addBundleLines: every line with the bundle\'s mark and no price of its own, in slot order', async (t) => {
  const result = addBundleLines(emptyCart(), selection([2, 3, 5]), products)
  t.ok(result.ok)
  if (!result.ok) return
  t.same(result.value.lines.map(({ productId, quantity, mark }) => ({ productId, quantity, group: mark })), [
    { productId: 2, quantity: 1, group: 'bundle:kit' },
    { productId: 3, quantity: 1, group: 'bundle:kit' },
    { productId: 5, quantity: 1, group: 'bundle:kit' }
  ])
  t.ok(result.value.lines.every((line) => Object.keys(line).every((field) => ['key', 'productId', 'variationId', 'variation', 'quantity', 'mark'].includes(field))),
    'no discount or price field is stored on a line')
  t.equal(bundleGroup('kit'), 'bundle:kit')

  const again = addBundleLines(result.value, selection([2, 3, 5]), products)
  t.ok(again.ok)
  if (!again.ok) return
  t.same(again.value.lines.map((line) => [line.key, line.quantity]), result.value.lines.map((line) => [line.key, 2]), 'the same bundle again: the same lines, one more each')
})

test('addBundleLines: a line of its own next to an ordinary line of the same product; the cart is never changed', async (t) => {
  const mug = products.get(1)!
  const ordinary = addToCart(emptyCart(), { product: mug, parent: mug, quantity: 1 })
  if (!ordinary.ok) throw new Error('setup')
  const cart: CartData = { ...ordinary.value.cart, coupons: ['save10'] }
  const frozen = structuredClone(cart)
  const result = addBundleLines(cart, selection([1, 4, 5]), products)
  t.ok(result.ok)
  if (!result.ok) return
  t.equal(result.value.lines.length, 4)
  t.same(result.value.lines[0], cart.lines[0], 'the ordinary line as it was')
  t.not(result.value.lines[1]!.key, cart.lines[0]!.key, 'the bundle\'s Mug has a key of its own')
  t.same(result.value.coupons, ['save10'])
  t.same(cart, frozen, 'the given cart is untouched')
})

test('addBundleLines: all or nothing', async (t) => {
  const refused = (cart: CartData, ids: number[], catalogue: ReadonlyMap<number, Product>) => {
    const result = addBundleLines(cart, selection(ids), catalogue)
    if (result.ok) throw new Error('expected a refusal')
    return result.error
  }

  const soldOut = catalog(...products.values(), makeProduct({ id: 4, name: 'Pencil', stockStatus: 'outofstock' }), makeProduct({ id: 5, name: 'Pad', status: 'draft' }))
  t.same(refused(emptyCart(), [1, 4, 5], soldOut), {
    reason: 'bundle_product_unavailable',
    message: '"Pencil", "Pad" cannot be added right now: nothing from the bundle was added.',
    data: { bundle_id: 'kit', product_ids: [4, 5] }
  }, 'every unavailable product is named')
  const missing = new Map(products)
  missing.delete(5)
  t.match(refused(emptyCart(), [1, 4, 5], missing), { message: 'product 5 cannot be added right now: nothing from the bundle was added.', data: { product_ids: [5] } }, 'a product that is gone')

  // Two pens in stock: the third kit fails on the pen, after its mug went up in the fold.
  let cart = emptyCart()
  for (let i = 0; i < 2; i++) {
    const added = addBundleLines(cart, selection([1, 3, 5]), products)
    if (!added.ok) throw new Error(added.error.message)
    cart = added.value
  }
  const error = refused(cart, [1, 3, 5], products)
  t.equal(error.reason, 'quantity_exceeds_stock', 'the platform\'s refusal')
  t.match(error.message, /Nothing from the bundle was added\.$/)
  t.match(error.data, { bundle_id: 'kit', product_id: 3 })

  const single = catalog(...products.values(), makeProduct({ id: 5, name: 'Pad', soldIndividually: true }))
  const first = addBundleLines(emptyCart(), selection([2, 4, 5]), single)
  if (!first.ok) throw new Error('setup')
  t.match(refused(first.value, [2, 4, 5], single), { reason: 'product_sold_individually', data: { product_id: 5 } },
    'sold individually and already in the cart')
  const rules = catalog(...products.values(), makeProduct({ id: 4, name: 'Pencil', quantityRules: { minimum: 2 } }))
  t.match(refused(emptyCart(), [1, 4, 5], rules), { reason: 'quantity_below_minimum', data: { product_id: 4 } }, 'a minimum quantity of 2')
})

/** A bundle line of `KIT` as an adjuster sees it: group `bundle:kit`, unit price 1000. */
const kitLine = (productId: number, quantity: number, variationId = 0, unitPrice = 1000): AdjustableLine => ({
  key: `${productId}-${variationId}`.padEnd(32, '0'), productId, variationId, quantity, unitPrice, mark: 'bundle:kit'
})
/** [product, quantity, amount off] per line, 0 for a line without an adjustment. */
const amounts = (lines: AdjustableLine[], bundles: readonly BundleDefinition[] = BUNDLES) => {
  const adjustments = bundleAdjustments(lines, bundles)
  return lines.map((line) => [line.productId, line.quantity, adjustments.filter((a) => a.lineKey === line.key).reduce((sum, a) => sum + a.amount, 0)])
}

test('bundleAdjustments: the discount only on the units that form complete bundles', async (t) => {
  const complete = [kitLine(1, 1), kitLine(3, 1), kitLine(5, 1)]
  t.same(amounts(complete), [[1, 1, 150], [3, 1, 150], [5, 1, 150]], 'complete: 15 % off every line')
  t.match(bundleAdjustments(complete, BUNDLES)[0], { label: KIT.title, rule: 'bundle:kit' }, 'labelled with the bundle and its rule')

  t.same(amounts([kitLine(1, 1), kitLine(5, 1)]), [[1, 1, 0], [5, 1, 0]], 'a slot left empty: no discount on the rest')
  t.same(amounts([kitLine(1, 2), kitLine(3, 1), kitLine(5, 1)]), [[1, 2, 150], [3, 1, 150], [5, 1, 150]], 'one more mug: the extra mug at full price')
  t.same(amounts([kitLine(1, 2), kitLine(3, 2), kitLine(5, 2)]), [[1, 2, 300], [3, 2, 300], [5, 2, 300]], 'two of every slot: two complete bundles')
  t.same(amounts([kitLine(1, 2), kitLine(3, 2), kitLine(5, 1)]), [[1, 2, 150], [3, 2, 150], [5, 1, 150]], 'one pad less: one complete bundle')
  t.same(amounts([kitLine(1, 200), kitLine(3, 5), kitLine(5, 5)]), [[1, 200, 750], [3, 5, 750], [5, 5, 750]], 'raising one line to 200 adds no bundle: the discount stays that of 5 bundles')
  t.same(amounts([kitLine(1, 1), kitLine(2, 1), kitLine(3, 1), kitLine(4, 1), kitLine(5, 2)]), [[1, 1, 150], [2, 1, 150], [3, 1, 150], [4, 1, 150], [5, 2, 300]],
    'two bundles made of different choices for a slot')
  t.same(amounts([{ ...kitLine(1, 1), mark: 'bundle:gone' }]), [[1, 1, 0]], 'a bundle no longer configured: no discount')
  t.same(amounts([{ ...kitLine(1, 1), mark: undefined }, kitLine(3, 1), kitLine(5, 1)]), [[1, 1, 0], [3, 1, 0], [5, 1, 0]], 'an ordinary line fills no slot')
  t.same(bundleAdjustments(complete, []), [], 'no bundles configured: nothing')
})

test('bundleAdjustments: a product offered by two slots fills the one the others leave free', async (t) => {
  const either: BundleDefinition = { id: 'kit', title: 'Either', description: '', discount_percent: 20, slots: [{ label: 'A', product_ids: [1, 2] }, { label: 'B', product_ids: [1, 3] }] }
  t.same(amounts([kitLine(2, 1), kitLine(1, 1)], [either]), [[2, 1, 200], [1, 1, 200]], '2 fills A, 1 fills B')
  t.same(amounts([kitLine(1, 1), kitLine(2, 1)], [either]), [[1, 1, 200], [2, 1, 200]], '1 first takes A, then moves to B for 2')
  t.same(amounts([kitLine(1, 1), kitLine(3, 1)], [either]), [[1, 1, 200], [3, 1, 200]])
})

test('bundleAdjustments: two slots sharing a product, one line of 9,999 units: 4,999 complete bundles', async (t) => {
  const anyTwo: BundleDefinition = { id: 'kit', title: 'Any two hats', description: '', discount_percent: 10, slots: [{ label: 'A', product_ids: [1] }, { label: 'B', product_ids: [1] }] }
  t.same(amounts([kitLine(1, 9999)], [anyTwo]), [[1, 9999, 9998 * 100]], '4,999 complete bundles: 9,998 units at 10 % off 1000')
})

test('variable members: the chosen variation goes in as the bundle\'s line; no choice, or a wrong one, adds nothing', async (t) => {
  const parent = makeVariableParent()
  const red = makeVariation()
  const blue = makeVariation({ id: 12, name: 'T-shirt - Blue, any size', variationAttributes: { pa_color: 'Blue', pa_size: '' } })
  const tee: BundleDefinition = { id: 'tee', title: 'Tee and mug', description: '', discount_percent: 10, slots: [{ label: 'Tee', product_ids: [10] }, { label: 'Mug', product_ids: [1] }] }
  const selection = validateBundleSelection([tee], 'tee', [10, 1])
  if (!selection.ok) throw new Error('valid selection')
  const all = catalog(parent, red, blue, makeProduct({ id: 1, name: 'Mug', regularPrice: 1000 }))

  const chosen = resolveBundleVariation(parent, [red, blue], { pa_color: 'Blue', pa_size: 'M' })
  if (!chosen.ok) throw new Error(chosen.error.message)
  t.equal(chosen.value.product.id, 12)
  t.same(chosen.value.variation, { pa_color: 'Blue', pa_size: 'M' }, 'the open size as chosen')
  const added = addBundleLines(emptyCart(), selection.value, all, undefined, new Map([[0, chosen.value]]))
  if (!added.ok) throw new Error(added.error.message)
  t.same(added.value.lines.map(({ productId, variationId, variation, mark }) => ({ productId, variationId, variation, group: mark })), [
    { productId: 10, variationId: 12, variation: { pa_color: 'Blue', pa_size: 'M' }, group: 'bundle:tee' },
    { productId: 1, variationId: 0, variation: {}, group: 'bundle:tee' }
  ])
  const asAdjustable = added.value.lines.map((line) => ({ key: line.key, productId: line.productId, variationId: line.variationId, quantity: line.quantity, unitPrice: 1000, mark: line.mark }))
  t.equal(bundleAdjustments(asAdjustable, [tee]).length, 2, 'the variation fills its parent\'s slot: complete, both lines adjusted')

  const missing = addBundleLines(emptyCart(), selection.value, all)
  t.equal(!missing.ok && missing.error.reason, 'variation_attribute_missing', 'no choice for the variable member')
  const open = resolveBundleVariation(parent, [red, blue], { pa_color: 'Blue' })
  t.notOk(open.ok, 'an open attribute left unchosen is refused, as the Store API refuses it')
  const contradicting = resolveBundleVariation(parent, [red, blue], { pa_color: 'Green', pa_size: 'S' })
  t.notOk(contradicting.ok, 'a value the product does not offer')
})
