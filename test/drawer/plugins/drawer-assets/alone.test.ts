import { test } from 'tap'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SVC } from '../../../helper.ts'

/** The drawer's browser assets alone (with the commerce and settings plugins they declare). */
test('drawer-assets alone: the script is served and every storefront page loads it', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-drawer-assets')
  const script = await app.inject({ url: '/assets/svc-drawer.js' })
  t.equal(script.statusCode, 200, 'GET /assets/svc-drawer.js')
  t.match(script.headers['content-type'], /javascript/)

  const page = await app.inject({ url: '/' })
  t.equal(page.statusCode, 200)
  t.match(page.body, /<script src="\/assets\/svc-drawer\.js\?v=[\w-]+" defer><\/script>/, 'the storefront page loads the drawer script')
  t.match(page.body, /<script type="application\/json" id="svc-drawer-config">/, 'with its configuration')
  t.equal((await app.inject({ url: `${SVC}/cart` })).statusCode, 404, 'no svc/v1 route comes with it')

  t.ok((await app.settings.save({ enabled: false })).ok)
  t.notMatch((await app.inject({ url: '/' })).body, 'svc-drawer.js', 'switched off: the page does not load it')
})

test('drawer-assets does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('svc-drawer-assets'), ['commerce', 'settings'])
  await expectDependenciesRequired(t, 'svc-drawer-assets')
})
