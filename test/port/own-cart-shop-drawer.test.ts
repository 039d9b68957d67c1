import type { FastifyInstance, InjectOptions } from 'fastify'
import { test } from 'tap'
import { CartActionError } from '../../app.ts'
import { buildInkShop } from '../../examples/own-cart-shop/app.ts'

/**
 * The drawer's Pro widgets on the second example host (examples/own-cart-shop/, the demo's settings): every change
 * goes through the shop's own `carts.change`, and after each one the drawer's cart total is the shop's own checkout
 * total (`GET /checkout/total`). Figures: Notebook €9.00, Pen €24.00, Ink €7.00, Gift Wrap €3.00, Washi Tape €4.00;
 * the pen-and-ink bundle 20 % off both; tiers: free shipping from €40, 10 % off from €60, a bookmark from €80.
 */

type Json = Record<string, any>
const URL = 'http://ink.test'

async function guest (app: FastifyInstance) {
  let token = String((await app.inject({ method: 'GET', url: '/api/cart' })).headers['cart-token'])
  const svc = async (method: InjectOptions['method'], path: string, payload?: unknown): Promise<Json> => {
    const response = await app.inject({ method, url: `/api/svc/v1/${path}`, headers: { origin: URL, 'cart-token': token }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) })
    if (response.statusCode >= 300) throw new Error(`${String(method)} ${path}: ${response.statusCode} ${response.body}`)
    token = String(response.headers['cart-token'] ?? token)
    return response.json()
  }
  const checkout = async (): Promise<Json> => (await app.inject({ method: 'GET', url: '/checkout/total', headers: { 'cart-token': token } })).json()
  return { svc, checkout, key: () => token.split('.')[0]! }
}

test('the own-cart shop in Pro: the drawer\'s total is the checkout\'s after every change', async (t) => {
  const { app, shop } = await buildInkShop({ secret: 'an-own-cart-test-secret-of-at-least-32-bytes', admin: { email: 'a@ink.test', password: 'pw-pw-pw-pw' }, homeUrl: URL, edition: 'pro' })
  t.teardown(() => app.close())
  await app.ready()
  const shopper = await guest(app)
  const same = async (cart: Json, expected: number, what: string) => {
    const checkout = await shopper.checkout()
    t.equal(Number(cart.cartTotal), checkout.total, `${what}: the drawer's total is the checkout's`)
    t.equal(checkout.total, expected, `${what}: ${expected}`)
  }

  let cart = await shopper.svc('POST', 'store/cart/add-item', { id: 1, quantity: 1 })
  await same(await shopper.svc('GET', 'cart'), 900 + 490, 'a notebook')

  cart = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'pen-and-ink', product_ids: [2, 3] })
  // 900 + (2400 + 700) × 0.8 = 3380, under €40: shipping charged.
  await same(cart, 3380 + 490, 'the bundle')
  t.same(cart.cartItems.map((item: Json) => [item.product_id, item.totals.line_total]), [[1, '900'], [2, '1920'], [3, '560']], 'the bundle lines 20 % off')

  cart = await shopper.svc('POST', 'smart-addons/toggle', { addon_id: 'gift-wrap', active: true })
  // 3680 after discounts: still under €40.
  await same(cart, 3680 + 490, 'the add-on')
  cart = await shopper.svc('POST', 'spotlight/add', { product_id: 8 })
  // 4080: free shipping.
  await same(cart, 4080, 'the spotlight offer, free shipping')
  t.equal(cart.cartShipping, '0')

  const notebook = cart.cartItems.find((item: Json) => item.product_id === 1).key
  cart = await shopper.svc('POST', 'store/cart/update-item', { key: notebook, quantity: 3 })
  // 2700 + 2480 + 300 + 400 = 5880: still under the 10 % tier.
  await same(await shopper.svc('GET', 'cart'), 5880, 'three notebooks')
  await shopper.svc('POST', 'store/cart/update-item', { key: notebook, quantity: 4 })
  // 6780 reaches 10 % off: 6780 − 678 = 6102.
  cart = await shopper.svc('GET', 'cart')
  await same(cart, 6102, 'the discount tier')
  t.same(cart.coupons.map((coupon: Json) => coupon.code), ['reward_ten-off'])

  await shopper.svc('POST', 'coupon', { code: 'paper5' })
  // 6780 − 500 = 6280 (the tier's basis after coupons), 10 % of it: 628 → 5652.
  await same(await shopper.svc('GET', 'cart'), 5652, 'a fixed coupon before the tier')
  await shopper.svc('DELETE', 'coupon', { code: 'paper5' })
  await shopper.svc('POST', 'store/cart/update-item', { key: notebook, quantity: 6 })
  // 8580 reaches the bookmark: its line at zero; 8580 − 858 = 7722.
  cart = await shopper.svc('GET', 'cart')
  await same(cart, 7722, 'the gift tier')
  t.ok(cart.cartItems.some((item: Json) => item.product_id === 7 && item.totals.line_total === '0'), 'the bookmark at zero')

  await shopper.svc('POST', 'store/cart/update-item', { key: notebook, quantity: 1 })
  cart = await shopper.svc('GET', 'cart')
  t.notOk(cart.cartItems.some((item: Json) => item.product_id === 7), 'below the tier the bookmark goes')
  await same(cart, 4080, 'back down')

  t.test('change: a list applied together or not at all', async (t) => {
    const key = shopper.key()
    const before = await shop.carts.get(key)
    const refused = await shop.carts.change(key, [{ type: 'add', id: 4, quantity: 1 }, { type: 'applyCoupon', code: 'nope' }]).catch((error: unknown) => error)
    t.ok(refused instanceof CartActionError, 'refused')
    t.equal((refused as CartActionError).changeIndex, 1, 'naming the second change')
    t.equal((await shop.carts.get(key)).hash, before.hash, 'nothing changed')
    const both = await shop.carts.change(key, [{ type: 'add', id: 4, quantity: 1, mark: 'extra:pencils' }, { type: 'add', id: 4, quantity: 1, mark: 'extra:pencils', ifAbsent: true }])
    t.same(both.stored?.data.lines.filter((line) => line.productId === 4).map((line) => [line.quantity, line.mark]), [[1, 'extra:pencils']], 'ifAbsent adds nothing the second time')
    const removed = await shop.carts.change(key, [{ type: 'removeMarked', mark: 'extra:pencils' }])
    t.notOk(removed.stored?.data.lines.some((line) => line.productId === 4), 'removeMarked')
  })

  t.test('the lock: concurrent adds to one cart all count', async (t) => {
    const key = shopper.key()
    const qty = (await shop.carts.get(key)).priced.lines.find(({ line }) => line.productId === 9)?.line.quantity ?? 0
    await Promise.all(Array.from({ length: 10 }, () => shop.carts.addItem(key, { id: 9, quantity: 1, variation: {} })))
    t.equal((await shop.carts.get(key)).priced.lines.find(({ line }) => line.productId === 9)?.line.quantity, qty + 10)
  })
})
