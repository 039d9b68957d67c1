import { test } from 'tap'
import Schema from 'typebox/schema'
import { serializeCart } from '../../../../hosts/reference-shop/index.ts'
import { defaultSettings } from '../../../../drawer/plugins/settings/index.ts'
import { STORE_API, StoreApiClient } from '../../../helpers/app.ts'
import { bigCart, buildLoggedApp, productLike, type Json } from './helpers.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

const ITEM_KEYS = ['key', 'product_id', 'visible', 'quantityEditable', 'removable', 'quantityLimits', 'backorderNotice']
const ROW_KEYS = ['key', 'name', 'short_description', 'variationSummary', 'extraLines', 'customPresentation',
  'product_id', 'visible', 'quantityEditable', 'removable', 'quantityLimits', 'backorderNotice']
const SVC_KEYS = ['drawer_config', 'launcher', 'coupons', 'item_presentations', 'optional_locked_keys']

const blueLarge = [{ attribute: 'pa_color', value: 'blue' }, { attribute: 'pa_size', value: 'large' }]

async function setup (t: { teardown (fn: () => unknown): void }) {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const { app, logs } = await buildLoggedApp(t, storage)
  return { storage, app, logs }
}

/** A shopper with a line of each kind: simple, variation, sold individually, backorder, hidden, quantity rules, low stock. */
async function shopperWithEveryLine (app: Awaited<ReturnType<typeof setup>>['app']) {
  const shopper = new StoreApiClient(app)
  for (const [id, quantity, variation] of [[101, 2], [106, 1, blueLarge], [112, 1], [110, 1], [116, 1], [113, 4], [108, 1]] as const) {
    const response = await shopper.add(id, quantity, variation as typeof blueLarge | undefined)
    if (response.statusCode !== 201) throw new Error(`add ${id}: ${response.body}`)
  }
  return shopper
}

const byId = (cart: Json, id: number): Json => cart.items.find((item: Json) => item.id === id)
const rowOf = (cart: Json, key: string): Json => cart.extensions.svc.item_presentations.find((row: Json) => row.key === key)

