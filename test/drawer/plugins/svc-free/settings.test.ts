import { test } from 'tap'
import { expectError, expectNoStore } from '../../../helpers/security.ts'
import { storageBackends } from '../../../helpers/storage-backends.ts'
import {
  adminRequest, buildFreeApp, currentSettings, errorData, onEveryBackend, Shopper, withSettings, type FreeApp, type Json
} from './helpers.ts'

/**
 * The settings routes (specification §4.2; design §3.7): `GET`, `POST` (partial, deep-merged, validated,
 * versioned), `DELETE`, `GET settings/export`, `POST settings/import`, and settings reaching
 * `extensions.svc` at once, on every instance.
 */

/** The Free sections' defaults (the Pro sections follow them in the document). */
const FREE_DEFAULTS = {
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
  recommendations: { enabled: true, source: 'cross_sells', manual_ids: [], limit: 4, fallbacks: [], rules: [] }
}

const FREE_SECTIONS = ['enabled', 'drawer_config', 'launcher', 'recommendations']

/** `base` with `patch` laid over it (objects key by key). */
function withDefaults (patch: Json, base: Json): Json {
  const result: Json = structuredClone(base)
  for (const [key, value] of Object.entries(patch)) {
    const current = result[key]
    result[key] = current !== null && typeof current === 'object' && !Array.isArray(current) && value !== null && typeof value === 'object' && !Array.isArray(value)
      ? withDefaults(value, current)
      : value
  }
  return result
}

async function save (free: FreeApp, settings: unknown, version?: number) {
  return adminRequest(free, 'POST', 'settings', version === undefined ? { settings } : { settings, version })
}

async function reset (free: FreeApp) {
  const response = await adminRequest(free, 'DELETE', 'settings')
  if (response.statusCode !== 200) throw new Error(`DELETE settings: ${response.statusCode}`)
  return response.json() as { settings: Json, version: number }
}

