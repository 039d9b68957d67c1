import { test } from 'tap'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired, SITE_URL, SVC } from '../../../helper.ts'

/**
 * The security plugin alone (with the commerce plugin it declares) and one route of the test's own below svc/v1:
 * the rules the route declares in `config.svc` are applied to it, with no drawer route registered.
 */
test('security alone: a route declaring config.svc gets the origin rule and the rest of the svc/v1 rules', async (t) => {
  const { app } = await buildPluginAlone(t, 'security', {
    beforeReady: ({ app }) => {
      app.get(`${SVC}/test/ping`, { config: { svc: { edition: 'free', access: 'public' } } }, async () => ({ pong: true }))
      app.get('/host/ping', async () => ({ pong: true }))
    }
  })
  t.same(app.svcRoutes.map((route) => `${route.method} ${route.path}`), ['GET /test/ping'], "only the test's route is collected")

  const same = await app.inject({ url: `${SVC}/test/ping`, headers: { origin: SITE_URL } })
  t.equal(same.statusCode, 200, 'the site origin is let through', { found: same.body })
  t.same(same.json(), { pong: true })
  t.equal(same.headers['cache-control'], 'public, max-age=300', 'cacheable, as a public svc/v1 route')
  t.match(same.headers.etag, /^"[\w-]+"$/, 'with an ETag')

  const foreign = await app.inject({ url: `${SVC}/test/ping`, headers: { origin: 'https://evil.example' } })
  t.equal(foreign.statusCode, 403, 'another origin is refused')
  t.equal(foreign.json().code, 'svc_forbidden_origin')

  const jsonp = await app.inject({ url: `${SVC}/test/ping?_jsonp=cb`, headers: { origin: SITE_URL } })
  t.equal(jsonp.json().code, 'svc_jsonp_disabled', 'JSONP is refused')
  const wrongMethod = await app.inject({ method: 'POST', url: `${SVC}/test/ping`, headers: { origin: SITE_URL } })
  t.equal(wrongMethod.statusCode, 405, 'another method is a 405')
  t.equal(wrongMethod.headers.allow, 'GET, HEAD, OPTIONS')
  t.equal((await app.inject({ url: `${SVC}/cart`, headers: { origin: SITE_URL } })).json().code, 'svc_not_found', 'no drawer route: svc/v1/cart is a 404')

  const host = await app.inject({ url: '/host/ping', headers: { origin: 'https://evil.example' } })
  t.equal(host.statusCode, 200, 'routes outside svc/v1 are left alone')
})

test('security does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('security'), ['commerce'])
  await expectDependenciesRequired(t, 'security')
})
