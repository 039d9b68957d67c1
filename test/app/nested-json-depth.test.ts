import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { MAX_JSON_DEPTH } from '../../kernel/lib/index.ts'
import { createMemoryStorage } from '../../storage/index.ts'
import { build, STORE_API } from '../helper.ts'
import { asAdmin, login, newCartToken, SVC, SITE_ORIGIN, USERS } from '../helpers/security.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL, teaAdminLogin } from '../port/tea-shop.ts'

/**
 * The audit found "A 40 KB settings body with 20,000 nested arrays answers 500 (stack overflow while copying)".
 * Every JSON body is parsed by one parser that refuses nesting deeper than 32 levels (400, `svc_invalid_json`; the
 * Store API's `rest_invalid_json`) before any route, validator, merge or copy walks it, nothing changed; the drawer's
 * own routes do so on a host of their own too (the example host, examples/memory-shop/).
 */

/** `value` as JSON with `[[[…]]]` nested `depth` deep where it holds `DEEP` (20,000 levels are 40 KB; built as text,
 * since no JavaScript value that deep can be stringified). */
const DEEP = '\u0000deep'
const withNesting = (value: unknown, depth: number): string => JSON.stringify(value).replace(JSON.stringify(DEEP), '['.repeat(depth) + ']'.repeat(depth))

function expectRefused (t: Test, response: LightMyRequestResponse, code: string, what: string): void {
  t.equal(response.statusCode, 400, `${what}: 400, not a 500`, { body: response.body.slice(0, 300) })
  t.equal(response.json().code, code, `${what}: ${code}`)
  t.equal(response.json().data.status, 400)
}

const tier = (value: unknown) => ({
  id: 'deep',
  label: 'Deep',
  reward: 'free_shipping',
  threshold: 1,
  amount: 0,
  product_id: 0,
  conditions: { match: 'all', conditions: [{ type: 'cart_subtotal', operator: 'gte', value }] }
})

async function settingsVersion (app: FastifyInstance): Promise<number> {
  return (await app.settings.get()).version
}

test('nested json depth: 20,000 nested arrays are refused with 400 on every route that takes JSON', async (t) => {
  const storage = createMemoryStorage()
  t.teardown(() => storage.close())
  const app = await build(t, { storage, edition: 'pro', users: USERS })
  const admin = await login(app, USERS.admin)
  const body = withNesting({ settings: { rewards: { tiers: [tier(DEEP)] } } }, 20_000)
  t.ok(body.length >= 40_000 && body.length < 64 * 1024, `the audit's body: ${body.length} bytes, under the settings route's body limit`)
  const before = await settingsVersion(app)
  const headers = { ...asAdmin(admin), origin: SITE_ORIGIN, 'content-type': 'application/json' }
  expectRefused(t, await app.inject({ method: 'POST', url: `${SVC}/settings`, headers, payload: body }), 'svc_invalid_json', 'POST svc/v1/settings')
  t.equal(await settingsVersion(app), before, 'nothing saved')
  const file = withNesting({ format: 'svc-settings', schema_version: 1, settings: { rewards: { tiers: [tier(DEEP)] } } }, 20_000)
  expectRefused(t, await app.inject({ method: 'POST', url: `${SVC}/settings/import`, headers, payload: file }), 'svc_invalid_json', 'POST svc/v1/settings/import')

  const token = await newCartToken(app)
  const store = { 'cart-token': token, 'content-type': 'application/json' }
  expectRefused(t, await app.inject({ method: 'POST', url: `${STORE_API}/cart/add-item`, headers: store, payload: withNesting({ id: 117, quantity: 1, variation: DEEP }, 10_000) }), 'rest_invalid_json', 'Store API add-item')
  expectRefused(t, await app.inject({ method: 'POST', url: `${STORE_API}/batch`, headers: store, payload: withNesting({ requests: [{ path: '/wc/store/v1/cart/add-item', body: DEEP }] }, 5_000) }), 'rest_invalid_json', 'Store API batch')
  expectRefused(t, await app.inject({ method: 'POST', url: '/account/login', headers: { 'content-type': 'application/json' }, payload: withNesting({ email: DEEP, password: 'x' }, 1_000) }), 'svc_invalid_json', 'the login route')
  const cart = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  t.same(cart.json().items, [], 'the cart is unchanged')

  // The bound is 32 levels: a body exactly that deep still reaches the route (and is judged by its schema).
  // Levels above the nesting: the body, settings, rewards, tiers, the tier, conditions, their list, the condition.
  const atBound = withNesting({ settings: { rewards: { tiers: [tier(DEEP)] } } }, MAX_JSON_DEPTH - 8)
  const overBound = withNesting({ settings: { rewards: { tiers: [tier(DEEP)] } } }, MAX_JSON_DEPTH - 7)
  expectRefused(t, await app.inject({ method: 'POST', url: `${SVC}/settings`, headers, payload: overBound }), 'svc_invalid_json', '33 levels')
  const judged = await app.inject({ method: 'POST', url: `${SVC}/settings`, headers, payload: atBound })
  t.equal(judged.statusCode, 400)
  t.equal(judged.json().code, 'svc_invalid_params', 'within the bound: the schema names the bad value')
  t.match(JSON.stringify(judged.json().data.params), 'rewards.tiers.0.conditions.conditions.0.value')
})

test('nested json depth: the drawer\'s routes refuse it on a host of their own', async (t) => {
  const { app } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'pro' })
  t.teardown(() => app.close())
  await app.ready()
  const admin = await teaAdminLogin(app)
  const response = await app.inject({
    method: 'POST',
    url: '/api/svc/v1/settings',
    headers: { origin: TEA_URL, cookie: admin.cookie, 'x-wp-nonce': admin.nonce, 'content-type': 'application/json' },
    payload: withNesting({ settings: { rewards: { tiers: [tier(DEEP)] } } }, 20_000)
  })
  expectRefused(t, response, 'svc_invalid_json', 'the example host\'s svc/v1/settings')
})