async function exported (free: FreeApp): Promise<Json> {
  const response = await adminRequest(free, 'GET', 'settings/export')
  if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode}`)
  return response.json()
}

onEveryBackend('settings routes', async (t, free) => {
  /** The whole default document, as a fresh database answers it. */
  const DEFAULTS = (await currentSettings(free)).settings
  const merged = (patch: Json) => withDefaults(patch, DEFAULTS)

  t.test('GET settings: {settings, version}, the defaults at version 0', async (t) => {
    const response = await adminRequest(free, 'GET', 'settings')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    t.same(Object.keys(response.json()), ['settings', 'version'])
    t.equal(response.json().version, 0)
    const { settings } = response.json()
    t.strictSame(Object.fromEntries(FREE_SECTIONS.map((name) => [name, settings[name]])), FREE_DEFAULTS, 'the Free sections\' defaults')
    t.same(Object.keys(settings).slice(0, 4), FREE_SECTIONS, 'the Free sections first')
    for (const name of Object.keys(settings).slice(4)) {
      t.ok(settings[name] !== null && typeof settings[name] === 'object', `${name}: a Pro section with its defaults`)
    }
  })

  t.test('POST settings: a partial document, deep-merged and versioned', async (t) => {
    t.teardown(() => reset(free))
    const { version } = await currentSettings(free)
    const first = await save(free, { drawer_config: { colors: { primary: '#ff0000' } } })
    t.equal(first.statusCode, 200, 'saved', { body: first.body })
    expectNoStore(t, first)
    const colors = { primary: '#ff0000', background: '#ffffff', text: '#111827', accent: '#2563eb' }
    t.strictSame(first.json().settings, merged({ drawer_config: { colors } }), 'the other colours and sections keep their values')
    t.ok(first.json().version > version, 'a new version')
    t.strictSame(await currentSettings(free), first.json(), 'GET answers what POST stored')

    const second = await save(free, { drawer_config: { position: 'left', border_radius: 12 }, launcher: { show_total: true } })
    t.equal(second.statusCode, 200)
    t.strictSame(second.json().settings, merged({
      drawer_config: { position: 'left', border_radius: 12, colors },
      launcher: { show_total: true }
    }), 'a later change keeps the earlier one')
    t.ok(second.json().version > first.json().version)

    t.equal((await save(free, { recommendations: { source: 'manual', manual_ids: [104, 102, 105] } })).statusCode, 200)
    const lists = await save(free, { recommendations: { manual_ids: [107] } })
    t.same(lists.json().settings.recommendations, { enabled: true, source: 'manual', manual_ids: [107], limit: 4, rules: [], fallbacks: [] }, 'a list is replaced, not merged')

    const nothing = await save(free, {})
    t.equal(nothing.statusCode, 200, 'an empty change is a save')
    t.same(nothing.json().settings, lists.json().settings)
  })

  t.test('POST settings: every problem listed in data.params, nothing stored', async (t) => {
    t.teardown(() => reset(free))
    t.equal((await save(free, { launcher: { position: 'top-left' } })).statusCode, 200)
    const before = await currentSettings(free)

    const response = await save(free, {
      enabled: 'yes',
      drawer_config: { width_desktop: 10, width_mobile: 101, animation: 'spin', colors: { primary: 'red', accent: '#12345' }, colour: '#000000' },
      launcher: { position: 'middle', show_count: 1 },
      recommendations: { limit: 50, manual_ids: [3, 3], source: 'bestsellers' },
      theme: {}
    })
    expectError(t, response, 400, 'svc_invalid_params', 'several bad values')
    t.same(Object.keys(errorData(response).params).sort(), [
      'drawer_config.animation',
      'drawer_config.colors.accent',
      'drawer_config.colors.primary',
      'drawer_config.colour',
      'drawer_config.width_desktop',
      'drawer_config.width_mobile',
      'enabled',
      'launcher.position',
      'launcher.show_count',
      'recommendations.limit',
      'recommendations.manual_ids',
      'recommendations.source',
      'theme'
    ], 'one entry per problem, all at once')
    for (const [path, message] of Object.entries(errorData(response).params as Record<string, string>)) {
      t.ok(typeof message === 'string' && message.length > 0, `${path}: a message (${message})`)
    }
    t.match(errorData(response).params, {
      'drawer_config.width_desktop': /280/,
      'drawer_config.colors.primary': /#rrggbb/,
      'launcher.position': /bottom-right/,
      'recommendations.limit': /12/
    }, 'messages say what is allowed')
    t.strictSame(await currentSettings(free), before, 'nothing was stored')

    const one = await save(free, { drawer_config: { colors: { text: 'black' } } })
    expectError(t, one, 400, 'svc_invalid_params', 'one bad colour among good values')
    t.same(Object.keys(errorData(one).params), ['drawer_config.colors.text'])

    const bodies: Array<[string, unknown, string]> = [
      ['settings missing', {}, 'settings'],
      ['settings not an object', { settings: 'dark' }, 'settings'],
      ['settings an array', { settings: [] }, 'settings'],
      ['a negative version', { settings: {}, version: -1 }, 'version'],
      ['a version that is not a whole number', { settings: {}, version: 1.5 }, 'version'],
      ['an unknown property (a mistyped version)', { settings: {}, versoin: 0 }, 'versoin']
    ]
    for (const [what, body, param] of bodies) {
      const bad = await adminRequest(free, 'POST', 'settings', body)
      expectError(t, bad, 400, 'svc_invalid_params', what)
      t.ok(Object.hasOwn(errorData(bad).params ?? {}, param), `${what}: data.params names ${param}`, { params: errorData(bad).params })
    }
    t.strictSame(await currentSettings(free), before, 'still nothing stored')
  })

  t.test('POST settings: two saves based on the same version, one 200 and one 409 svc_settings_conflict', async (t) => {
    t.teardown(() => reset(free))
    const { version } = await currentSettings(free)
    const patches = [{ drawer_config: { position: 'left' } }, { launcher: { position: 'top-left' } }]
    const responses = await Promise.all(patches.map((patch) => save(free, patch, version)))
    t.same(responses.map((response) => response.statusCode).sort(), [200, 409], 'one wins, one is refused')
    const winner = responses.findIndex((response) => response.statusCode === 200)
    const [won, lost] = [responses[winner]!, responses[1 - winner]!]
    expectError(t, lost, 409, 'svc_settings_conflict', 'the later save')
    t.equal(errorData(lost).version, won.json().version, 'data.version is the version now stored')
    t.ok(won.json().version > version)
    t.strictSame(await currentSettings(free), won.json(), 'only the winner\'s change is stored')
    t.strictSame(won.json().settings, merged(patches[winner]!))

    const stale = await save(free, patches[1 - winner]!, version)
    expectError(t, stale, 409, 'svc_settings_conflict', 'a save against the old version, again')
    t.equal(errorData(stale).version, won.json().version)
    const future = await save(free, patches[1 - winner]!, won.json().version + 5)
    expectError(t, future, 409, 'svc_settings_conflict', 'a save against a version that does not exist yet')

    const retried = await save(free, patches[1 - winner]!, errorData(stale).version)
    t.equal(retried.statusCode, 200, 'redone on the current version')
    t.strictSame(retried.json().settings, merged({ ...patches[0], ...patches[1] }), 'both changes now')
    const unversioned = await save(free, { enabled: false })
    t.equal(unversioned.statusCode, 200, 'a save without version is not checked')
  })

  t.test('DELETE settings restores the defaults', async (t) => {
    t.equal((await save(free, { enabled: false, drawer_config: { dark_mode: 'dark' }, recommendations: { limit: 2 } })).statusCode, 200)
    const changed = await currentSettings(free)
    const response = await adminRequest(free, 'DELETE', 'settings')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    t.strictSame(response.json().settings, DEFAULTS)
    t.ok(response.json().version > changed.version, 'a new version')
    t.strictSame(await currentSettings(free), response.json(), 'GET answers the defaults')
  })

  t.test('GET settings/export: an attachment {format, schema_version, exported_at, settings}', async (t) => {
    t.teardown(() => reset(free))
    t.equal((await save(free, { drawer_config: { animation: 'fade' } })).statusCode, 200)
    const response = await adminRequest(free, 'GET', 'settings/export')
    t.equal(response.statusCode, 200)
    expectNoStore(t, response)
    t.match(response.headers['content-type'], /^application\/json/)
    t.match(response.headers['content-disposition'], /^attachment; filename="[\w.-]+\.json"$/, 'a download')
    const body = response.json()
    t.same(Object.keys(body), ['format', 'schema_version', 'exported_at', 'settings'])
    t.equal(body.format, 'svc-settings')
    t.equal(body.schema_version, 1)
    t.match(body.exported_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'exported_at: an ISO date-time')
    t.ok(Math.abs(Date.parse(body.exported_at) - Date.now()) < 24 * 3_600_000, 'exported_at: now')
    t.strictSame(body.settings, (await currentSettings(free)).settings, 'the whole current document')
  })

  t.test('POST settings/import: export → change → import gives back the exported settings', async (t) => {
    t.teardown(() => reset(free))
    t.equal((await save(free, { drawer_config: { width_desktop: 500, colors: { accent: '#00aa00' } }, launcher: { enabled: false } })).statusCode, 200)
    const file = await exported(free)
    t.equal((await save(free, { drawer_config: { width_desktop: 300 }, recommendations: { source: 'upsells' } })).statusCode, 200)
    const before = await currentSettings(free)

    const response = await adminRequest(free, 'POST', 'settings/import', file)
    t.equal(response.statusCode, 200, 'imported', { body: response.body })
    expectNoStore(t, response)
    t.strictSame(response.json().settings, file.settings, 'the answer: the exported settings')
    t.ok(response.json().version > before.version, 'a new version')
    t.strictSame((await currentSettings(free)).settings, file.settings, 'GET settings: equal to the export')
    t.strictSame((await exported(free)).settings, file.settings, 'and a new export equals the old one')

    const defaults = await adminRequest(free, 'POST', 'settings/import', { ...file, settings: DEFAULTS })
    t.equal(defaults.statusCode, 200)
    t.strictSame((await currentSettings(free)).settings, DEFAULTS, 'importing the defaults')
  })

  t.test('POST settings/import: a bad file is 400 svc_settings_import_invalid listing every problem, settings unchanged', async (t) => {
    t.teardown(() => reset(free))
    t.equal((await save(free, { drawer_config: { position: 'left' } })).statusCode, 200)
    const file = await exported(free)
    const before = await currentSettings(free)
    const badSettings = withDefaults({
      drawer_config: { width_desktop: 5000, dark_mode: 'dim', colors: { background: 'white' } },
      launcher: { position: 'middle' },
      recommendations: { limit: 0 },
      extra: true
    }, file.settings)

    const cases: Array<[string, Json, string[]]> = [
      ['a wrong format', { ...file, format: 'other-plugin' }, ['format']],
      ['a wrong schema_version', { ...file, schema_version: 2 }, ['schema_version']],
      ['wrong types everywhere', { format: 7, schema_version: 'x', settings: [] }, ['format', 'schema_version', 'settings']],
      ['several bad settings values', { ...file, settings: badSettings }, [
        'settings.drawer_config.colors.background', 'settings.drawer_config.dark_mode', 'settings.drawer_config.width_desktop',
        'settings.extra', 'settings.launcher.position', 'settings.recommendations.limit'
      ]],
      ['everything wrong at once', { ...file, format: 'svc', schema_version: 0, settings: badSettings }, [
        'format', 'schema_version', 'settings.drawer_config.colors.background', 'settings.drawer_config.dark_mode',
        'settings.drawer_config.width_desktop', 'settings.extra', 'settings.launcher.position', 'settings.recommendations.limit'
      ]],
      ['a partial document (an import replaces the whole document)', { ...file, settings: { enabled: false } },
        Object.keys(DEFAULTS).filter((name) => name !== 'enabled').map((name) => `settings.${name}`).sort()]
    ]
    for (const [what, body, params] of cases) {
      const response = await adminRequest(free, 'POST', 'settings/import', body)
      expectError(t, response, 400, 'svc_settings_import_invalid', what)
      t.same(Object.keys(errorData(response).params).sort(), params, `${what}: data.params lists every problem`)
      t.strictSame(await currentSettings(free), before, `${what}: settings and version unchanged`)
    }

    const malformed = await adminRequest(free, 'POST', 'settings/import', { format: 'svc-settings', schema_version: 1 })
    expectError(t, malformed, 400, 'svc_settings_import_invalid', 'no settings at all')
    t.same(Object.keys(errorData(malformed).params), ['settings'])
    t.strictSame(await currentSettings(free), before, 'settings unchanged')
  })

  t.test('a change shows at once in the Store API cart\'s extensions.svc', async (t) => {
    const shopper = await Shopper.guest(free.app)
    await shopper.add(101)
    const svcOf = async () => (await shopper.storeCart()).cart.extensions.svc
    t.same((await svcOf()).drawer_config, FREE_DEFAULTS.drawer_config, 'before: the defaults')

    await withSettings(t, free, { drawer_config: { position: 'left', colors: { accent: '#00ff00' } }, launcher: { show_total: true, position: 'top-left' } })
    const changed = await svcOf()
    t.strictSame(changed.drawer_config, merged({ drawer_config: { position: 'left', colors: { accent: '#00ff00' } } }).drawer_config, 'drawer_config at once')
    t.strictSame(changed.launcher, { ...FREE_DEFAULTS.launcher, position: 'top-left', show_total: true }, 'launcher at once')

    await reset(free)
    t.strictSame((await svcOf()).drawer_config, FREE_DEFAULTS.drawer_config, 'and the defaults again after DELETE')
    t.strictSame((await svcOf()).launcher, FREE_DEFAULTS.launcher)
  })
})

for (const backend of storageBackends()) {
  test(`two instances on one database: a settings change shows at once on the other (${backend.name})`, { skip: backend.skip }, async (t) => {
    // PGlite: one storage shared, as one process could; PostgreSQL: two pools on one schema, as two servers would.
    const pair = await backend.createPair()
    t.teardown(() => pair.dispose())
    const [storageA, storageB] = pair.storages
    const a = await buildFreeApp(t, storageA)
    const b = await buildFreeApp(t, storageB)
    const shopper = await Shopper.guest(b.app)
    await shopper.add(101)
    const svcOnB = async () => (await shopper.storeCart()).cart.extensions.svc
    const DEFAULTS = (await currentSettings(a)).settings
    t.same((await svcOnB()).drawer_config, FREE_DEFAULTS.drawer_config, 'B, before: the defaults')

    const saved = await save(a, { drawer_config: { dark_mode: 'dark', colors: { primary: '#abcdef' } }, launcher: { enabled: false } })
    t.equal(saved.statusCode, 200, 'saved on A')
    const onB = await svcOnB()
    t.strictSame(onB.drawer_config, saved.json().settings.drawer_config, 'B\'s Store API cart: drawer_config at once')
    t.strictSame(onB.launcher, saved.json().settings.launcher, 'B\'s Store API cart: launcher at once')
    t.strictSame(await currentSettings(b), saved.json(), 'B\'s GET settings: the same document and version')

    const conflict = await save(b, { launcher: { enabled: true } }, saved.json().version - 1)
    expectError(t, conflict, 409, 'svc_settings_conflict', 'B saving against the version before A\'s save')
    t.equal(errorData(conflict).version, saved.json().version)

    t.equal((await adminRequest(b, 'DELETE', 'settings')).statusCode, 200, 'reset on B')
    t.strictSame((await currentSettings(a)).settings, DEFAULTS, 'A sees the defaults')
    const shopperOnA = await Shopper.guest(a.app)
    t.strictSame((await shopperOnA.storeCart()).cart.extensions.svc.drawer_config, FREE_DEFAULTS.drawer_config, 'A\'s Store API cart too')
  })
}