test('extensions.svc on the cart and every item', async (t) => {
  const { app, storage, logs } = await setup(t)
  const shopper = await shopperWithEveryLine(app)
  const response = await shopper.cart()
  t.equal(response.statusCode, 200)
  const cart = response.json()
  const svc = cart.extensions.svc

  t.test('the cart: drawer_config and launcher from settings, coupons, one row per line, no locked keys', async (t) => {
    t.same(Object.keys(svc), SVC_KEYS)
    const defaults = defaultSettings()
    t.same(svc.drawer_config, defaults.drawer_config)
    t.same(svc.launcher, defaults.launcher)
    t.same(svc.coupons, [])
    t.same(svc.optional_locked_keys, [])
    t.equal(svc.item_presentations.length, cart.items.length)
    t.same(svc.item_presentations.map((row: Json) => row.key), cart.items.map((item: Json) => item.key), 'rows in cart order, keyed by the item key')
    for (const row of svc.item_presentations) t.same(Object.keys(row), ROW_KEYS)
  })

  t.test('each item: its key, the parent id, limits and flags from the platform\'s rules', async (t) => {
    for (const item of cart.items) {
      t.same(Object.keys(item.extensions), ['svc'])
      t.same(Object.keys(item.extensions.svc), ITEM_KEYS)
      t.equal(item.extensions.svc.key, item.key, 'the exact cart item key')
      const row = rowOf(cart, item.key)
      for (const key of ITEM_KEYS) t.same(row[key], item.extensions.svc[key], `${item.id}: the row carries ${key}`)
      t.equal(row.name, item.name)
      t.equal(row.short_description, item.short_description)
      t.same(row.extraLines, [])
      t.equal(row.customPresentation, null)
    }

    const simple = byId(cart, 101).extensions.svc
    t.same(simple, {
      key: byId(cart, 101).key,
      product_id: 101,
      visible: true,
      quantityEditable: true,
      removable: true,
      quantityLimits: { minimum: 1, maximum: 9999, multipleOf: 1, unlimited: true },
      backorderNotice: ''
    }, 'simple')
    t.equal(rowOf(cart, byId(cart, 101).key).variationSummary, '')

    const variation = byId(cart, 1062)
    t.equal(variation.extensions.svc.product_id, 106, 'variation: the parent id (the item id is the variation)')
    t.equal(rowOf(cart, variation.key).variationSummary, 'Color: blue, Size: large')
    t.equal(rowOf(cart, variation.key).name, 'Hoodie - Blue, Large')

    const single = byId(cart, 112).extensions.svc
    t.equal(single.quantityEditable, false, 'sold individually: no quantity controls')
    t.equal(single.removable, true)
    t.same(single.quantityLimits, { minimum: 1, maximum: 1, multipleOf: 1, unlimited: false })

    const backorder = byId(cart, 110).extensions.svc
    t.equal(backorder.backorderNotice, 'Made to order: ships in about three weeks.', 'backorder: the notice, as plain text')
    t.equal(rowOf(cart, byId(cart, 110).key).backorderNotice, backorder.backorderNotice)

    const hidden = byId(cart, 116)
    t.equal(hidden.catalog_visibility, 'hidden')
    t.equal(hidden.extensions.svc.visible, true, 'hidden from the catalog, still shown in a mini cart')

    t.same(byId(cart, 113).extensions.svc.quantityLimits, { minimum: 2, maximum: 10, multipleOf: 2, unlimited: false }, 'quantity rules')
    t.same(byId(cart, 108).extensions.svc.quantityLimits, { minimum: 1, maximum: 3, multipleOf: 1, unlimited: false }, 'capped by stock')
  })

  t.test('every cart response carries it: add, update, remove, coupons, and the cart inside a 409', async (t) => {
    const key = byId(cart, 101).key
    const responses = {
      update: await shopper.request('POST', 'cart/update-item', { key, quantity: 3 }),
      apply: await shopper.request('POST', 'cart/apply-coupon', { code: 'SAVE10 ' }),
      add: await shopper.add(103, 1),
      remove: await shopper.request('POST', 'cart/remove-item', { key: byId((await shopper.cart()).json(), 103).key }),
      removeCoupon: await shopper.request('POST', 'cart/remove-coupon', { code: 'save10' })
    }
    for (const [name, answer] of Object.entries(responses)) {
      t.ok(answer.statusCode === 200 || answer.statusCode === 201, `${name}: ${answer.statusCode}`)
      t.same(Object.keys(answer.json().extensions.svc), SVC_KEYS, `${name}: extensions.svc`)
      t.ok(answer.json().items.every((item: Json) => item.extensions.svc.key === item.key), `${name}: on every item`)
    }
    t.same(responses.apply.json().extensions.svc.coupons, [{ code: 'save10', label: 'Coupon: save10', isSystemReward: false, removable: true }])
    t.same(responses.removeCoupon.json().extensions.svc.coupons, [])

    await shopper.request('POST', 'cart/apply-coupon', { code: 'fiver' })
    for (const route of ['update-item', 'remove-item']) {
      const conflict = await shopper.request('POST', `cart/${route}`, { key: 'f'.repeat(32), quantity: 1 })
      t.equal(conflict.statusCode, 409)
      const inside = conflict.json().data.cart
      t.same(Object.keys(inside.extensions.svc), SVC_KEYS, `${route} 409: the cart's extensions.svc`)
      t.same(inside.extensions.svc.coupons.map((row: Json) => row.code), ['fiver'])
      t.equal(inside.extensions.svc.item_presentations.length, inside.items.length)
      t.ok(inside.items.every((item: Json) => item.extensions.svc.key === item.key), `${route} 409: on every item`)
    }
  })

  t.test('a settings change shows at once; with the service disabled extensions.svc is still there', async (t) => {
    t.match(await app.settings.save({ enabled: false, drawer_config: { position: 'left', colors: { accent: '#00ff00' } }, launcher: { show_total: true } }), { ok: true })
    t.teardown(() => app.settings.reset())
    const after = (await shopper.cart()).json().extensions.svc
    t.equal(after.drawer_config.position, 'left')
    t.equal(after.drawer_config.colors.accent, '#00ff00')
    t.equal(after.launcher.show_total, true)
    t.same(Object.keys(after), SVC_KEYS)
  })

  t.test('locked keys come from the cart service\'s locks (Pro), restricted to lines of the cart', async (t) => {
    const current = (await shopper.cart()).json()
    const lockedKey = byId(current, 113).key
    const removeLocks = app.shop.carts.addHook('lockedLines', () => new Set(['not-a-line', lockedKey]))
    t.teardown(removeLocks)
    const locked = (await shopper.cart()).json()
    t.same(locked.extensions.svc.optional_locked_keys, [lockedKey])
    t.equal(byId(locked, 113).extensions.svc.removable, false)
    t.equal(byId(locked, 113).extensions.svc.quantityEditable, false)
    t.equal(byId(locked, 101).extensions.svc.removable, true)
  })

  t.test('nothing was logged along the way', async (t) => {
    t.same(logs, [])
  })

  t.test('the published schema describes extensions.svc and the body is the serialiser output', async (t) => {
    const document = (await app.inject({ url: '/openapi.json' })).json()
    const components = document.components.schemas
    const cartExtensions = components.StoreApiCart.properties.extensions
    t.same(cartExtensions.properties.svc, { $ref: '#/components/schemas/SvcCartExtension' })
    t.equal(cartExtensions.additionalProperties, true, 'other namespaces stay open')
    t.equal(components.SvcCartExtension.additionalProperties, true, 'keys added by filters stay open')
    t.same(Object.keys(components.SvcCartExtension.properties), SVC_KEYS)
    t.equal(components.SvcItemPresentation.additionalProperties, true)
    t.same(components.StoreApiCartItem.properties.extensions.properties.svc, { $ref: '#/components/schemas/SvcCartItemExtension' })
    t.same(Object.keys(components.SvcCartItemExtension.properties), ITEM_KEYS)

    const response = await shopper.cart()
    const key = app.shop.cartTokens.verify(shopper.token!)!
    t.equal(response.body, JSON.stringify(await serializeCart(await app.shop.carts.get(key), app.shop.serializeContext, app.shop.extendSchema)))
    const schema = { ...components.StoreApiCart, $defs: components }
    const resolved = JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/'))
    const [, errors] = Schema.Errors(resolved, response.json())
    t.same(errors.map((error: Json) => `${error.instancePath} ${error.message}`), [], 'the response validates against the published schema')
  })

  t.test('an empty cart has an empty extension', async (t) => {
    const empty = (await new StoreApiClient(app).cart()).json()
    t.same(empty.extensions.svc.item_presentations, [])
    t.same(empty.extensions.svc.coupons, [])
    t.same(Object.keys(empty.extensions), ['svc'])
  })

  t.test('a 101-line cart gives 100 presentation rows (and every item its data)', async (t) => {
    const key = await bigCart(storage, 101)
    const response = await app.inject({ url: `${STORE_API}/cart`, headers: { 'cart-token': app.shop.cartTokens.sign(key) } })
    t.equal(response.statusCode, 200)
    const big = response.json()
    t.equal(big.items.length, 101)
    t.equal(big.extensions.svc.item_presentations.length, 100)
    t.same(big.extensions.svc.item_presentations.map((row: Json) => row.key), big.items.slice(0, 100).map((item: Json) => item.key), 'the first 100 lines')
    t.ok(big.items.every((item: Json) => item.extensions.svc.key === item.key), 'the 101st item still has its own data')
  })

  t.test('a 600-byte multi-byte notice is cut to at most 500 bytes of valid UTF-8', async (t) => {
    const notice = '<p>Dispatch ' + 'é€😀'.repeat(70) + '</p>'
    t.ok(Buffer.byteLength(notice) > 600)
    await storage.upsertProducts([await productLike(storage, 110, { id: 60001, slug: 'long-notice', backorderNotice: notice })])
    const buyer = new StoreApiClient(app)
    const added = (await buyer.add(60001, 1)).json()
    const svcNotice: string = byId(added, 60001).extensions.svc.backorderNotice
    const bytes = Buffer.from(svcNotice, 'utf8')
    t.ok(bytes.length <= 500, `${bytes.length} bytes`)
    t.ok(bytes.length > 496, 'cut only as much as needed')
    t.equal(new TextDecoder('utf-8', { fatal: true }).decode(bytes), svcNotice, 'valid UTF-8, no cut character')
    t.notOk(svcNotice.includes('\ufffd'), 'no replacement character')
    t.ok(svcNotice.startsWith('Dispatch é€😀'), 'plain text: the tags are gone')
    t.ok(('Dispatch ' + 'é€😀'.repeat(70)).startsWith(svcNotice), 'a prefix of the notice')
    t.equal(rowOf(added, byId(added, 60001).key).backorderNotice, svcNotice)
  })
})
