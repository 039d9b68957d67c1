import { asAdmin, asGuest, expectError } from '../../../../helpers/security.ts'
import { adminLogin, guestToken, onEveryBackend, svcRequest } from './helpers.ts'

/** The analytics routes exist in Pro only, and are described in the OpenAPI document. */

onEveryBackend('the analytics routes are Pro only', async (t, { app }) => {
  const token = await guestToken(app)
  const admin = await adminLogin(app)
  for (const [method, path, headers, payload] of [
    ['POST', 'analytics/events', asGuest(token), { events: [{ type: 'drawer_open' }] }],
    ['GET', 'analytics/summary', asAdmin(admin), undefined],
    ['GET', 'analytics/export', asAdmin(admin), undefined],
    ['DELETE', 'analytics/reset', asAdmin(admin), undefined]
  ] as const) {
    expectError(t, await svcRequest(app, method, path, headers, payload), 404, 'svc_not_found', `Free: ${method} ${path}`)
  }
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  t.notOk(Object.keys(document.paths).some((path) => path.includes('analytics')), 'not in the Free OpenAPI document')
}, { edition: 'free' })
