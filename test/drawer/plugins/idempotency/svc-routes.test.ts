import { randomUUID } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test, type Test } from 'tap'
import { buildTeaShop } from '../../../../examples/memory-shop/app.ts'
import { build, buildPluginAlone, SITE_URL, SVC, type Backend } from '../../../helper.ts'
import { newCartToken } from '../../../helpers/security.ts'
import { Shopper, type Json } from '../../../helpers/shopper.ts'
import { TEA_ADMIN, TEA_SECRET, TEA_URL } from '../../../port/tea-shop.ts'

/**
 * `Idempotency-Key` on the drawer's cart-changing `svc/v1` routes: through the security plugin, with the drawer's
 * `idempotency` store (the reference storage in the app), scoped to the Cart-Token's cart and user. Every cart write
 * of `svc/v1` and of the Store API declares it (the OpenAPI document shows the header); the drawer-served cart routes
 * of a host without a Store API take it too; a drawer given no store ignores the header.
 */

const keyed = (key: string) => ({ 'idempotency-key': key })
const newKey = () => `key-${randomUUID()}`

function expectReplay (t: Test, first: LightMyRequestResponse, again: LightMyRequestResponse): void {
  t.equal(again.statusCode, first.statusCode, 'the same status')
  t.equal(again.body, first.body, 'the same body')
  t.equal(again.headers['idempotent-replayed'], 'true', 'a replay')
  t.equal(again.headers['cache-control'], first.headers['cache-control'], 'with the svc/v1 no-store headers of every answer')
}

for (const backend of ['memory', 'pglite'] as Backend[]) {
  test(`svc/v1 cart writes with an Idempotency-Key (${backend})`, async (t) => {
    const app = await build(t, { backend, allowedOrigins: ['https://app.example'] })

    t.test('POST coupon twice with one key: applied once, answered alike', async (t) => {
      const shopper = await Shopper.guest(app)
      await shopper.add(103)
      const key = newKey()
      const first = await shopper.svc('POST', 'coupon', { code: 'save10' }, keyed(key))
      t.equal(first.statusCode, 200, 'applied', { body: first.body })
      expectReplay(t, first, await shopper.svc('POST', 'coupon', { code: 'save10' }, keyed(key)))
      t.same((await shopper.drawerCart()).coupons.map((coupon: Json) => coupon.code), ['save10'])
      t.equal((await shopper.svc('POST', 'coupon', { code: 'save10' }, keyed(newKey()))).json().code, 'svc_coupon_already_applied', 'a new key applies it again')
      const other = await shopper.svc('DELETE', 'coupon', { code: 'save10' }, keyed(key))
      t.same([other.statusCode, other.json().code, other.json().data], [422, 'svc_idempotency_key_reused', { status: 422 }], 'the key for another request')
    })

    t.test('POST cart/remove-items twice with one key: the second is the first\'s answer, not a 409', async (t) => {
      const shopper = await Shopper.guest(app)
      const line = (await shopper.add(101)).items[0].key
      const key = newKey()
      const first = await shopper.svc('POST', 'cart/remove-items', { keys: [line] }, keyed(key))
      t.equal(first.statusCode, 200)
      expectReplay(t, first, await shopper.svc('POST', 'cart/remove-items', { keys: [line] }, keyed(key)))
      t.equal((await shopper.svc('POST', 'cart/remove-items', { keys: [line] })).statusCode, 409, 'without the key, the line is gone')
    })

    t.test('a key belongs to its cart: another shopper\'s request with it runs', async (t) => {
      const [ann, bob] = [await Shopper.guest(app), await Shopper.guest(app)]
      await ann.add(103)
      await bob.add(103)
      const key = newKey()
      t.equal((await ann.svc('POST', 'coupon', { code: 'save10' }, keyed(key))).statusCode, 200)
      const theirs = await bob.svc('POST', 'coupon', { code: 'save10' }, keyed(key))
      t.equal(theirs.headers['idempotent-replayed'], undefined)
      t.same((await bob.drawerCart()).coupons.map((coupon: Json) => coupon.code), ['save10'], 'applied to Bob\'s cart')
    })

    t.test('an invalid key: 400 in the REST shape', async (t) => {
      const shopper = await Shopper.guest(app)
      const response = await shopper.svc('POST', 'coupon', { code: 'save10' }, keyed('x'.repeat(256)))
      t.same([response.statusCode, response.json().code, response.json().data], [400, 'svc_idempotency_key_invalid', { status: 400 }])
    })

    t.test('a CORS preflight from an allowed origin allows the header; the replay header is exposed', async (t) => {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: `${SVC}/coupon`,
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'cart-token, content-type, idempotency-key' }
      })
      t.equal(preflight.statusCode, 204)
      t.match(preflight.headers['access-control-allow-headers'], /(^|, )Idempotency-Key(,|$)/)
      const shopper = await Shopper.guest(app)
      const write = await shopper.svc('POST', 'coupon', { code: 'nope' }, { ...keyed(newKey()), origin: 'https://app.example' })
      t.match(write.headers['access-control-expose-headers'], /(^|, )Idempotent-Replayed(,|$)/)
    })
  })
}

