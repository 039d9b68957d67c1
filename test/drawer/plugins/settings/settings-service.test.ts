import { test } from 'tap'
import { deepMerge, defaultSettings, repairOverrides, settingsProblems } from '../../../../drawer/plugins/settings/document.ts'
import { SettingsService } from '../../../../drawer/plugins/settings/settings-service.ts'
import { SettingsSchema } from '../../../../drawer/schemas/settings.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'

test('the defaults are a valid document with every section', async (t) => {
  const defaults = defaultSettings()
  t.same(settingsProblems(defaults), {})
  t.same(Object.keys(defaults), Object.keys(SettingsSchema.properties))
  t.same(defaults, {
    enabled: true,
    drawer_config: {
      position: 'right',
      width_desktop: 420,
      width_mobile: 100,
      animation: 'slide',
      animation_duration: 300,
      border_radius: 0,
      dark_mode: 'auto',
      colors: { primary: '#1f2937', background: '#ffffff', text: '#111827', accent: '#2563eb' }
    },
    launcher: { enabled: true, position: 'bottom-right', show_count: true, show_total: false, hide_on_paths: [], hide_on_devices: [], icon: 'bag', shape: 'pill', size: 44 },
    recommendations: { enabled: true, source: 'cross_sells', manual_ids: [], limit: 4, fallbacks: [], rules: [] },
    language: { locale: 'en', texts: { en: {}, de: {}, fr: {}, es: {}, ar: {}, ja: {} } },
    behaviour: {
      open_on_add: true,
      undo_seconds: 5,
      clear_cart: false,
      checkout_url: '',
      cart_link: false,
      cart_url: '',
      empty_state: { recommendations: true, continue_shopping: false, continue_url: '' }
    },
    rewards: { enabled: true, basis: 'subtotal', after_discounts: true, include_tax: false, tiers: [] },
    smart_addons: { enabled: true, addons: [] },
    bundles: { enabled: true, bundles: [] },
    spotlight: { enabled: false, product_id: 0, title: '', text: '', conditions: { match: 'all', conditions: [] } },
    analytics: { enabled: true, retention_days: 90 }
  })
  defaults.drawer_config.colors.primary = '#000000'
  t.equal(defaultSettings().drawer_config.colors.primary, '#1f2937', 'each call gives a fresh copy')
})

test('deepMerge: objects key by key, arrays and values replaced, inputs untouched, __proto__ kept as data', async (t) => {
  const base = { a: { b: 1, c: [1, 2] }, d: 'x' }
  const merged = deepMerge(base, { a: { c: [3] }, e: null, d: undefined })
  t.same(merged, { a: { b: 1, c: [3] }, d: 'x', e: null })
  t.same(base, { a: { b: 1, c: [1, 2] }, d: 'x' })
  const hostile = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'))
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution')
  t.ok(Object.hasOwn(hostile, '__proto__'), 'an own key, reported as unknown by validation')
  t.same(settingsProblems(deepMerge(defaultSettings(), hostile)), { __proto__: 'is not a known setting' })
})

