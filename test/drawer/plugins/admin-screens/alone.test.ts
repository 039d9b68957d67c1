import { test } from 'tap'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SVC } from '../../../helper.ts'

/** The admin screens alone (with the commerce and settings plugins they declare). */
test('admin-screens alone: a guest gets the login form, and the screens\' files are served', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-admin-screens')
  const page = await app.inject({ url: '/admin/cart-drawer/' })
  t.equal(page.statusCode, 401, 'the settings screen asks a guest to log in')
  t.match(page.headers['content-type'], /text\/html/)
  t.match(page.body, /<form/, 'with the login form')
  t.equal((await app.inject({ url: '/admin/cart-drawer' })).headers.location, '/admin/cart-drawer/', 'the bare path redirects')
  t.equal((await app.inject({ url: '/assets/svc-admin.css' })).statusCode, 200, 'the stylesheet')
  t.equal((await app.inject({ url: '/admin/cart-drawer/analytics' })).statusCode, 404, 'no analytics screen in Free')
  t.equal((await app.inject({ url: `${SVC}/settings` })).statusCode, 404, 'no svc/v1 route comes with it')
})

test('admin-screens in Pro has the analytics screen', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-admin-screens', { edition: 'pro' })
  t.equal((await app.inject({ url: '/admin/cart-drawer/analytics' })).statusCode, 401)
})

test('admin-screens does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('svc-admin-screens'), ['commerce', 'settings'])
  await expectDependenciesRequired(t, 'svc-admin-screens')
})
