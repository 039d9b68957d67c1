import type { Test } from 'tap'
import { demoSettings } from '../../../../../seed/demo-settings.ts'
import { login, USERS } from '../../../../helpers/security.ts'
import { onEveryBackend, saveBundles, Shopper, type Json } from './helpers.ts'

/**
 * The demo shop's bundle (seed/demo-settings.ts, "Head to toe": a hat, 101 Beanie or 103 Cap, and 102 Belt, 15 % off)
 * is charged on the units of complete bundles only, whatever path changed the cart: a login merge, `cart/update-item`,
 * `cart/remove-item`, the same changes in a `batch`; and the order placed from the cart charges what the cart showed.
 * Demo prices: Beanie 1800, Belt 5500 (15 %: 270 and 825 off, 1095 a bundle); 10 % tax, $5.00 flat shipping.
 */

const BUNDLE = 'head-to-toe'
const BEANIE = 101
const BELT = 102
/** What one complete bundle takes off: 15 % of a Beanie and of a Belt. */
const ONE_BUNDLE = 270 + 825

const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'San Francisco', state: 'CA', postcode: '94103', country: 'US', phone: '' }
const BILLING = { ...ADDRESS, email: 'ada@example.com' }

/** `{product id: [quantity, line_subtotal, line_total]}` of a cart's or an order's items. */
function lines (items: Json[]): Record<number, [number, string, string]> {
  return Object.fromEntries(items.map((item) => [item.id, [item.quantity, item.totals.line_subtotal, item.totals.line_total]]))
}

/** The Store API cart, checked against the drawer's figures: the discount, and the same total. */
async function cartOf (t: Test, shopper: Shopper, discount: number, what: string): Promise<Json> {
  const { cart } = await shopper.storeCart()
  const drawer = await shopper.drawerCart()
  t.equal(cart.totals.total_discount, String(discount), `${what}: the cart's discount`)
  t.equal(drawer.cartDiscount, String(discount), `${what}: the drawer shows the same discount`)
  t.equal(drawer.cartTotal, cart.totals.total_price, `${what}: the drawer's total is the cart's`)
  return cart
}

/** Places the cart through `POST checkout` and reads the order back: its items and totals. */
async function checkout (shopper: Shopper): Promise<Json> {
  const placed = await shopper.storeRequest('POST', 'checkout', { billing_address: BILLING, shipping_address: ADDRESS, payment_method: 'cod' })
  if (placed.statusCode !== 200) throw new Error(`checkout: ${placed.statusCode} ${placed.body}`)
  const { order_id: id, order_key: key } = placed.json() as { order_id: number, order_key: string }
  const order = await shopper.storeRequest('GET', `order/${id}?key=${encodeURIComponent(key)}&billing_email=${encodeURIComponent(BILLING.email)}`)
  if (order.statusCode !== 200) throw new Error(`order ${id}: ${order.statusCode} ${order.body}`)
  return order.json()
}

/** The order placed from `cart` charges what the cart showed: each line's total, the discount and the total. */
async function checkoutCharges (t: Test, shopper: Shopper, cart: Json, what: string): Promise<void> {
  const order = await checkout(shopper)
  t.same(lines(order.items), lines(cart.items), `${what}: the order's lines are the cart's`)
  t.equal(order.totals.total_discount, cart.totals.total_discount, `${what}: the order's discount is the cart's`)
  t.equal(order.totals.total_price, cart.totals.total_price, `${what}: the order's total is the cart's`)
}

/** A guest whose cart holds `count` complete demo bundles; the Beanie's and the Belt's line keys. */
async function withBundles (shopper: Shopper, count: number): Promise<{ beanie: string, belt: string }> {
  for (let i = 0; i < count; i++) {
    const added = await shopper.addBundle(BUNDLE, [BEANIE, BELT])
    if (added.statusCode !== 200) throw new Error(`bundle-builder/add: ${added.statusCode} ${added.body}`)
  }
  const { items } = (await shopper.storeCart()).cart as { items: Json[] }
  return { beanie: items.find((item) => item.id === BEANIE)!.key, belt: items.find((item) => item.id === BELT)!.key }
}

