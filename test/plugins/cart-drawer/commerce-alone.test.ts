import { test } from 'tap'
import { commercePlugin } from '../../../plugins/cart-drawer/index.ts'
import { buildPlatform, buildPluginAlone, declaredDependencies, SVC } from '../../helper.ts'

/** The commerce plugin alone over the reference platform: the port and the drawer's stores, no route. */
test('commerce alone: decorates the commerce port, the drawer stores and secrets, and adds no route', async (t) => {
  const { app, storage } = await buildPluginAlone(t, 'commerce')
  t.equal(app.commerce, app.shop.commerce, "fastify.commerce is the platform's port")
  t.equal(app.drawerStores.settings, storage, 'the settings store as given')
  t.equal(app.drawerStores.analytics, storage, 'the analytics store as given')
  t.equal(app.drawerSecrets.length, 1, 'the secrets as given')
  t.notOk(app.hasDecorator('settings'), 'no other drawer plugin came with it')
  t.equal((await app.inject({ url: `${SVC}/cart` })).statusCode, 404, 'no svc/v1 route')
  t.equal((await app.inject({ url: '/wp-json/wc/store/v1/cart' })).statusCode, 200, 'the platform answers as before')
})

test('commerce declares no dependency; a secret shorter than 32 bytes stops the start', async (t) => {
  t.same(declaredDependencies('commerce'), [], 'no declared dependency')
  const host = await buildPlatform(t)
  host.app.register(commercePlugin, { commerce: host.app.shop.commerce, stores: { settings: host.storage, analytics: host.storage }, secrets: ['short'] })
  await t.rejects(async () => { await host.app.ready() }, /secrets/, 'refused at start')
})
