import { test } from 'tap'
import { addedRoutes, specifiedRoutes } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { newCartToken } from '../../../helpers/security.ts'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SITE_URL, SVC } from '../../../helper.ts'

/** The Pro routes alone (with svc-free, which they declare, and what it declares). */
test('svc-pro alone: the Pro routes answer beside the Free ones', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-pro')
  t.same(app.svcRoutes.map((route) => `${route.method} ${route.path}`).sort(), [...specifiedRoutes('pro'), ...addedRoutes('pro')].sort(), 'every route of the Pro edition, and the ones it adds')

  const token = await newCartToken(app)
  const headers = { origin: SITE_URL, 'cart-token': token }
  const meter = await app.inject({ url: `${SVC}/shipping-meter`, headers })
  t.equal(meter.statusCode, 200, 'GET svc/v1/shipping-meter', { found: meter.body })
  const configs = await app.inject({ url: `${SVC}/bundle-builder/configs`, headers: { origin: SITE_URL } })
  t.equal(configs.statusCode, 200, 'the public bundle configs', { found: configs.body })
  t.equal((await app.inject({ url: `${SVC}/cart`, headers })).statusCode, 200, 'and the Free cart')
})

test('svc-pro does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('svc-pro'), ['svc-free'])
  await expectDependenciesRequired(t, 'svc-pro')
})
