import { test } from 'tap'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SITE_URL, STORE_API, SVC } from '../../../helper.ts'

/** The Store API extension alone (with the commerce and settings plugins it declares): `extensions.svc`. */
test('store-api-extension alone: the Store API cart and its items carry extensions.svc', async (t) => {
  const { app } = await buildPluginAlone(t, 'store-api-extension')
  t.ok(app.hasDecorator('drawerCart'), 'fastify.drawerCart')
  const first = await app.inject({ url: `${STORE_API}/cart`, headers: { origin: SITE_URL } })
  const added = await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: { origin: SITE_URL, 'cart-token': String(first.headers['cart-token']) }, payload: { id: 101, quantity: 2 } })
  t.equal(added.statusCode, 201, 'the platform adds to the cart', { found: added.body })
  const body = added.json()
  t.type(body.extensions.svc, 'object', 'extensions.svc on the cart')
  t.type(body.items[0].extensions.svc, 'object', 'and on its item')
  const cart = await app.inject({ url: `${STORE_API}/cart`, headers: { 'cart-token': String(added.headers['cart-token']) } })
  t.type(cart.json().extensions.svc, 'object', 'on GET cart too')
  t.equal((await app.inject({ url: `${SVC}/cart` })).statusCode, 404, 'no svc/v1 route comes with it')
})

test('store-api-extension does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('store-api-extension'), ['commerce', 'settings'])
  await expectDependenciesRequired(t, 'store-api-extension')
})
