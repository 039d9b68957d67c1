import { test } from 'tap'
import { specifiedRoutes } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { newCartToken } from '../../../helpers/security.ts'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SITE_URL, SVC } from '../../../helper.ts'

/** The Free routes alone (with the plugins svc-free declares): the drawer's svc/v1, nothing of Pro, no assets. */
test('svc-free alone: GET svc/v1/cart answers with a Cart-Token, every Free route exists and no Pro route', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-free')
  t.same(app.svcRoutes.map((route) => `${route.method} ${route.path}`).sort(), [...specifiedRoutes('free')].sort(), 'the Free routes of the specification')

  const token = await newCartToken(app)
  const cart = await app.inject({ url: `${SVC}/cart`, headers: { origin: SITE_URL, 'cart-token': token } })
  t.equal(cart.statusCode, 200, 'GET svc/v1/cart', { found: cart.body })
  t.match(cart.json(), { cartItems: [], cartCount: 0 }, 'the empty cart')
  const noToken = await app.inject({ url: `${SVC}/cart`, headers: { origin: SITE_URL } })
  t.equal(noToken.json().code, 'svc_invalid_cart_token', 'without a Cart-Token the security rules refuse it')

  const meter = await app.inject({ url: `${SVC}/shipping-meter`, headers: { origin: SITE_URL, 'cart-token': token } })
  t.equal(meter.statusCode, 404, 'no Pro route')
  t.equal(meter.json().code, 'svc_not_found')
  t.equal((await app.inject({ url: '/assets/svc-drawer.js' })).statusCode, 404, 'no drawer script')
  t.equal((await app.inject({ url: '/admin/cart-drawer/' })).statusCode, 404, 'no admin screen')
})

test('svc-free does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('svc-free'), ['security', 'settings', 'store-api-extension'])
  await expectDependenciesRequired(t, 'svc-free')
})
