import { test } from 'tap'
import {
  backorderNotice,
  DEFAULT_BACKORDER_NOTICE,
  effectivePrice,
  isInStock,
  isListedInCatalog,
  isListedInSearch,
  isOnBackorder,
  isOnSale,
  isPurchasable,
  isViewable,
  lowStockRemaining,
  stockAvailableFor
} from '../../../kernel/domain/catalog.ts'
import { makeProduct, makeVariableParent, makeVariation } from './fixtures.ts'

const staff = { canReadPrivate: true }

test('effectivePrice and isOnSale', async (t) => {
  t.equal(effectivePrice(makeProduct({ regularPrice: 1000 })), 1000, 'regular price when no sale')
  t.equal(effectivePrice(makeProduct({ regularPrice: 1000, salePrice: 800 })), 800, 'lower sale price wins')
  t.equal(effectivePrice(makeProduct({ regularPrice: 1000, salePrice: 1000 })), 1000, 'equal sale price is no sale')
  t.equal(effectivePrice(makeProduct({ regularPrice: 1000, salePrice: 1200 })), 1000, 'higher sale price ignored')
  t.equal(effectivePrice(makeProduct({ regularPrice: null, salePrice: 500 })), null, 'no regular price: null')
  t.equal(effectivePrice(makeProduct({ regularPrice: 0 })), 0, 'free product has a price of 0')
  t.equal(isOnSale(makeProduct({ regularPrice: 1000, salePrice: 800 })), true)
  t.equal(isOnSale(makeProduct({ regularPrice: 1000, salePrice: 1000 })), false)
  t.equal(isOnSale(makeProduct({ regularPrice: 1000 })), false)
  t.equal(isOnSale(makeProduct({ regularPrice: null, salePrice: 500 })), false)
})

test('isPurchasable: simple products and statuses', async (t) => {
  t.equal(isPurchasable(makeProduct()), true, 'published simple product with a price')
  t.equal(isPurchasable(null), false, 'missing product')
  t.equal(isPurchasable(undefined), false, 'missing product (undefined)')
  t.equal(isPurchasable(makeProduct({ status: 'draft' })), false, 'draft')
  t.equal(isPurchasable(makeProduct({ status: 'draft' }), staff), false, 'draft even for staff')
  t.equal(isPurchasable(makeProduct({ status: 'private' })), false, 'private for a guest')
  t.equal(isPurchasable(makeProduct({ status: 'private' }), { canReadPrivate: false }), false, 'private without the capability')
  t.equal(isPurchasable(makeProduct({ status: 'private' }), staff), true, 'private for a viewer who can read private')
  t.equal(isPurchasable(makeProduct({ catalogVisibility: 'hidden' })), true, 'hidden but published is purchasable')
  t.equal(isPurchasable(makeProduct({ regularPrice: null })), false, 'no price')
  t.equal(isPurchasable(makeProduct({ regularPrice: 0 })), true, 'a price of 0 is a price')
  t.equal(isPurchasable(makeProduct({ stockStatus: 'outofstock' })), true, 'stock is not part of purchasability')
})

test('isPurchasable: variable parents and variations', async (t) => {
  const parent = makeVariableParent()
  t.equal(isPurchasable(parent), false, 'a variable parent is refused')
  t.equal(isPurchasable(makeVariableParent({ regularPrice: 2000 })), false, 'even with a price')
  const variation = makeVariation()
  t.equal(isPurchasable(variation, undefined, parent), true, 'variation with its published parent')
  t.equal(isPurchasable(variation), false, 'variation without its parent cannot be confirmed')
  t.equal(isPurchasable(variation, undefined, makeVariableParent({ status: 'draft' })), false, 'draft parent')
  t.equal(isPurchasable(variation, undefined, makeVariableParent({ status: 'private' })), false, 'private parent for a guest')
  t.equal(isPurchasable(variation, staff, makeVariableParent({ status: 'private' })), true, 'private parent for staff')
  t.equal(isPurchasable(variation, undefined, makeVariableParent({ id: 99 })), false, 'someone else\'s parent')
  t.equal(isPurchasable(variation, undefined, makeProduct({ id: 10 })), false, 'parent that is not variable')
  t.equal(isPurchasable(makeVariation({ status: 'draft' }), undefined, parent), false, 'draft variation')
  t.equal(isPurchasable(makeVariation({ regularPrice: null }), undefined, parent), false, 'variation without a price')
})

test('isInStock', async (t) => {
  t.equal(isInStock(makeProduct()), true, 'unmanaged in stock')
  t.equal(isInStock(makeProduct({ stockStatus: 'outofstock' })), false, 'status out of stock')
  t.equal(isInStock(makeProduct({ stockStatus: 'onbackorder' })), true, 'on backorder can still be bought')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: 3 })), true, 'managed with stock')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: 0, backorders: 'no' })), false, 'managed, none left, no backorders')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: -2, backorders: 'no' })), false, 'negative stock')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: null, backorders: 'no' })), false, 'managed without a count')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: 0, backorders: 'notify' })), true, 'backorders notify')
  t.equal(isInStock(makeProduct({ manageStock: true, stockQuantity: 0, backorders: 'yes' })), true, 'backorders yes')
})

