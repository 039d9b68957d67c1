import type { Test } from 'tap'
import { login, USERS } from '../../../../helpers/security.ts'
import { DEMO_BUNDLES, onEveryBackend, saveBundles, Shopper, type Json } from './helpers.ts'

/**
 * A bundle's discount applies only to the units that form complete bundles, computed as line adjustments on every
 * pricing (nothing is stored on the lines), so the Store API's totals and the drawer's cart agree whatever changed
 * the cart (its own routes, a login merge); variable products as members. Demo shop prices: 10 % tax, $5.00 flat
 * shipping; the "starter" bundle is 10 % off (Beanie 1800, Belt 5500).
 */

/** `[product id, quantity, line_subtotal, line_total]` of each Store API item. */
const lines = (cart: Json) => cart.items.map((item: Json) => [item.id, item.quantity, item.totals.line_subtotal, item.totals.line_total])

/** The Store API cart and the drawer's cart agree on the discount and the total. */
async function agree (t: Test, shopper: Shopper, discount: string, what: string): Promise<Json> {
  const { cart } = await shopper.storeCart()
  const drawer = await shopper.drawerCart()
  t.equal(cart.totals.total_discount, discount, `${what}: Store API total_discount`)
  t.equal(drawer.cartDiscount, discount, `${what}: the drawer's discount`)
  t.equal(drawer.cartTotal, cart.totals.total_price, `${what}: the drawer's total is the Store API's`)
  return cart
}