test('every cart write of svc/v1 and of the Store API declares the key (the OpenAPI document shows it)', async (t) => {
  const app = await build(t, { backend: 'memory', edition: 'pro' })
  const document = app.swagger() as { paths: Record<string, Record<string, { parameters?: Json[] }>> }
  const takesKey = (path: string, method: string) =>
    (document.paths[path]?.[method]?.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')

  const cartWrites = app.svcRoutes.filter((route) => route.access === 'cart' && route.method !== 'GET')
  t.ok(cartWrites.length >= 8, `${cartWrites.length} cart-session writes`)
  for (const route of cartWrites) {
    const expected = route.path !== '/analytics/events'
    t.equal(takesKey(`${SVC}${route.path}`, route.method.toLowerCase()), expected, `${route.method} svc/v1${route.path}${expected ? '' : ' (no cart change)'}`)
  }
  for (const route of app.svcRoutes.filter((route) => route.access !== 'cart')) {
    t.notOk(takesKey(`${SVC}${route.path}`, route.method.toLowerCase()), `${route.method} svc/v1${route.path}: ${route.access}`)
  }
  const storeApiWrites = Object.entries(document.paths)
    .filter(([path]) => /^\/wp-json\/wc\/store\/v1\/(cart|batch|checkout)/.test(path))
    .flatMap(([path, item]) => Object.keys(item).filter((method) => ['post', 'put', 'delete'].includes(method)).map((method) => [path, method] as const))
  t.ok(storeApiWrites.length >= 18, `${storeApiWrites.length} Store API writes`)
  for (const [path, method] of storeApiWrites) t.ok(takesKey(path, method), `${method.toUpperCase()} ${path}`)
})

test('the drawer\'s own cart routes of a host without a Store API take the key (svc/v1/store/, the example host)', async (t) => {
  const { app } = await buildTeaShop({ secret: TEA_SECRET, admin: TEA_ADMIN, homeUrl: TEA_URL, edition: 'free' })
  t.teardown(() => app.close())
  await app.ready()
  const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, payload?: Json) =>
    app.inject({ method, url: `/api/svc/v1/store/cart${path}`, headers: { origin: TEA_URL, ...headers }, ...(payload ? { payload } : {}) })
  const token = (await send('GET', '', {})).headers['cart-token'] as string
  const key = newKey()
  const first = await send('POST', '/add-item', { 'cart-token': token, ...keyed(key) }, { id: 1, quantity: 1 })
  t.equal(first.statusCode, 201, { body: first.body })
  const again = await send('POST', '/add-item', { 'cart-token': token, ...keyed(key) }, { id: 1, quantity: 1 })
  t.equal(again.body, first.body)
  t.equal(again.headers['cart-token'], first.headers['cart-token'], 'the kept Cart-Token')
  t.equal(again.headers['idempotent-replayed'], 'true')
  const cart = (await send('GET', '', { 'cart-token': token })).json()
  t.same(cart.items.map((item: Json) => item.quantity), [1], 'added once')
})

test('a drawer given no idempotency store ignores the header on svc/v1', async (t) => {
  const { app } = await buildPluginAlone(t, 'svc-free')
  const token = await newCartToken(app)
  const headers = { origin: SITE_URL, 'cart-token': token, ...keyed('same-key') }
  const request = (instance: FastifyInstance) => instance.inject({ method: 'POST', url: `${SVC}/coupon`, headers, payload: { code: 'save10' } })
  await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers: { 'cart-token': token }, payload: { id: 103, quantity: 1 } })
  t.equal((await request(app)).statusCode, 200)
  const second = await request(app)
  t.equal(second.json().code, 'svc_coupon_already_applied', 'the repeat runs again')
})