test('settingsProblems lists every problem at once, by path', async (t) => {
  const document = deepMerge(defaultSettings(), {
    enabled: 'yes',
    drawer_config: {
      position: 'middle',
      width_desktop: 10,
      width_mobile: 101,
      animation_duration: 2001,
      border_radius: 4.5,
      colors: { primary: 'red', accent: '#12345' },
      shadow: true
    },
    launcher: { position: 'center' },
    recommendations: { manual_ids: [1, 1, -2], limit: 13, source: 'magic' },
    pro_section: {}
  })
  t.same(settingsProblems(document), {
    enabled: 'must be a boolean',
    'drawer_config.position': 'must be one of: right, left',
    'drawer_config.width_desktop': 'must be at least 280',
    'drawer_config.width_mobile': 'must be at most 100',
    'drawer_config.animation_duration': 'must be at most 2000',
    'drawer_config.border_radius': 'must be a whole number',
    'drawer_config.colors.primary': 'must be a colour written #rrggbb',
    'drawer_config.colors.accent': 'must be a colour written #rrggbb',
    'drawer_config.shadow': 'is not a known setting',
    'launcher.position': 'must be one of: bottom-right, bottom-left, top-right, top-left',
    'recommendations.manual_ids': 'must not list a value twice',
    'recommendations.manual_ids.2': 'must be at least 1',
    'recommendations.limit': 'must be at most 12',
    'recommendations.source': 'must be one of: cross_sells, upsells, manual, same_category, best_sellers',
    pro_section: 'is not a known setting'
  })
  t.same(settingsProblems('nope'), { settings: 'must be an object' })
  t.same(settingsProblems({}), {
    enabled: 'is required',
    drawer_config: 'is required',
    launcher: 'is required',
    recommendations: 'is required',
    language: 'is required',
    behaviour: 'is required',
    rewards: 'is required',
    smart_addons: 'is required',
    bundles: 'is required',
    spotlight: 'is required',
    analytics: 'is required'
  })
})

test('repairOverrides takes out what no longer validates, so the defaults show through', async (t) => {
  const { overrides, problems } = repairOverrides({
    drawer_config: { width_desktop: 5000, position: 'left', colors: 'blue' },
    removed_section: { x: 1 },
    launcher: { show_total: true }
  })
  t.same(overrides, { drawer_config: { position: 'left' }, launcher: { show_total: true } })
  t.same(Object.keys(problems).sort(), ['drawer_config.colors', 'drawer_config.width_desktop', 'removed_section'])
  t.same(repairOverrides([1, 2]).overrides, {})
})

