import { test } from 'tap'
import { expectError } from '../../../helpers/security.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'
import { adminRequest, buildFreeApp, currentSettings, errorData } from './helpers.ts'

/**
 * The settings' `language` section: the shop's locale from the supported list, and its own texts, each a
 * known message, valid ICU and with the catalog's placeholders; a bad one refused with every problem listed and
 * nothing saved. The storefront page carries the locale, the catalogs' URL and the texts compiled.
 */
test('settings: language and texts', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const free = await buildFreeApp(t, storage)
  const save = (settings: unknown) => adminRequest(free, 'POST', 'settings', { settings })

  t.test('the defaults: English, no texts of the shop', async (t) => {
    const { settings } = await currentSettings(free)
    t.same(settings.language, { locale: 'en', texts: { en: {}, de: {}, fr: {}, es: {}, ar: {}, ja: {} } })
  })

  t.test('a supported locale and good texts are saved', async (t) => {
    const response = await save({ language: { locale: 'ar', texts: { ar: { title: 'سلتك' }, en: { count: '({count, plural, one {# thing} other {# things}})', empty: '' } } } })
    t.equal(response.statusCode, 200)
    t.same(response.json().settings.language.locale, 'ar')
    t.same(response.json().settings.language.texts.ar, { title: 'سلتك' })
    t.same(response.json().settings.language.texts.en.empty, '', 'an empty text (the catalog\'s) is kept as such')
  })

  t.test('an unknown locale and bad texts: every problem listed, nothing saved', async (t) => {
    const before = await currentSettings(free)
    const response = await save({
      language: {
        locale: 'pt',
        texts: {
          pt: { title: 'Seu carrinho' },
          de: { title: 'Korb {', nope: 'Hallo', count: '({n, plural, one {# Teil} other {# Teile}})' },
          en: { count: '({count, plural, one {# thing} few {# things} other {# things}})', added: '{name} is in.', removed: 'Removed.' },
          ja: { title: 42 }
        }
      }
    })
    expectError(t, response, 400, 'svc_invalid_params', 'refused')
    const params = errorData(response).params as Record<string, string>
    t.same(Object.keys(params).sort(), [
      'language.locale',
      'language.texts.de.count',
      'language.texts.de.nope',
      'language.texts.de.title',
      'language.texts.en.count',
      'language.texts.en.removed',
      'language.texts.ja.title',
      'language.texts.pt'
    ], 'one entry per problem, all at once')
    t.match(params, {
      'language.locale': /en, de, fr, es, ar, ja/,
      'language.texts.pt': /not a known setting/,
      'language.texts.de.title': /not a valid ICU message/,
      'language.texts.de.nope': /not a text of the drawer/,
      'language.texts.de.count': /must use \{count\}; has \{n\}/,
      'language.texts.en.count': /few is not valid/,
      'language.texts.en.removed': /must use \{name\}/,
      'language.texts.ja.title': /string/
    })
    t.strictSame(await currentSettings(free), before, 'nothing was stored')
  })

  t.test('the storefront page: the shop\'s locale, the catalogs\' URL, the texts compiled', async (t) => {
    const page = await free.app.inject({ url: '/' })
    const config = JSON.parse(/<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/s.exec(page.body)?.[1] ?? 'null')
    t.equal(config.i18n.locale, 'ar')
    t.match(config.i18n.catalogs, /^\/assets\/svc-drawer-i18n\/\{locale\}\.json\?v=[\w-]+$/)
    t.same(config.i18n.texts, { ar: { title: 'سلتك' }, en: { count: ['(', [1, 'count', 0, { one: [[3], ' thing'], other: [[3], ' things'] }], ')'] } }, 'an empty text is left out')

    const url = config.i18n.catalogs.replace('{locale}', 'ar')
    const catalog = await free.app.inject({ url, headers: { 'accept-encoding': 'identity' } })
    t.equal(catalog.statusCode, 200)
    t.match(catalog.headers['content-type'], /application\/json/)
    t.equal(catalog.headers['cache-control'], 'public, max-age=31536000, immutable', 'cached for a year under its hashed URL')
    t.equal(catalog.json().title, 'سلة التسوق')
    t.equal((await free.app.inject({ url: '/assets/svc-drawer-i18n/pt.json' })).statusCode, 404, 'no catalog for an unsupported locale')
    t.equal((await free.app.inject({ url: '/assets/svc-drawer-i18n/en.json' })).statusCode, 404, 'English is in the script')
    t.equal((await free.app.inject({ url: '/assets/svc-drawer-i18n/..%2Fx.json' })).statusCode, 400)
  })
})
