import { test } from 'tap'
import { Compile } from 'typebox/compile'
import { cartItemKey } from '../../../kernel/domain/cart.ts'
import {
  backorderNoticeFromHtml, defaultItemPresentation, drawerCartState, normaliseLockedKeys, svcCoupons, svcItemFields,
  variationSummary, type DrawerCartState, type ItemPresentation
} from '../../../drawer/domain/drawer-state.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { CartLine, PricedCart, Product } from '../../../kernel/domain/types.ts'
import { DrawerCartStateSchema, type DrawerCartStateBody } from '../../../drawer/schemas/drawer-cart.ts'
import { SvcCartItemExtensionSchema } from '../../../drawer/schemas/svc-extension.ts'
import { makeConfig, makeCoupon, makeProduct, makeVariableParent, makeVariation, NOW, USD } from '../../kernel/domain/fixtures.ts'

function line (productId: number, quantity: number, variationId = 0, variation: Record<string, string> = {}): CartLine {
  return { key: cartItemKey(productId, variationId, variation), productId, variationId, variation, quantity }
}

const mug = makeProduct({ id: 1, name: 'Mug', regularPrice: 1000, salePrice: 850, images: [{ id: 5, src: 's.png', thumbnail: 't.png', alt: 'A mug', name: 'mug' }] })
const album = makeProduct({ id: 2, name: 'Album', regularPrice: 1500, soldIndividually: true })
const jacket = makeProduct({
  id: 3,
  name: 'Jacket',
  regularPrice: 12000,
  manageStock: true,
  stockQuantity: 0,
  stockStatus: 'onbackorder',
  backorders: 'notify',
  backorderNotice: '<p>Made to <b>order</b> ' + 'é'.repeat(300) + '</p>'
})
const lastOne = makeProduct({ id: 4, name: 'Last one', regularPrice: 500, manageStock: true, stockQuantity: 1 })
const parent = makeVariableParent()
const tee = makeVariation({ id: 11, regularPrice: 2000 })
const products = new Map<number, Product>([mug, album, jacket, lastOne, parent, tee].map((p) => [p.id, p]))

const teeLine = line(10, 2, 11, { pa_color: 'Red', pa_size: 'S' })

function priced (): PricedCart {
  return priceCart({
    lines: [line(1, 3), line(2, 1), line(3, 1), line(4, 1), teeLine],
    coupons: ['save10']
  }, products, new Map([['save10', makeCoupon()]]), makeConfig({ taxRatePercent: 10, shippingFlatRate: 500, fees: [{ id: 'h', name: 'Handling', amount: 100, taxable: false }] }), NOW)
}

test('per-line fields of extensions.svc', async (t) => {
  const cart = priced()
  const [mugLine, albumLine, jacketLine, lastLine, teePriced] = cart.lines
  const none = new Set<string>()
  const itemSchema = Compile(SvcCartItemExtensionSchema)

  const simple = svcItemFields(mugLine!, none)
  t.same(simple, {
    key: mugLine!.line.key,
    product_id: 1,
    visible: true,
    quantityEditable: true,
    removable: true,
    quantityLimits: { minimum: 1, maximum: 9999, multipleOf: 1, unlimited: true },
    backorderNotice: ''
  })
  t.same(Object.keys(simple), Object.keys(SvcCartItemExtensionSchema.properties), 'keys in the schema\'s order')
  t.ok(itemSchema.Check(simple))

  const soldIndividually = svcItemFields(albumLine!, none)
  t.equal(soldIndividually.quantityEditable, false, 'sold individually: no quantity controls')
  t.same(soldIndividually.quantityLimits, { minimum: 1, maximum: 1, multipleOf: 1, unlimited: false })
  t.equal(soldIndividually.removable, true)

  const backorder = svcItemFields(jacketLine!, none)
  t.ok(Buffer.byteLength(backorder.backorderNotice) <= 500, 'at most 500 bytes')
  t.match(backorder.backorderNotice, /^Made to order é+$/, 'plain text: no tags')
  t.ok(Buffer.byteLength(jacketLine!.backorderNotice) > 500, 'the platform\'s notice was longer')

  t.equal(svcItemFields(lastLine!, none).quantityEditable, false, 'stock leaves one possible quantity: no controls')

  const variation = svcItemFields(teePriced!, none)
  t.equal(variation.product_id, 10, 'the parent of a variation')
  t.equal(variationSummary(teePriced!), 'Color: Red, Size: S')

  const locked = svcItemFields(mugLine!, new Set([mugLine!.line.key]))
  t.equal(locked.removable, false, 'a locked line cannot be removed')
  t.equal(locked.quantityEditable, false, 'nor changed')
})

test('the default presentation row and coupon rows', async (t) => {
  const cart = priced()
  const teePriced = cart.lines[4]!
  const row: ItemPresentation = defaultItemPresentation(teePriced, svcItemFields(teePriced, new Set()))
  t.same(Object.keys(row), ['key', 'name', 'short_description', 'variationSummary', 'extraLines', 'customPresentation',
    'product_id', 'visible', 'quantityEditable', 'removable', 'quantityLimits', 'backorderNotice'])
  t.equal(row.key, teeLine.key)
  t.equal(row.name, 'T-shirt - Red, S')
  t.equal(row.short_description, 'A mug.', 'the variation\'s own short description (the fixture\'s default)')
  t.same(row.extraLines, [])
  t.equal(row.customPresentation, null)
  t.same(svcCoupons(cart), [{ code: 'save10', label: 'Coupon: save10', isSystemReward: false, removable: true }])
})