onEveryBackend('bundles: the demo bundle is charged on complete bundles only, through every path that changes a cart', async (t, { app }) => {
  await saveBundles(app, (demoSettings('pro') as { bundles: { enabled: boolean, bundles: unknown[] } }).bundles)

  t.test('login merge: a saved complete bundle and a guest\'s broken one with 50 Beanies charge one bundle', async (t) => {
    const session = await login(app, USERS.shopper)
    const saved = await Shopper.loggedIn(app, session)
    await withBundles(saved, 1)
    await cartOf(t, saved, ONE_BUNDLE, 'the saved cart')

    const guest = await Shopper.guest(app)
    const { beanie, belt } = await withBundles(guest, 1)
    await guest.remove(belt)
    await guest.update(beanie, 50)
    await cartOf(t, guest, 0, 'the guest\'s broken bundle')

    const merged = await app.inject({ method: 'POST', url: '/account/login', payload: USERS.shopper, headers: { 'cart-token': guest.token } })
    t.equal(merged.statusCode, 200)
    const after = await Shopper.loggedIn(app, { ...session, cookie: merged.cookies.map(({ name, value }) => `${name}=${value}`).join('; '), nonce: merged.json().nonce })
    const cart = await cartOf(t, after, ONE_BUNDLE, 'after the merge')
    t.same(lines(cart.items), {
      [BEANIE]: [51, String(51 * 1800), String(51 * 1800 - 270)],
      [BELT]: [1, '5500', String(5500 - 825)]
    }, 'one Beanie at 15 % off, fifty at full price; the Belt at 15 % off')
    await checkoutCharges(t, after, cart, 'after the merge')
  })

  t.test('update-item raising a bundle line from 5 to 200 keeps the discount of the 5 complete bundles', async (t) => {
    const shopper = await Shopper.guest(app)
    const { beanie } = await withBundles(shopper, 5)
    await cartOf(t, shopper, 5 * ONE_BUNDLE, 'five bundles')
    const raised = await shopper.update(beanie, 200)
    t.equal(raised.totals.total_discount, String(5 * ONE_BUNDLE), 'the update-item answer')
    const cart = await cartOf(t, shopper, 5 * ONE_BUNDLE, 'after the update')
    t.same(lines(cart.items), {
      [BEANIE]: [200, String(200 * 1800), String(200 * 1800 - 5 * 270)],
      [BELT]: [5, String(5 * 5500), String(5 * 5500 - 5 * 825)]
    }, 'five Beanies at 15 % off, 195 at full price')
    await checkoutCharges(t, shopper, cart, 'after the update')
  })

  t.test('remove-item of one member drops the discount of the rest', async (t) => {
    const shopper = await Shopper.guest(app)
    const { belt } = await withBundles(shopper, 2)
    const removed = await shopper.remove(belt)
    t.equal(removed.totals.total_discount, '0', 'the remove-item answer')
    const cart = await cartOf(t, shopper, 0, 'the Belt removed')
    t.same(lines(cart.items), { [BEANIE]: [2, '3600', '3600'] })
    await checkoutCharges(t, shopper, cart, 'the Belt removed')
  })

  t.test('a batch doing the same: a member raised to 200, an ordinary Belt added, the bundle\'s Belt removed', async (t) => {
    const shopper = await Shopper.guest(app)
    const { beanie, belt } = await withBundles(shopper, 5)
    const batch = await shopper.storeRequest('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/update-item', body: { key: beanie, quantity: 200 } },
        { path: '/wc/store/v1/cart/add-item', body: { id: BELT, quantity: 1 } },
        { path: '/wc/store/v1/cart/remove-item', body: { key: belt } }
      ]
    })
    t.equal(batch.statusCode, 207)
    const answers = batch.json().responses as Json[]
    t.same(answers.map((answer) => answer.status), [200, 201, 200])
    t.same(answers.map((answer) => answer.body.totals.total_discount), [String(5 * ONE_BUNDLE), String(5 * ONE_BUNDLE), '0'],
      'five bundles after the raise and after the ordinary Belt, none once the bundle\'s Belts are gone')
    t.same(lines(answers[0]!.body.items)[BEANIE], [200, String(200 * 1800), String(200 * 1800 - 5 * 270)], 'the raise: five Beanies at 15 % off')
    const cart = await cartOf(t, shopper, 0, 'after the batch')
    t.same(lines(cart.items), { [BEANIE]: [200, String(200 * 1800), String(200 * 1800)], [BELT]: [1, '5500', '5500'] })
    await checkoutCharges(t, shopper, cart, 'after the batch')
  })

  t.test('the order placed from a cart of complete and extra units charges the cart\'s total', async (t) => {
    const shopper = await Shopper.guest(app)
    const { beanie, belt } = await withBundles(shopper, 3)
    await shopper.update(beanie, 4)
    await shopper.update(belt, 2)
    await shopper.add(103)
    const cart = await cartOf(t, shopper, 2 * ONE_BUNDLE, 'two complete bundles of four Beanies and two Belts')
    // Items 20,000 less 2,190; their tax, line by line: 666 + 935 + 180; shipping 500 and its tax.
    t.equal(cart.totals.total_price, String(17_810 + 1_781 + 500 + 50), 'the items after the discount, 10 % tax, $5.00 shipping taxed')
    await checkoutCharges(t, shopper, cart, 'two bundles and extras')
  })
})
