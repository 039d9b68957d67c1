import type { Test } from 'tap'
import Schema from 'typebox/schema'
import { expectError, expectNoStore } from '../../../../helpers/security.ts'
import { DEMO_BUNDLES, idsOf, onEveryBackend, saveBundles, Shopper, type Json } from './helpers.ts'

/** `GET svc/v1/bundle-builder/companions?product_id=` (cart session), on the demo catalog and `DEMO_BUNDLES`. */

/** `{bundle id: [slot index, {companion slot index: product ids}]}` of a companions answer. */
function summary (companions: Json[]): Record<string, [number, Record<number, number[]>]> {
  return Object.fromEntries(companions.map((entry) => [
    entry.id,
    [entry.slot_index, Object.fromEntries(entry.companion_slots.map((slot: Json) => [slot.index, idsOf(slot.products)]))]
  ]))
}

onEveryBackend('GET bundle-builder/companions', async (t, { app, admin }) => {
  const shopper = await Shopper.guest(app)
  const companions = async (t: Test, productId: number, who = shopper) => {
    const response = await who.svc('GET', `bundle-builder/companions?product_id=${productId}`)
    t.equal(response.statusCode, 200, `product ${productId}: 200`, { body: response.body })
    expectNoStore(t, response, `product ${productId}: no-store (a cart-session route)`)
    return response.json() as Json[]
  }

  t.test('the bundles that hold the product, with the other slots\' products', async (t) => {
    const beanie = await companions(t, 101)
    t.same(beanie, [{
      id: 'starter',
      title: 'Starter kit',
      description: 'A hat and an extra.',
      discount_percent: 10,
      slot_count: 2,
      slot_index: 0,
      slot_label: 'Hat',
      companion_slots: [{ index: 1, label: 'Extra', products: beanie[0]!.companion_slots[0].products }]
    }], 'the whole entry')
    t.same(idsOf(beanie[0]!.companion_slots[0].products), [102, 104, 116], 'Extra without the draft Poster')
    t.match(beanie[0]!.companion_slots[0].products[0], { id: 102, name: 'Belt', prices: { price: '5500' } }, 'product cards')

    t.same(summary(await companions(t, 108)), { music: [0, { 1: [112, 113] }], layers: [1, { 0: [103] }] }, 'in two bundles, in a different slot of each')
    t.same(summary(await companions(t, 116)), { starter: [1, { 0: [101, 103] }] }, 'a product hidden from the catalog has companions too')
    t.same(summary(await companions(t, 103)), { starter: [0, { 1: [102, 104, 116] }], layers: [0, { 1: [108] }] },
      '"sold-out" cannot be built (its other slot is empty), so it is not offered')
  })

  t.test('a product in no bundle, or not available now, has none', async (t) => {
    t.same(await companions(t, 105), [], 'Hoodie with Logo is in no bundle')
    t.same(await companions(t, 109), [], 'Polo is in two bundles but out of stock')
    t.same(await companions(t, 106), [], 'a variable product')
    t.same(await companions(t, 1061), [], 'a variation')
  })

  t.test('the section disabled: none', async (t) => {
    t.teardown(() => saveBundles(app, { enabled: true, bundles: DEMO_BUNDLES }))
    await saveBundles(app, { enabled: false })
    t.same(await companions(t, 101), [])
  })

  t.test('a product placed in the slot that leaves the other slots something to choose', async (t) => {
    t.teardown(() => saveBundles(app, { bundles: DEMO_BUNDLES }))
    await saveBundles(app, {
      bundles: [
        { id: 'pair', title: 'Any two', description: '', discount_percent: 5, slots: [{ label: 'One', product_ids: [101, 103] }, { label: 'Two', product_ids: [101, 103] }] },
        { id: 'late', title: 'Late', description: '', discount_percent: 5, slots: [{ label: 'One', product_ids: [101, 103] }, { label: 'Two', product_ids: [101] }] },
        { id: 'alone', title: 'Alone', description: '', discount_percent: 5, slots: [{ label: 'One', product_ids: [101] }, { label: 'Two', product_ids: [101] }] }
      ]
    })
    t.same(summary(await companions(t, 101)), { pair: [0, { 1: [103] }], late: [1, { 0: [103] }] },
      'never itself as a companion; "alone" could only pair the Beanie with itself')
  })

  t.test('unknown, draft and (for a shopper) private products: 404 svc_product_not_found', async (t) => {
    for (const [id, what] of [[999999, 'no such product'], [114, 'a draft'], [115, 'a private product']] as const) {
      const response = await shopper.svc('GET', `bundle-builder/companions?product_id=${id}`)
      expectError(t, response, 404, 'svc_product_not_found', what)
      t.equal(response.json().data.product_id, id, `${what}: data.product_id`)
    }
    const staff = await Shopper.loggedIn(app, admin)
    t.same(await companions(t, 115, staff), [], 'shop staff may see the private product: it is in no bundle')
  })

  t.test('a missing or malformed product_id: 400 svc_invalid_params', async (t) => {
    for (const query of ['', '?product_id=', '?product_id=abc', '?product_id=0', '?product_id=-3', '?product_id=1.5', '?other=101']) {
      const response = await shopper.svc('GET', `bundle-builder/companions${query}`)
      expectError(t, response, 400, 'svc_invalid_params', query || 'no query')
      t.ok('product_id' in (response.json().data.params ?? {}), `${query || 'no query'}: data.params names product_id`)
    }
  })

  t.test('a cart-session route: no Cart-Token is 403', async (t) => {
    const response = await app.inject({ method: 'GET', url: '/wp-json/svc/v1/bundle-builder/companions?product_id=101' })
    expectError(t, response, 403, 'svc_invalid_cart_token')
  })
})

