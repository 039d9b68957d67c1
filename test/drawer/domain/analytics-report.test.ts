import { test } from 'tap'
import { averageOf, csvCell, csvTable, decimalAmount, isLineOrigin, LINE_ORIGINS, rateOf } from '../../../drawer/domain/analytics-report.ts'
import { addToCart, setLineQuantity } from '../../../kernel/domain/cart.ts'
import { orderFromCart, PAYMENT_METHODS } from '../../../kernel/domain/checkout.ts'
import { markOrigin } from '../../../kernel/domain/marks.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { CartData, Product } from '../../../kernel/domain/types.ts'
import { makeConfig, makeProduct, NOW } from '../../kernel/domain/fixtures.ts'

/** The drawer's line marks as orders record them, and the report's arithmetic and CSV. */

function added (cart: CartData, product: Product, quantity: number, mark?: 'recommendation' | 'spotlight') {
  const result = addToCart(cart, { product, parent: product, quantity, ...(mark === undefined ? {} : { mark }) })
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

test('a line remembers the drawer control that created it by its mark, and the order records the control', async (t) => {
  const belt = makeProduct({ id: 1, regularPrice: 5500 })
  const cap = makeProduct({ id: 2, regularPrice: 1800 })
  const empty: CartData = { lines: [], coupons: [] }
  const drawer = added(empty, belt, 1, 'recommendation')
  t.equal(drawer.cart.lines[0]!.mark, 'recommendation', 'a line the drawer creates is marked')
  const own = added(drawer.cart, cap, 1)
  t.equal(own.cart.lines.find((line) => line.productId === 2)!.mark, undefined, 'the shopper\'s own add is not')
  t.notOk('mark' in own.cart.lines.find((line) => line.productId === 2)!, 'and carries no mark key at all (storage keeps no undefined)')

  const again = added(drawer.cart, belt, 2, 'recommendation')
  t.same(again.cart.lines.map((line) => [line.quantity, line.mark]), [[3, 'recommendation']], 'the drawer adding more of its line: the same line')
  const apart = added(own.cart, cap, 1, 'spotlight')
  t.same(apart.cart.lines.filter((line) => line.productId === 2).map((line) => [line.quantity, line.mark]), [[1, undefined], [1, 'spotlight']],
    'a drawer add of a product the shopper holds is a line of its own: the shopper\'s line is never claimed')

  const changed = setLineQuantity(drawer.cart, drawer.key, 4, belt)
  t.ok(changed.ok && changed.value.lines[0]!.mark === 'recommendation', 'a quantity change keeps it')
})

test('the order\'s lines carry the cart lines\' origins', async (t) => {
  const belt = makeProduct({ id: 1, regularPrice: 5500 })
  const cap = makeProduct({ id: 2, regularPrice: 1800 })
  const cart = added(added({ lines: [], coupons: [] }, belt, 1, 'recommendation').cart, cap, 2).cart
  const priced = priceCart(cart, new Map([[1, belt], [2, cap]]), new Map(), makeConfig(), NOW)
  const billing = { firstName: 'A', lastName: 'B', company: '', address1: 'x', address2: '', city: 'y', state: '', postcode: '1', country: 'GB', phone: '', email: 'a@b.example' }
  const order = orderFromCart(priced, { billing, shipping: billing, customerNote: '', paymentMethod: PAYMENT_METHODS[0]!, customerId: null }, { key: 'wc_order_x', currency: 'USD', now: NOW })
  t.same(order.lines.map((line) => [line.productId, line.origin, line.total]), [[1, 'recommendation', 5500], [2, undefined, 3600]])
  t.notOk('origin' in order.lines[1]!, 'no origin key on the shopper\'s line')
})

test('origins, and the control each mark names', async (t) => {
  t.same(LINE_ORIGINS, ['recommendation', 'spotlight', 'addon', 'bundle'])
  t.same(['recommendation', 'spotlight', 'addon:gift-wrap', 'bundle:kit', 'reward:t1', undefined, 'other'].map(markOrigin),
    ['recommendation', 'spotlight', 'addon', 'bundle', undefined, undefined, undefined], 'a gift, an unmarked line and an unknown mark name no control')
  t.ok(LINE_ORIGINS.every(isLineOrigin))
  t.notOk(isLineOrigin('store_api'))
})

test('averageOf: whole minor units, halves up; nothing counted is 0', async (t) => {
  t.equal(averageOf(1000n, 4), 250n)
  t.equal(averageOf(1000n, 3), 333n, '333.33 down')
  t.equal(averageOf(2000n, 3), 667n, '666.67 up')
  t.equal(averageOf(5n, 2), 3n, '2.5 up')
  t.equal(averageOf(0n, 5), 0n)
  t.equal(averageOf(1234n, 0), 0n, 'no orders')
  t.equal(averageOf(18_014_398_509_481_985n, 2), 9_007_199_254_740_993n, 'exact beyond 2^53')
})

test('rateOf', async (t) => {
  t.equal(rateOf(1, 4), 0.25)
  t.equal(rateOf(3, 0), 0, 'nothing to divide by: 0')
})

test('decimalAmount: major units with a dot', async (t) => {
  t.equal(decimalAmount(1250n, 2), '12.50')
  t.equal(decimalAmount(5n, 2), '0.05')
  t.equal(decimalAmount(0n, 2), '0.00')
  t.equal(decimalAmount(123_456n, 3), '123.456')
  t.equal(decimalAmount(700n, 0), '700', 'a currency without minor units (JPY)')
  t.equal(decimalAmount(-1250n, 2), '-12.50')
  t.equal(decimalAmount(9_007_199_254_740_993n, 2), '90071992547409.93')
})

test('csvCell: formulas defused, quoting as RFC 4180', async (t) => {
  for (const [value, expected] of [
    ['Belt', 'Belt'],
    ['=1+1', '\'=1+1'],
    ['+49 30 1234', '\'+49 30 1234'],
    ['-2', '\'-2'],
    ['@SUM(A1:A2)', '\'@SUM(A1:A2)'],
    ['\tTab', '\'\tTab'],
    ['\rReturn', '"\'\rReturn"'],
    ['Belt, brown', '"Belt, brown"'],
    ['The "best" belt', '"The ""best"" belt"'],
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ['two\nlines', '"two\nlines"'],
    ['a=b', 'a=b'],
    ['', '']
  ] as const) t.equal(csvCell(value), expected, JSON.stringify(value))
  t.equal(csvCell(-5), '-5', 'numbers are numbers')
  t.equal(csvCell(12n), '12')
})

test('csvTable: CRLF after every row', async (t) => {
  t.equal(csvTable([['Date', 'Orders'], ['2026-06-01', 3]]), 'Date,Orders\r\n2026-06-01,3\r\n')
  t.equal(csvTable([]), '')
})
