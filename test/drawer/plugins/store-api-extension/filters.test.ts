import { test } from 'tap'
import { serializeCart } from '../../../../hosts/reference-shop/index.ts'
import { defaultSettings } from '../../../../drawer/plugins/settings/index.ts'
import { StoreApiClient } from '../../../helpers/app.ts'
import { buildLoggedApp, withFilter, type Json, type LogLine } from './helpers.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

const SVC_KEYS = ['drawer_config', 'launcher', 'coupons', 'item_presentations', 'optional_locked_keys']

test('the filters svc_cart_item_data and svc_store_api_cart_extension_data', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const { app, logs } = await buildLoggedApp(t, storage)
  const shopper = new StoreApiClient(app)
  for (const [id, quantity] of [[101, 2], [103, 1], [110, 1], [112, 1], [116, 1]]) await shopper.add(id!, quantity)
  await shopper.request('POST', 'cart/apply-coupon', { code: 'save10' })
  const plain = (await shopper.cart()).json()
  const lineCount = plain.items.length
  t.equal(lineCount, 5)
  const ownSvc = plain.extensions.svc

  /** The log lines written since the call, then forgets them. */
  const takeLogs = (): LogLine[] => logs.splice(0, logs.length)
  t.beforeEach(() => { takeLogs() })

  t.test('filters can add keys to the cart extension and to rows; they reach the real response', async (t) => {
    withFilter(t, app, 'svc_cart_item_data', (row, line) => ({
      ...row,
      badge: line.product.id === 101 ? 'bestseller' : null,
      extraLines: [{ label: 'Gift', value: 'wrapped', icon: 'gift' }],
      customPresentation: { template: 'card', data: { stars: [1, 2, 3], nested: { deep: true } } }
    }))
    withFilter(t, app, 'svc_store_api_cart_extension_data', async (svc, state) => ({
      ...svc,
      my_plugin: { count: state.priced.itemsCount, tags: ['a', 'b'], nothing: null },
      note: 'hello'
    }))
    const response = await shopper.cart()
    const svc = response.json().extensions.svc
    t.same(Object.keys(svc), [...SVC_KEYS, 'my_plugin', 'note'], 'added keys after the service\'s own')
    t.same(svc.my_plugin, { count: 6, tags: ['a', 'b'], nothing: null })
    t.equal(svc.note, 'hello')
    const first = svc.item_presentations[0]
    t.equal(first.badge, 'bestseller', 'a key added to a row survives serialisation')
    t.same(first.extraLines, [{ label: 'Gift', value: 'wrapped', icon: 'gift' }], 'extra keys of an extra line too')
    t.same(first.customPresentation, { template: 'card', data: { stars: [1, 2, 3], nested: { deep: true } } })
    t.equal(svc.item_presentations[1].badge, null)
    const key = app.shop.cartTokens.verify(shopper.token!)!
    t.equal(response.body, JSON.stringify(await serializeCart(await app.shop.carts.get(key), app.shop.serializeContext, app.shop.extendSchema)),
      'the body is exactly what the serialiser made: nothing dropped by the response schema')
    t.same(takeLogs(), [], 'valid output: nothing logged')
  })

  t.test('a filter cannot change coupons, item_presentations or optional_locked_keys, even in place', async (t) => {
    withFilter(t, app, 'svc_store_api_cart_extension_data', (svc) => {
      ;(svc.coupons as unknown[]).push({ code: 'fake' })
      ;(svc.item_presentations as Json[])[0]!.name = 'mutated in place'
      ;(svc.optional_locked_keys as string[]).push(plain.items[0].key)
      return { ...svc, coupons: [], item_presentations: 'gone', optional_locked_keys: ['x'], launcher: { ...svc.launcher as Json, show_total: true } }
    })
    const svc = (await shopper.cart()).json().extensions.svc
    t.same(svc.coupons, ownSvc.coupons)
    t.same(svc.item_presentations, ownSvc.item_presentations)
    t.same(svc.optional_locked_keys, [])
    t.equal(svc.launcher.show_total, true, 'launcher is not protected: a valid change is kept')
    t.same(Object.keys(svc), SVC_KEYS)
    t.same(takeLogs(), [])
  })

  t.test('a row filter cannot move a row to another key', async (t) => {
    withFilter(t, app, 'svc_cart_item_data', (row) => ({ ...row, key: 'other', name: `${row.name as string}!` }))
    const svc = (await shopper.cart()).json().extensions.svc
    t.same(svc.item_presentations.map((row: Json) => row.key), plain.items.map((item: Json) => item.key))
    t.ok(svc.item_presentations.every((row: Json) => row.name.endsWith('!')), 'the rest of the row is kept')
    const warnings = takeLogs()
    t.equal(warnings.length, 1, 'logged once for the whole response')
    t.match(warnings[0], { filter: 'svc_cart_item_data', part: 'key', times: lineCount })
  })

  t.test('throwing filters: the service\'s own values, every other part intact, one log line per filter', async (t) => {
    withFilter(t, app, 'svc_cart_item_data', (row) => ({ ...row, extraLines: [{ label: 'kept', value: 'yes' }] }), 5)
    withFilter(t, app, 'svc_cart_item_data', () => { throw new Error('row filter broke') })
    withFilter(t, app, 'svc_store_api_cart_extension_data', async () => { throw new Error('cart filter broke') })
    const response = await shopper.cart()
    t.equal(response.statusCode, 200)
    const svc = response.json().extensions.svc
    t.same(Object.keys(svc), SVC_KEYS)
    t.same(svc.drawer_config, ownSvc.drawer_config)
    t.ok(svc.item_presentations.every((row: Json) => row.extraLines[0]?.label === 'kept'), 'the callback before the throwing one still counts')
    const errors = takeLogs()
    t.equal(errors.length, 2, `one line per filter, not one per row (${lineCount} rows)`)
    t.match(errors.find((line) => line.filter === 'svc_cart_item_data'), { level: 50, times: lineCount, err: { message: 'row filter broke' } })
    t.match(errors.find((line) => line.filter === 'svc_store_api_cart_extension_data'), { level: 50, times: 1, err: { message: 'cart filter broke' } })

    const second = await shopper.cart()
    t.equal(second.statusCode, 200)
    t.equal(takeLogs().length, 2, 'and again once for the next response')
  })

  t.test('garbage from the cart filter: the service\'s own object', async (t) => {
    for (const garbage of [null, 42, 'svc', [1, 2], undefined, new Map()]) {
      const remove = app.shop.filters.add('svc_store_api_cart_extension_data', () => garbage as never)
      const svc = (await shopper.cart()).json().extensions.svc
      remove()
      t.same(svc, ownSvc, `${String(garbage)}: the service's object`)
      const warnings = takeLogs()
      t.equal(warnings.length, 1)
      t.match(warnings[0], { level: 40, filter: 'svc_store_api_cart_extension_data', part: 'object' })
    }
  })

  t.test('wrong types in the cart filter\'s object: that part falls back, the rest is kept', async (t) => {
    const cyclic: Json = {}
    cyclic.self = cyclic
    withFilter(t, app, 'svc_store_api_cart_extension_data', (svc) => ({
      ...svc,
      drawer_config: { ...svc.drawer_config as Json, position: 'middle' },
      launcher: 'big',
      good: { fine: true },
      big: 10n,
      fn: () => 1,
      loop: cyclic,
      date: new Date(0)
    }))
    const svc = (await shopper.cart()).json().extensions.svc
    t.same(svc.drawer_config, ownSvc.drawer_config, 'an invalid drawer_config: the settings\' one')
    t.same(svc.launcher, ownSvc.launcher)
    t.same(svc.good, { fine: true }, 'a valid added key is kept')
    t.same(Object.keys(svc), [...SVC_KEYS, 'good'], 'keys that are not JSON data are dropped')
    const parts = takeLogs().map((line) => line.part).sort()
    t.same(parts, ['added key big', 'added key date', 'added key fn', 'added key loop', 'drawer_config', 'launcher'])
  })

  t.test('garbage rows: the service\'s row for those lines, field by field for objects', async (t) => {
    withFilter(t, app, 'svc_cart_item_data', (row, line) => {
      switch (line.product.id) {
        case 101: return 'garbage' as never
        case 103: return null as never
        case 110: return {
          ...row,
          name: 42,
          extraLines: [{ label: 'no value' }],
          customPresentation: new Date(0),
          quantityLimits: { minimum: 'one' },
          visible: 'yes',
          backorderNotice: '<b>Soon</b> ' + '€'.repeat(300),
          short_description: 'still fine'
        } as never
        case 112: return { ...row, product_id: 1.5, removable: null, variationSummary: ['x'], customPresentation: [1] } as never
        default: return { ...row, extra: undefined, bigint: 1n }
      }
    })
    const cart = (await shopper.cart()).json()
    const rows: Json[] = cart.extensions.svc.item_presentations
    const own: Json[] = ownSvc.item_presentations
    t.same(rows[0], own[0], 'a string: the service\'s row')
    t.same(rows[1], own[1], 'null: the service\'s row')
    t.same({ ...rows[2], short_description: own[2]!.short_description, backorderNotice: own[2]!.backorderNotice }, own[2], 'wrong fields fall back one by one')
    t.equal(rows[2]!.short_description, 'still fine', 'a valid field of the same row is kept')
    t.match(rows[2]!.backorderNotice, /^Soon €+$/, 'a filter\'s notice becomes plain text')
    t.ok(Buffer.byteLength(rows[2]!.backorderNotice) <= 500, 'within 500 bytes')
    t.same(rows[3], own[3])
    t.same(rows[4], own[4], 'undefined and BigInt keys are dropped')
    const warnings = takeLogs()
    const parts = warnings.map((line) => line.part).sort()
    t.same(parts, ['added key bigint', 'customPresentation', 'extraLines', 'name', 'product_id', 'quantityLimits',
      'removable', 'row', 'variationSummary', 'visible'], 'one line per part (a long notice is not wrong: it is cut)')
    t.match(warnings.find((line) => line.part === 'row'), { times: 2 }, 'two lines had no object: counted, logged once')
    t.match(warnings.find((line) => line.part === 'customPresentation'), { times: 2 })
    t.same(cart.items.map((item: Json) => item.extensions.svc), plain.items.map((item: Json) => item.extensions.svc),
      'the items\' own extension data is not the filter\'s')
  })

  t.test('a throwing callback elsewhere is still logged by itself, as before', async (t) => {
    withFilter(t, app, 'svc_rest_allowed_origins', () => { throw new Error('origins broke') })
    t.same(await app.shop.filters.apply('svc_rest_allowed_origins', ['a']), ['a'])
    t.match(takeLogs(), [{ level: 50, filter: 'svc_rest_allowed_origins', msg: 'a filter callback threw; its input value was kept', err: { message: 'origins broke' } }])
  })

  t.test('concurrent responses keep their problems apart', async (t) => {
    withFilter(t, app, 'svc_cart_item_data', async (row, line) => {
      await new Promise((resolve) => setImmediate(resolve))
      if (line.product.id === 112) throw new Error('only the album')
      return row
    })
    const other = new StoreApiClient(app)
    await other.add(101, 1)
    takeLogs()
    const [withAlbum, without] = await Promise.all([shopper.cart(), other.cart()])
    t.equal(withAlbum.statusCode, 200)
    t.equal(without.statusCode, 200)
    const errors = takeLogs()
    t.equal(errors.length, 1, 'only the response with the album logged')
    t.match(errors[0], { filter: 'svc_cart_item_data', times: 1 })
  })

  t.test('filters see copies: the settings are unchanged by a filter that mutates them', async (t) => {
    withFilter(t, app, 'svc_store_api_cart_extension_data', (svc) => {
      ;(svc.drawer_config as Json).colors.primary = 'not a colour'
      return svc
    })
    const svc = (await shopper.cart()).json().extensions.svc
    t.same(svc.drawer_config, defaultSettings().drawer_config)
    t.same((await app.settings.get()).settings, defaultSettings())
    t.same(takeLogs().map((line) => line.part), ['drawer_config'])
  })
})