/** The schema with every `#/components/schemas/…` reference replaced by the component. */
function dereference (document: Json, node: unknown): any {
  if (Array.isArray(node)) return node.map((child) => dereference(document, child))
  if (node === null || typeof node !== 'object') return node
  const ref = (node as Json).$ref
  if (typeof ref === 'string') return dereference(document, document.components.schemas[ref.replace('#/components/schemas/', '')])
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(document, value)]))
}

onEveryBackend('the bundle routes in the OpenAPI document, and real bodies match them', async (t, { app }) => {
  const document: Json = (await app.inject({ url: '/openapi.json' })).json()
  const operation = (path: string, method: string): Json => document.paths[`/wp-json/svc/v1/bundle-builder/${path}`]?.[method] ?? {}
  const schemaOf = (path: string, method: string, status = '200') => dereference(document, operation(path, method).responses?.[status]?.content?.['application/json']?.schema)
  const problems = (schema: Json, body: unknown) => Schema.Errors(schema, body)[1].map((error) => `${error.instancePath || '/'} ${error.message}`)

  for (const [path, method] of [['configs', 'get'], ['companions', 'get'], ['add', 'post']]) {
    t.ok(operation(path!, method!).tags?.includes('svc'), `${method} ${path}: documented, tagged svc`)
  }
  t.same(operation('companions', 'get').parameters.map((parameter: Json) => `${parameter.in}:${parameter.name}:${parameter.required}`), ['query:product_id:true'])
  const body = dereference(document, operation('add', 'post').requestBody.content['application/json'].schema)
  t.same(Object.keys(body.properties), ['bundle_id', 'product_ids', 'variations'])
  t.same(body.required, ['bundle_id', 'product_ids'])
  t.ok(problems(body, { bundle_id: 'starter', product_ids: [101, 102], extra: 1 }).length > 0, 'the published body is closed')
  t.ok(schemaOf('add', 'post', '404'), 'add: 404 documented')
  t.ok(schemaOf('companions', 'get', '404'), 'companions: 404 documented')

  const shopper = await Shopper.guest(app)
  const configs = await app.inject({ url: '/wp-json/svc/v1/bundle-builder/configs' })
  t.same(problems(schemaOf('configs', 'get'), configs.json()), [], 'configs validates')
  const companions = await shopper.svc('GET', 'bundle-builder/companions?product_id=108')
  t.same(problems(schemaOf('companions', 'get'), companions.json()), [], 'companions validates')
  const added = await shopper.addBundle('starter', [101, 102])
  t.same(problems(schemaOf('add', 'post'), added.json()), [], 'add validates')
})
