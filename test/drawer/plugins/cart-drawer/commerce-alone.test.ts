import { test } from 'tap'
import { commercePlugin, type CommercePort } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { buildPlatform, buildPluginAlone, declaredDependencies, SVC } from '../../../helper.ts'

/** The commerce plugin alone over the reference platform: the port and the drawer's stores, no route. */
test('commerce alone: decorates the commerce port, the drawer stores and secrets, and adds no route', async (t) => {
  const { app, storage } = await buildPluginAlone(t, 'commerce')
  const shop = app.shop.commerce
  t.equal(app.commerce.homeUrl, shop.homeUrl, "fastify.commerce is the platform's port: its values")
  t.same([...(await app.commerce.getProducts([101, 102])).keys()], [...(await shop.getProducts([101, 102])).keys()], 'and its operations')
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

test('a host may leave out the optional members: the drawer fills in their documented defaults', async (t) => {
  const host = await buildPlatform(t)
  const full = host.app.shop.commerce
  // Only the required members, each calling the platform's own.
  const carts = full.carts
  const narrow: CommercePort = {
    homeUrl: full.homeUrl,
    urls: full.urls,
    config: full.config,
    cartKeyOfToken: (token) => full.cartKeyOfToken!(token),
    login: (request) => full.login(request),
    verifyNonce: (nonce, login) => full.verifyNonce!(nonce, login),
    restNonce: (login) => full.restNonce!(login),
    carts: {
      read: (key) => carts.read(key),
      ownerOf: (read) => carts.ownerOf(read),
      priceRead: (key, read, viewer) => carts.priceRead(key, read, viewer),
      change: (key, changes, viewer, options) => carts.change(key, changes, viewer, options),
      addHook: ((name: 'lockedLines', hook: never) => carts.addHook(name, hook)) as CommercePort['carts']['addHook']
    },
    getProducts: (ids) => full.getProducts(ids),
    listProducts: (query) => full.listProducts(query),
    extendCart: (extension) => full.extendCart(extension),
    filters: { add: (name, callback, priority) => full.filters!.add(name, callback, priority), apply: (name, value, ...args) => full.filters!.apply(name, value, ...args) }
  }
  host.app.register(commercePlugin, { commerce: narrow, stores: { settings: host.storage, analytics: host.storage }, secrets: ['a-secret-of-at-least-thirty-two-bytes!!'] })
  await host.app.ready()
  const commerce = host.app.commerce
  t.equal(commerce.restRoot, '/wp-json/', 'restRoot: /wp-json/')
  t.equal(commerce.siteUrl, full.homeUrl, 'siteUrl: the home URL')
  t.same(commerce.currency, full.config.currency, 'currency: the configuration\'s')
  t.ok(Math.abs(commerce.now().getTime() - Date.now()) < 60_000, 'now: the system clock')
  t.ok(commerce.canManageShop({ capabilities: ['manage_shop'] }), 'canManageShop: manage_shop')
  t.notOk(commerce.canManageShop({ capabilities: ['read'] }))
  const beanie = await commerce.getProduct(101)
  t.equal(beanie?.id, 101, 'getProduct: through getProducts')
  t.equal(await commerce.getProduct(999_999), null, 'an unknown id: null')
  t.equal(commerce.productUrl(beanie!, beanie!), full.productUrl!(beanie!, beanie!), 'productUrl: WooCommerce\'s permalink, as the platform\'s')
  const empty = await commerce.carts.get('0'.repeat(32))
  t.equal(empty.priced.lines.length, 0, 'carts.get: read, then priceRead')
  t.equal(commerce.carts.lockedLinesGeneration, 0, 'no lockedLines hook yet')
  const remove = commerce.carts.addHook('lockedLines', (data) => new Set(data.lines.map((line) => line.key)))
  t.equal(commerce.carts.lockedLinesGeneration, 1, 'counted as the drawer adds its hook')
  t.same([...commerce.carts.lockedLines({ lines: [{ key: 'a'.repeat(32), productId: 101, variationId: 0, variation: {}, quantity: 1 }], coupons: [] })], ['a'.repeat(32)], 'lockedLines: the union of the drawer\'s hooks')
  remove()
  t.equal(commerce.carts.lockedLinesGeneration, 2, 'and as it removes it')
  t.ok(commerce.filters.has('svc_cart_item_data'), 'filters.has: always (the drawer then never skips a filter)')
})