for (const backend of storageBackends()) {
  test(`SettingsService on ${backend.name}`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())
    const reported: Array<[Record<string, string>, number]> = []
    const service = new SettingsService(storage, { onStoredProblems: (problems, version) => reported.push([problems, version]) })

    t.test('nothing stored: the defaults at version 0', async (t) => {
      t.same(await service.get(), { settings: defaultSettings(), version: 0 })
    })

    t.test('save deep-merges a partial document and versions it', async (t) => {
      const first = await service.save({ drawer_config: { position: 'left', colors: { accent: '#ff0000' } } })
      t.match(first, { ok: true, version: 1 })
      const { settings, version } = await service.get()
      t.equal(version, 1)
      t.equal(settings.drawer_config.position, 'left')
      t.equal(settings.drawer_config.colors.accent, '#ff0000')
      t.equal(settings.drawer_config.colors.primary, '#1f2937', 'untouched values keep their defaults')
      t.same(Object.keys(settings.drawer_config), Object.keys(defaultSettings().drawer_config), 'in the schema\'s order')

      const second = await service.save({ drawer_config: { width_desktop: 500 }, recommendations: { manual_ids: [3, 4] } }, 1)
      t.match(second, { ok: true, version: 2 })
      const after = (await service.get()).settings
      t.equal(after.drawer_config.position, 'left', 'an earlier save is kept')
      t.equal(after.drawer_config.width_desktop, 500)
      t.same(after.recommendations.manual_ids, [3, 4])
      t.same((await storage.getSettings())!.document, {
        drawer_config: { position: 'left', colors: { accent: '#ff0000' }, width_desktop: 500 },
        recommendations: { manual_ids: [3, 4] }
      }, 'storage holds only the values that were set')
    })

    t.test('an invalid save lists every problem and changes nothing', async (t) => {
      const before = await service.get()
      const result = await service.save({ drawer_config: { width_mobile: 10, dark_mode: 'dim' }, launcher: { enabled: 'on' } })
      t.same(result, {
        ok: false,
        reason: 'invalid',
        problems: {
          'drawer_config.width_mobile': 'must be at least 50',
          'drawer_config.dark_mode': 'must be one of: auto, light, dark',
          'launcher.enabled': 'must be a boolean'
        }
      })
      t.same(await service.get(), before)
      t.same(await service.save(['not', 'an', 'object']), { ok: false, reason: 'invalid', problems: { settings: 'must be an object' } })
    })

    t.test('optimistic concurrency: a stale version is a conflict and stores nothing', async (t) => {
      const { version } = await service.get()
      t.match(await service.save({ enabled: false }, version), { ok: true, version: version + 1 })
      t.same(await service.save({ launcher: { show_total: true } }, version), { ok: false, reason: 'conflict', version: version + 1 })
      t.equal((await service.get()).settings.launcher.show_total, false)
      t.same(await service.save({ enabled: true }, 999), { ok: false, reason: 'conflict', version: version + 1 })
    })

    t.test('saves without a version that race each other both land (no lost update)', async (t) => {
      const results = await Promise.all([
        service.save({ launcher: { show_count: false } }),
        service.save({ launcher: { position: 'top-left' } }),
        service.save({ drawer_config: { border_radius: 12 } })
      ])
      t.ok(results.every((result) => result.ok), 'every save succeeded')
      const { settings } = await service.get()
      t.equal(settings.launcher.show_count, false)
      t.equal(settings.launcher.position, 'top-left')
      t.equal(settings.drawer_config.border_radius, 12)
    })

    t.test('a second instance over the same storage sees changes at once', async (t) => {
      const other = new SettingsService(storage)
      t.match(await other.save({ drawer_config: { animation: 'fade' } }), { ok: true })
      t.equal((await service.get()).settings.drawer_config.animation, 'fade')
    })

    t.test('replace stores a whole document atomically; an invalid one changes nothing', async (t) => {
      const before = await service.get()
      const document = deepMerge(defaultSettings(), { launcher: { position: 'top-right' }, recommendations: { source: 'manual', manual_ids: [7], limit: 2 } })
      const invalid = await service.replace({ ...document, enabled: 1, extra: true, drawer_config: { ...document.drawer_config as object, animation: 'spin' } })
      t.same(invalid, {
        ok: false,
        reason: 'invalid',
        problems: { enabled: 'must be a boolean', 'drawer_config.animation': 'must be one of: slide, fade, none', extra: 'is not a known setting' }
      })
      t.same(await service.get(), before, 'nothing changed')
      const replaced = await service.replace(document)
      t.match(replaced, { ok: true, version: before.version + 1 })
      const { settings } = await service.get()
      t.same(settings, document, 'the whole document, earlier saves gone')
      t.same(await service.replace(document, 1), { ok: false, reason: 'conflict', version: before.version + 1 })
      t.match(await service.replace({ launcher: { enabled: false } }), { ok: true }, 'values left out take their defaults')
      t.same((await service.get()).settings, deepMerge(defaultSettings(), { launcher: { enabled: false } }))
    })

    t.test('reset restores the defaults', async (t) => {
      const { version } = await service.get()
      t.same(await service.reset(), { settings: defaultSettings(), version: version + 1 })
      t.same(await service.get(), { settings: defaultSettings(), version: version + 1 })
    })

    t.test('a stored document that no longer validates reads with defaults in its place, reported once', async (t) => {
      const stored = await storage.saveSettings({ drawer_config: { width_desktop: 99999, position: 'left' }, old_section: true })
      const first = await service.get()
      t.equal(first.settings.drawer_config.width_desktop, 420)
      t.equal(first.settings.drawer_config.position, 'left', 'valid values are kept')
      t.equal(first.version, stored!.version)
      await service.get()
      t.equal(reported.length, 1, 'reported once for this version')
      t.same(Object.keys(reported[0]![0]).sort(), ['drawer_config.width_desktop', 'old_section'])
      t.match(await service.save({ launcher: { show_total: true } }), { ok: true }, 'saving still works')
      t.same((await storage.getSettings())!.document, { drawer_config: { position: 'left' }, launcher: { show_total: true } }, 'and cleans the stored document')
    })
  })
}