test('locked keys are normalised to lines of the cart, once each, in cart order', async (t) => {
  const cart = priced()
  const keys = cart.lines.map(({ line }) => line.key)
  t.same(normaliseLockedKeys(cart, [keys[2], 'unknown', keys[0], keys[2], 42, null]), [keys[0], keys[2]])
  t.same(normaliseLockedKeys(cart, 'not a list'), [])
})

test('backorderNoticeFromHtml: plain text within 500 bytes', async (t) => {
  t.equal(backorderNoticeFromHtml('<b>Soon</b> &amp; later<script>x()</script>'), 'Soon & later')
  const cut = backorderNoticeFromHtml('€'.repeat(200))
  t.equal(Buffer.byteLength(cut), 498, '166 three-byte characters')
})

test('the drawer cart state has every field the drawer renders, and matches its schema', async (t) => {
  const cart = priced()
  const keys = cart.lines.map(({ line }) => line.key)
  const presentation = defaultItemPresentation(cart.lines[0]!, svcItemFields(cart.lines[0]!, new Set()))
  const state: DrawerCartState = drawerCartState(cart, {
    currency: USD,
    hash: 'abc',
    permalink: ({ parent: p }) => `https://shop.test/product/${p.slug}/`,
    optionalLockedKeys: [keys[1]!],
    presentations: new Map([[presentation.key, { ...presentation, customPresentation: { badge: 'new' } }]]),
    errorCode: (reason) => `code_of_${reason}`
  })
  t.same(Object.keys(state), ['cartItems', 'cartCount', 'cartTotal', 'cartSubtotal', 'cartFees', 'cartTax', 'coupons',
    'currency', 'optionalLockedKeys', 'cartHash', 'cartDiscount', 'cartShipping', 'errors', 'rewards'])
  t.ok(Compile(DrawerCartStateSchema).Check(state), 'valid against the published schema')
  const body: DrawerCartStateBody = state
  t.ok(body)

  t.equal(state.cartCount, 3 + 1 + 1 + 1 + 2)
  t.equal(state.cartSubtotal, String(cart.totals.totalItems))
  t.equal(state.cartTotal, String(cart.totals.totalPrice))
  t.equal(state.cartTax, String(cart.totals.totalTax))
  t.equal(state.cartDiscount, String(cart.totals.totalDiscount))
  t.equal(state.cartShipping, '500')
  t.same(state.cartFees, [{ key: 'h', name: 'Handling', total: '100', totalTax: '0' }])
  t.same(state.coupons, [{ code: 'save10', label: 'Coupon: save10', isSystemReward: false, removable: true, discount: String(cart.coupons[0]!.discount), discountTax: String(cart.coupons[0]!.discountTax) }])
  t.equal(state.currency.currency_code, 'USD')
  t.same(state.optionalLockedKeys, [keys[1]])
  t.equal(state.cartHash, 'abc')

  const [first, second] = state.cartItems
  t.match(first, {
    key: keys[0],
    product_id: 1,
    variation_id: 0,
    name: 'Mug',
    quantity: 3,
    prices: { price: '850', regular_price: '1000', sale_price: '850' },
    totals: { line_subtotal: '2550' },
    image: { src: 's.png', thumbnail: 't.png', alt: 'A mug' },
    permalink: 'https://shop.test/product/plain-mug/'
  })
  t.same(first!.presentation!.customPresentation, { badge: 'new' }, 'the presentation row of the line')
  t.equal(second!.presentation, null, 'no row given: null')
  t.equal(second!.removable, false, 'the locked line')
  const tee = state.cartItems[4]!
  t.equal(tee.product_id, 10)
  t.equal(tee.variation_id, 11)
  t.same(tee.variation, [{ attribute: 'Color', value: 'Red' }, { attribute: 'Size', value: 'S' }])
  t.equal(tee.variationSummary, 'Color: Red, Size: S')
  t.equal(tee.image, null, 'no image anywhere')

  const empty = drawerCartState(priceCart({ lines: [], coupons: [] }, products, new Map(), makeConfig(), NOW), {
    currency: USD, hash: '', permalink: () => '', optionalLockedKeys: [], errorCode: (reason) => `code_of_${reason}`
  })
  t.same(empty.cartItems, [])
  t.equal(empty.cartShipping, null, 'no shipping for an empty cart')
  t.ok(Compile(DrawerCartStateSchema).Check(empty))
})

test('the drawer cart state shows the problems found while pricing, in the code the context gives each reason', async (t) => {
  const pricedWithErrors = priceCart({ lines: [line(99, 1)], coupons: ['ghost'] }, products, new Map(), makeConfig(), NOW)
  const state = drawerCartState(pricedWithErrors, {
    currency: USD, hash: '', permalink: () => '', optionalLockedKeys: [], errorCode: (reason) => `code_of_${reason}`
  })
  t.same(state.errors, [
    { code: 'code_of_line_product_missing', message: 'An item which is no longer available was removed from your cart.' },
    { code: 'code_of_coupon_not_found', message: 'Coupon "ghost" does not exist!' }
  ])
})
