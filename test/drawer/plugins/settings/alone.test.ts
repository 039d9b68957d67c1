import { test } from 'tap'
import { defaultSettings, settingsPlugin } from '../../../../drawer/plugins/settings/index.ts'
import { buildPlatform, buildPluginAlone, declaredDependencies } from '../../../helper.ts'

/** The settings plugin alone: it declares no dependency and takes its store as an option. */
test('settings alone: fastify.settings gives the defaults, and saves into the store it was given', async (t) => {
  const { app, storage } = await buildPluginAlone(t, 'settings')
  t.notOk(app.hasDecorator('commerce'), 'registered without the commerce plugin')
  const { settings, version } = await app.settings.get()
  t.same(settings, defaultSettings(), 'the defaults')
  t.equal(version, 0, 'nothing saved yet')
  const saved = await app.settings.save({ drawer_config: { position: 'left' } })
  t.ok(saved.ok, 'a change is saved')
  t.match((await storage.getSettings())?.document, { drawer_config: { position: 'left' } }, 'into the store given as `storage`')
  t.equal((await app.settings.get()).settings.drawer_config.position, 'left', 'and read back')
})

test('settings with the commerce plugin reads the drawer settings store', async (t) => {
  const { app, storage } = await buildPluginAlone(t, 'store-api-extension')
  t.equal(app.drawerStores.settings, storage)
  t.ok((await app.settings.save({ enabled: false })).ok)
  t.match((await storage.getSettings())?.document, { enabled: false }, 'saved into drawerStores.settings')
})

test('settings declares no dependency; without the commerce plugin and without `storage` it does not start', async (t) => {
  t.same(declaredDependencies('settings'), [], 'no declared dependency')
  const { app } = await buildPlatform(t)
  app.register(settingsPlugin)
  await t.rejects(async () => { await app.ready() }, /settings plugin: pass `storage`, or register the commerce plugin first/)
})
