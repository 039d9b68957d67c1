import { expectError, expectNoStore, expectPublicCache, SITE_ORIGIN } from '../../../../helpers/security.ts'
import { DEMO_BUNDLES, onEveryBackend, publicRequest, saveBundles, Shopper, slotIds, type Json } from './helpers.ts'

/**
 * `GET svc/v1/bundle-builder/configs` (public, cacheable: design §3.4) and the bundle routes in the Free edition, on
 * the demo catalog with the bundles of `DEMO_BUNDLES`.
 */

const CONFIGS = 'bundle-builder/configs'

/** What the demo bundles offer: unavailable products left out of their slots, a bundle with an empty slot left out. */
const OFFERED = {
  starter: [[101, 103], [102, 104, 116]],
  music: [[108], [112, 113]],
  layers: [[103], [108]]
}

onEveryBackend('GET bundle-builder/configs', async (t, { app, storage }) => {
  t.test('public: no Cart-Token needed; the bundles that can be built, with their slots\' products as cards', async (t) => {
    const response = await publicRequest(app, CONFIGS)
    t.equal(response.statusCode, 200, 'no Cart-Token, no login', { body: response.body })
    expectPublicCache(t, response)
    t.equal(response.headers['cart-token'], undefined, 'no Cart-Token handed out')
    t.equal(response.headers['set-cookie'], undefined, 'no cookie')
    const configs: Json[] = response.json()
    t.same(slotIds(configs), OFFERED, 'Polo (out of stock) and Poster (draft) left out; Gift Wrap (hidden) kept; "sold-out" has an empty slot')
    t.same(configs.map((bundle) => bundle.id), ['starter', 'music', 'layers'], 'in the configured order')

    const starter = configs[0]!
    t.same(Object.keys(starter), ['id', 'title', 'description', 'discount_percent', 'slots'])
    t.match(starter, { id: 'starter', title: 'Starter kit', description: 'A hat and an extra.', discount_percent: 10 })
    t.same(starter.slots.map((slot: Json) => slot.label), ['Hat', 'Extra'])
    const beanie = starter.slots[0].products[0]
    t.same(Object.keys(beanie).sort(), ['currency', 'id', 'image', 'name', 'permalink', 'prices', 'short_description'])
    t.match(beanie, {
      id: 101,
      name: 'Beanie',
      short_description: 'A warm knitted beanie.',
      prices: { price: '1800', regular_price: '2000', sale_price: '1800', on_sale: true },
      currency: { currency_code: 'USD', currency_minor_unit: 2 }
    })
    t.match(beanie.permalink, /^http:\/\/shop\.test\//)
    t.equal(configs[1]!.description, '', 'an empty description')
  })

  t.test('a Cart-Token or a login changes nothing: the same bytes for everyone', async (t) => {
    const anonymous = await publicRequest(app, CONFIGS)
    const shopper = await Shopper.guest(app)
    await shopper.add(101)
    const withToken = await shopper.svc('GET', CONFIGS)
    t.equal(withToken.statusCode, 200)
    t.equal(withToken.body, anonymous.body)
    t.equal(withToken.headers.etag, anonymous.headers.etag)
    expectPublicCache(t, withToken)
  })

  t.test('ETag and 304: a matching If-None-Match gets an empty 304 with the caching headers', async (t) => {
    const first = await publicRequest(app, CONFIGS)
    const second = await publicRequest(app, CONFIGS)
    const etag = String(first.headers.etag)
    t.equal(second.headers.etag, etag, 'the same ETag for the same data')

    const notModified = await publicRequest(app, CONFIGS, { 'if-none-match': etag })
    t.equal(notModified.statusCode, 304)
    t.equal(notModified.body, '', 'no body')
    t.equal(notModified.headers.etag, etag)
    expectPublicCache(t, notModified)

    for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
      t.equal((await publicRequest(app, CONFIGS, { 'if-none-match': header })).statusCode, 304, `If-None-Match: ${header}`)
    }
    const other = await publicRequest(app, CONFIGS, { 'if-none-match': '"something-else"' })
    t.equal(other.statusCode, 200, 'another ETag: the whole body')
    t.equal(other.body, first.body)
  })

  t.test('Vary: Origin, also for a request from the site\'s origin', async (t) => {
    const response = await publicRequest(app, CONFIGS, { origin: SITE_ORIGIN })
    t.equal(response.statusCode, 200)
    t.equal(response.headers.vary, 'Origin')
    expectPublicCache(t, response)
  })

  t.test('a settings change gives a new ETag, and the old one no longer matches', async (t) => {
    const before = await publicRequest(app, CONFIGS)
    await saveBundles(app, { bundles: DEMO_BUNDLES.map((bundle) => bundle.id === 'starter' ? { ...bundle, discount_percent: 15 } : bundle) })
    t.teardown(() => saveBundles(app, { bundles: DEMO_BUNDLES }))
    const after = await publicRequest(app, CONFIGS, { 'if-none-match': String(before.headers.etag) })
    t.equal(after.statusCode, 200, 'the old ETag: the new body')
    t.not(after.headers.etag, before.headers.etag)
    t.equal(after.json()[0].discount_percent, 15)
  })

  t.test('the section disabled, or no bundles: an empty list (still public and cacheable)', async (t) => {
    t.teardown(() => saveBundles(app, { enabled: true, bundles: DEMO_BUNDLES }))
    await saveBundles(app, { enabled: false })
    let response = await publicRequest(app, CONFIGS)
    t.equal(response.statusCode, 200)
    t.same(response.json(), [], 'disabled')
    expectPublicCache(t, response)

    await saveBundles(app, { enabled: true, bundles: [] })
    response = await publicRequest(app, CONFIGS)
    t.same(response.json(), [], 'no bundles')
    expectPublicCache(t, response)
  })

  t.test('a product that stops being available leaves its slot; a bundle whose slot empties is left out', async (t) => {
    const [cap] = [...(await storage.getProducts([103])).values()]
    t.teardown(() => storage.upsertProducts([cap!]))
    await storage.upsertProducts([{ ...cap!, stockStatus: 'outofstock' }])
    const response = await publicRequest(app, CONFIGS)
    t.same(slotIds(response.json()), { starter: [[101], [102, 104, 116]], music: [[108], [112, 113]] },
      'the Cap out of stock: out of "Hat", and "layers" (only the Cap in a slot) is gone')
  })

  t.test('errors of the public route are not cacheable', async (t) => {
    const response = await publicRequest(app, `${CONFIGS}?_jsonp=callback`)
    expectError(t, response, 400, 'svc_jsonp_disabled')
    t.equal(response.headers.etag, undefined, 'no ETag on an error')
    const forbidden = await publicRequest(app, CONFIGS, { origin: 'https://evil.example' })
    expectError(t, forbidden, 403, 'svc_forbidden_origin')
  })

  t.test('a write method on the public path is 405', async (t) => {
    const response = await app.inject({ method: 'POST', url: `/wp-json/svc/v1/${CONFIGS}`, payload: {} })
    expectError(t, response, 405, 'svc_method_not_allowed')
    expectNoStore(t, response)
  })
})

onEveryBackend('the bundle routes in the Free edition', async (t, { app }) => {
  const shopper = await Shopper.guest(app)
  for (const [method, path, payload] of [
    ['GET', CONFIGS, undefined],
    ['GET', 'bundle-builder/companions?product_id=101', undefined],
    ['POST', 'bundle-builder/add', { bundle_id: 'starter', product_ids: [101, 102] }]
  ] as const) {
    const response = await shopper.svc(method, path, payload)
    expectError(t, response, 404, 'svc_not_found', `${method} ${path}`)
  }
  t.equal((await publicRequest(app, CONFIGS)).statusCode, 404, 'configs without a Cart-Token: 404 too')
  t.same((await shopper.storeCart()).cart.items, [], 'nothing was added')
}, { edition: 'free' })