onEveryBackend('bundles: the discount only while the bundle is complete', async (t, { app }) => {
  t.test('removing one bundle line removes the discount from the rest, in the answer and afterwards', async (t) => {
    const shopper = await Shopper.guest(app)
    t.equal((await shopper.addBundle('starter', [101, 102])).statusCode, 200)
    await agree(t, shopper, '730', 'complete')
    const [, belt] = (await shopper.storeCart()).cart.items
    const removed = await shopper.store.request('POST', 'cart/remove-item', { key: belt.key })
    t.equal(removed.statusCode, 200)
    t.same(lines(removed.json()), [[101, 1, '1800', '1800']], 'the remove-item answer already has the Beanie at full price')
    t.equal(removed.json().totals.total_discount, '0')
    const cart = await agree(t, shopper, '0', 'the Belt removed')
    t.equal(cart.totals.total_price, String(1800 + 180 + 500 + 50))
    t.equal(removed.headers['cart-hash'], (await shopper.storeCart()).hash, 'the answer\'s Cart-Hash is the cart\'s')
  })

  t.test('quantities: more of one line keeps one bundle, equal quantities make two, a line at zero breaks it', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.addBundle('starter', [101, 102])
    const [beanie, belt] = (await shopper.storeCart()).cart.items
    const raised = await shopper.update(beanie.key, 2)
    t.same(lines(raised), [[101, 2, '3600', '3420'], [102, 1, '5500', '4950']], 'the second Beanie is not part of a bundle')
    await agree(t, shopper, '730', 'one complete bundle')
    const both = await shopper.update(belt.key, 2)
    t.same(lines(both), [[101, 2, '3600', '3240'], [102, 2, '11000', '9900']], 'two complete bundles')
    await agree(t, shopper, '1460', 'two complete bundles')
    const lowered = await shopper.update(beanie.key, 1)
    t.same(lines(lowered), [[101, 1, '1800', '1620'], [102, 2, '11000', '10450']], 'back to one')
    await shopper.remove(beanie.key)
    t.same(lines((await agree(t, shopper, '0', 'no Beanie'))), [[102, 2, '11000', '11000']])
    // Adding the bundle again completes it with the Belts already there.
    await shopper.addBundle('starter', [101, 102])
    t.same(lines((await agree(t, shopper, '730', 'added again'))), [[102, 3, '16500', '15950'], [101, 1, '1800', '1620']], 'one complete bundle of three Belts and a Beanie')
  })

  t.test('raising one bundle line to 200 adds no bundle: the discount stays that of the complete bundles', async (t) => {
    const shopper = await Shopper.guest(app)
    for (let i = 0; i < 5; i++) await shopper.addBundle('starter', [101, 102])
    await agree(t, shopper, String(5 * 730), 'five complete bundles')
    const [beanie] = (await shopper.storeCart()).cart.items
    const raised = await shopper.update(beanie.key, 200)
    t.same(lines(raised), [[101, 200, '360000', String(360000 - 5 * 180)], [102, 5, '27500', String(27500 - 5 * 550)]], 'only five Beanies discounted')
    await agree(t, shopper, String(5 * 730), 'still five bundles')
  })

  t.test('a login merge carries no discount to units that form no bundle', async (t) => {
    const session = await login(app, USERS.shopper)
    const saved = await Shopper.loggedIn(app, session)
    await saved.addBundle('starter', [101, 102])
    await agree(t, saved, '730', 'the saved cart: one complete bundle')

    const guest = await Shopper.guest(app)
    await guest.addBundle('starter', [101, 102])
    const [beanie, belt] = (await guest.storeCart()).cart.items
    await guest.remove(belt.key)
    await guest.update(beanie.key, 50)
    const merged = await app.inject({ method: 'POST', url: '/account/login', payload: USERS.shopper, headers: { 'cart-token': guest.token } })
    t.equal(merged.statusCode, 200)
    const after = await Shopper.loggedIn(app, { ...session, cookie: merged.cookies.map(({ name, value }) => `${name}=${value}`).join('; '), nonce: merged.json().nonce })
    const cart = await agree(t, after, '730', 'after the merge')
    t.same(lines(cart).map(([id, quantity]: number[]) => [id, quantity]).sort(), [[101, 51], [102, 1]], 'the guest\'s Beanies joined the saved bundle line')
    t.same(lines(cart).find(([id]: number[]) => id === 101).slice(2), ['91800', String(91800 - 180)], 'one Beanie at 10 % off, fifty at full price')
  })

  t.test('an ordinary line of the same product does not complete a bundle', async (t) => {
    const shopper = await Shopper.guest(app)
    await shopper.addBundle('starter', [101, 102])
    const [, belt] = (await shopper.storeCart()).cart.items
    await shopper.add(102)
    await shopper.remove(belt.key)
    t.same(lines(await agree(t, shopper, '0', 'the bundle\'s Belt gone')), [[101, 1, '1800', '1800'], [102, 1, '5500', '5500']])
  })

  t.test('a variable product as a member: its variation added with the chosen attributes and priced', async (t) => {
    await saveBundles(app, { enabled: true, bundles: [...DEMO_BUNDLES, { id: 'hoodie', title: 'Hoodie and cap', description: '', discount_percent: 20, slots: [{ label: 'Hoodie', product_ids: [106] }, { label: 'Cap', product_ids: [103] }] }] })
    t.teardown(() => saveBundles(app, { enabled: true, bundles: DEMO_BUNDLES }))
    const shopper = await Shopper.guest(app)
    const configs = (await shopper.svc('GET', 'bundle-builder/configs')).json()
    t.same(configs.find((bundle: Json) => bundle.id === 'hoodie')?.slots[0].products.map((product: Json) => product.id), [106], 'offered with the variable product')

    const noChoice = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'hoodie', product_ids: [106, 103] })
    t.equal(noChoice.statusCode, 400, 'no attributes chosen', { body: noChoice.body })
    t.match(noChoice.json(), { code: String, message: String, data: { status: 400 } })
    const wrong = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'hoodie', product_ids: [106, 103], variations: [{ slot: 0, attributes: [{ attribute: 'pa_color', value: 'purple' }, { attribute: 'pa_size', value: 'large' }] }] })
    t.equal(wrong.statusCode, 400, 'a colour the Hoodie does not come in')
    const misplaced = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'hoodie', product_ids: [106, 103], variations: [{ slot: 1, attributes: [] }] })
    t.equal(misplaced.statusCode, 400, 'attributes for a simple product\'s slot')
    t.same((await shopper.storeCart()).cart.items, [], 'nothing added by the refusals')

    const added = await shopper.svc('POST', 'bundle-builder/add', { bundle_id: 'hoodie', product_ids: [106, 103], variations: [{ slot: 0, attributes: [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }] }] })
    t.equal(added.statusCode, 200, 'added', { body: added.body })
    const cart = await agree(t, shopper, String(960 + 360), 'the Hoodie bundle')
    t.same(lines(cart), [[1062, 1, '4800', '3840'], [103, 1, '1800', '1440']], 'Hoodie - Blue, Large at 20 % off, the Cap too')
    t.same(cart.items[0].variation, [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'large' }])
    await shopper.remove(cart.items[1].key)
    t.same(lines(await agree(t, shopper, '0', 'the Cap removed')), [[1062, 1, '4800', '4800']])
  })
})