test('stockAvailableFor', async (t) => {
  t.equal(stockAvailableFor(makeProduct()), Infinity, 'unmanaged')
  t.equal(stockAvailableFor(makeProduct({ manageStock: true, stockQuantity: 7 })), 7)
  t.equal(stockAvailableFor(makeProduct({ manageStock: true, stockQuantity: -3, backorders: 'yes' })), 0, 'never negative')
  t.equal(stockAvailableFor(makeProduct({ manageStock: true, stockQuantity: null })), 0, 'managed without a count')
})

test('isOnBackorder', async (t) => {
  const notify = makeProduct({ manageStock: true, stockQuantity: 3, backorders: 'notify' })
  t.equal(isOnBackorder(notify, 3), false, 'within stock')
  t.equal(isOnBackorder(notify, 4), true, 'one unit over stock')
  t.equal(isOnBackorder(makeProduct({ manageStock: true, stockQuantity: 3, backorders: 'yes' }), 5), true, 'backorders yes')
  t.equal(isOnBackorder(makeProduct({ manageStock: true, stockQuantity: 3, backorders: 'no' }), 5), false, 'backorders refused')
  t.equal(isOnBackorder(makeProduct({ stockStatus: 'onbackorder' }), 1), true, 'status on backorder')
  t.equal(isOnBackorder(makeProduct(), 500), false, 'unmanaged in stock')
})

test('backorderNotice', async (t) => {
  const notify = makeProduct({ name: 'Kettle', manageStock: true, stockQuantity: 2, backorders: 'notify' })
  t.equal(backorderNotice(notify, 2), '', 'nothing on backorder')
  t.equal(backorderNotice(notify, 3), DEFAULT_BACKORDER_NOTICE, 'default text')
  t.equal(DEFAULT_BACKORDER_NOTICE, 'Available on backorder')
  t.equal(backorderNotice({ ...notify, backorders: 'yes' }, 3), '', 'backorders yes shows no notice')
  t.equal(backorderNotice({ ...notify, backorders: 'no' }, 3), '', 'backorders no: never on backorder')
  t.equal(backorderNotice({ ...notify, backorderNotice: 'Ships in 3 weeks' }, 3), 'Ships in 3 weeks', 'own text')
  t.equal(
    backorderNotice({ ...notify, backorderNotice: '  <p>Ships <strong>in\n 3</strong>   weeks</p><script>alert(1)</script>' }, 3),
    'Ships in 3 weeks',
    'tags stripped, script content dropped, whitespace collapsed'
  )
  t.equal(backorderNotice({ ...notify, backorderNotice: 'Tom &amp; Jerry<br>restock' }, 3), 'Tom & Jerry restock', 'entities decoded, br is a space')
  t.equal(backorderNotice({ ...notify, backorderNotice: '<p>  </p>' }, 3), DEFAULT_BACKORDER_NOTICE, 'text empty after stripping: default')
  const long = 'x'.repeat(800)
  t.equal(backorderNotice({ ...notify, backorderNotice: long }, 3).length, 800, 'no length cut here')
  t.equal(backorderNotice(makeProduct({ stockStatus: 'onbackorder', backorders: 'notify' }), 1), DEFAULT_BACKORDER_NOTICE, 'status on backorder and notify')
})

test('catalog listing', async (t) => {
  const cases: Array<[Parameters<typeof makeProduct>[0], boolean, boolean, boolean]> = [
    // overrides, catalog, search, viewable
    [{ catalogVisibility: 'visible' }, true, true, true],
    [{ catalogVisibility: 'catalog' }, true, false, true],
    [{ catalogVisibility: 'search' }, false, true, true],
    [{ catalogVisibility: 'hidden' }, false, false, false],
    [{ catalogVisibility: 'visible', status: 'draft' }, false, false, false],
    [{ catalogVisibility: 'visible', status: 'private' }, false, false, false]
  ]
  for (const [overrides, catalog, search, viewable] of cases) {
    const p = makeProduct(overrides)
    const label = JSON.stringify(overrides)
    t.equal(isListedInCatalog(p), catalog, `catalog ${label}`)
    t.equal(isListedInSearch(p), search, `search ${label}`)
    t.equal(isViewable(p), viewable, `viewable ${label}`)
  }
})

test('lowStockRemaining', async (t) => {
  t.equal(lowStockRemaining(makeProduct({ manageStock: true, stockQuantity: 2, lowStockAmount: 3 })), 2, 'under the threshold')
  t.equal(lowStockRemaining(makeProduct({ manageStock: true, stockQuantity: 3, lowStockAmount: 3 })), 3, 'at the threshold')
  t.equal(lowStockRemaining(makeProduct({ manageStock: true, stockQuantity: 4, lowStockAmount: 3 })), null, 'above')
  t.equal(lowStockRemaining(makeProduct({ manageStock: true, stockQuantity: 2, lowStockAmount: null })), null, 'no threshold')
  t.equal(lowStockRemaining(makeProduct({ manageStock: false, stockQuantity: 2, lowStockAmount: 3 })), null, 'unmanaged')
  t.equal(lowStockRemaining(makeProduct({ manageStock: true, stockQuantity: -1, backorders: 'yes', lowStockAmount: 3 })), 0, 'never negative')
})
