import { test } from 'tap'
import { addToCart, emptyCart, setLineQuantity } from '../../../kernel/domain/cart.ts'
import { cartHash } from '../../../kernel/domain/cart-hash.ts'
import { priceCart } from '../../../kernel/domain/totals.ts'
import type { CartData } from '../../../kernel/domain/types.ts'
import { makeConfig, makeProduct, NOW } from './fixtures.ts'

const mug = makeProduct({ id: 1, regularPrice: 1000 })
const products = new Map([[1, mug]])

function priced (cart: CartData, price = 1000) {
  return priceCart(cart, new Map([[1, { ...mug, regularPrice: price }]]), new Map(), makeConfig(), NOW)
}

test('cartHash', async (t) => {
  t.equal(cartHash(priced(emptyCart())), '', 'empty cart')
  const added = addToCart(emptyCart(), { product: mug, parent: mug, quantity: 1 })
  if (!added.ok) throw new Error(added.error.message)
  const one = cartHash(priced(added.value.cart))
  t.match(one, /^[0-9a-f]{32}$/, 'md5 hex')
  t.equal(cartHash(priced(added.value.cart)), one, 'stable')
  const two = setLineQuantity(added.value.cart, added.value.key, 2, mug)
  if (!two.ok) throw new Error(two.error.message)
  t.not(cartHash(priced(two.value)), one, 'changes with the quantity')
  t.not(cartHash(priced(added.value.cart, 1200)), one, 'changes with the total')
  t.equal(cartHash(priceCart({ lines: [{ ...added.value.cart.lines[0]!, productId: 5 }], coupons: [] }, products, new Map(), makeConfig(), NOW)),
    '', 'a cart whose only line vanished counts as empty')
})
