import type { InjectOptions } from 'fastify'
import { asAdmin, asGuest, expectError, expectNoStore, login, USERS } from '../../../helpers/security.ts'
import { adminRequest, all, buildProApp, condition, configure, onEveryBackend, Shopper, svcRequest, type Json } from './helpers.ts'

/**
 * `GET drawer-data` in the Pro edition (design §3.7: by default every section the edition has) and the Pro paths in
 * the Free edition (they answer 404).
 */

/** Every Pro row of specification §4.2, with what a request of its access group sends. */
const PRO_ROUTES: Array<{ method: InjectOptions['method'], path: string, access: 'cart' | 'admin' | 'public', payload?: Json }> = [
  { method: 'GET', path: 'shipping-meter', access: 'cart' },
  { method: 'GET', path: 'smart-addons', access: 'cart' },
  { method: 'POST', path: 'smart-addons/toggle', access: 'cart', payload: { addon_id: 'gift-wrap', active: true } },
  { method: 'GET', path: 'bundle-builder/companions?product_id=101', access: 'cart' },
  { method: 'GET', path: 'bundle-builder/configs', access: 'public' },
  { method: 'POST', path: 'bundle-builder/add', access: 'cart', payload: { bundle_id: 'starter', product_ids: [101, 103] } },
  { method: 'POST', path: 'spotlight/add', access: 'cart', payload: { product_id: 104 } },
  { method: 'POST', path: 'analytics/events', access: 'cart', payload: { events: [{ type: 'drawer_open' }] } },
  { method: 'GET', path: 'analytics/summary?from=2026-06-01&to=2026-06-30', access: 'admin' },
  { method: 'GET', path: 'analytics/export?from=2026-06-01&to=2026-06-30', access: 'admin' },
  { method: 'DELETE', path: 'analytics/reset', access: 'admin' },
  { method: 'GET', path: 'products/search?q=cap', access: 'admin' },
  { method: 'GET', path: 'conditions/types', access: 'admin' }
]

const SECTIONS = ['cart', 'recommendations', 'shipping_meter', 'smart_addons', 'spotlight']

onEveryBackend('GET drawer-data in Pro; the Pro paths in Free', async (t, { app, storage }) => {
  t.test('by default every section: cart, recommendations, shipping_meter, smart_addons, spotlight', async (t) => {
    await configure(t, app, {
      smart_addons: { addons: [{ id: 'gift-wrap', product_id: 116, label: 'Gift wrap', description: '', conditions: all(condition('cart_subtotal', 'gte', 1000)) }] },
      spotlight: { enabled: true, product_id: 104, title: 'Summer special', text: '', conditions: all() }
    })
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    await shopper.ok('POST', 'smart-addons/toggle', { addon_id: 'gift-wrap', active: true })

    const response = await shopper.svc('GET', 'drawer-data')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    const data = response.json()
    t.same(Object.keys(data), SECTIONS, 'one key per section, in order')
    t.same(data.cart, await shopper.ok('GET', 'cart'), 'cart: GET cart')
    t.same(data.recommendations, await shopper.ok('GET', 'recommendations'), 'recommendations: GET recommendations')
    t.same(data.shipping_meter, await shopper.ok('GET', 'shipping-meter'), 'shipping_meter: GET shipping-meter')
    t.same(data.smart_addons, await shopper.ok('GET', 'smart-addons'), 'smart_addons: GET smart-addons')
    t.match(data.spotlight, { title: 'Summer special', product: { id: 104 }, in_cart: false }, 'spotlight: the offer')
    t.match(data, { cart: { cartItems: [{ product_id: 101 }, { product_id: 116 }] }, shipping_meter: { enabled: false, reached: false }, smart_addons: [{ id: 'gift-wrap', active: true }] })
    t.equal(data.cart.optionalLockedKeys[0], data.smart_addons[0].key, 'the sections agree on the add-on line')
  })

  t.test('fields= picks Pro sections; the spotlight is null while switched off', async (t) => {
    const shopper = await Shopper.guest(app)
    const data = await shopper.ok('GET', 'drawer-data?fields=spotlight,shipping_meter')
    t.same(Object.keys(data).sort(), ['shipping_meter', 'spotlight'])
    t.equal(data.spotlight, null)
    t.match(data.shipping_meter, { enabled: false, threshold: '0', basis: '0' }, 'no reward tier by default')
    expectError(t, await shopper.svc('GET', 'drawer-data?fields=spotlight,bundles'), 400, 'svc_invalid_params', 'an unknown section')
  })

  t.test('the Pro paths in the Free edition answer 404 (a Free app on the same database)', async (t) => {
    const free = await buildProApp(t, storage, 'free')
    const shopper = await Shopper.guest(free.app)
    await shopper.add(101)
    const headersFor = (access: string) => access === 'cart' ? asGuest(shopper.token) : access === 'admin' ? asAdmin(free.admin) : {}

    for (const route of PRO_ROUTES) {
      const response = await svcRequest(free.app, route.method, route.path, headersFor(route.access), route.payload)
      expectError(t, response, 404, 'svc_not_found', `Free: ${String(route.method)} ${route.path}`)
    }
    const logged = await login(free.app, USERS.shopper)
    expectError(t, await svcRequest(free.app, 'GET', 'conditions/types', asAdmin(logged)), 404, 'svc_not_found', 'Free: a shopper asking for conditions/types')

    t.same(Object.keys(await shopper.ok('GET', 'drawer-data')), ['cart', 'recommendations'], 'Free drawer-data: only the Free sections')
    t.same(await shopper.ok('GET', 'drawer-data?fields=shipping_meter,smart_addons,spotlight'), {}, 'Pro sections asked for by name are left out')
    t.equal((await adminRequest(free, 'GET', 'settings')).statusCode, 200, 'the Free admin routes answer')
    t.same((await shopper.storeCart()).cart.extensions.svc.optional_locked_keys, [], 'no locked lines in Free')
  })
})
