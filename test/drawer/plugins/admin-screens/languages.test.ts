import { test } from 'tap'
import { escapeHtml } from '../../../../kernel/domain/html.ts'
import { ADMIN_CATALOGS } from '../../../../kernel/i18n/admin/catalogs.ts'
import { compileCatalog } from '../../../../kernel/i18n/compile.ts'
import { ADMIN_CATALOG_PATH, ADMIN_CONFIG_ID, type AdminPageConfig } from '../../../../drawer/plugins/admin-screens/index.ts'
import { adminLocale, compileAdminCatalogs, pageWords, type PageWords } from '../../../../drawer/plugins/admin-screens/i18n.ts'
import { analyticsMain, loginMain, previewMain, refusedMain, renderAdminPage, settingsMain } from '../../../../drawer/plugins/admin-screens/pages.ts'
import { seedDemoUsers } from '../../../../seed/seed.ts'
import { buildTestApp } from '../../../helpers/app.ts'
import { login, USERS } from '../../../helpers/security.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

/**
 * The admin pages' language: the shop's `language.locale`, or the manager's `?lang=`; the page's
 * `<html lang dir>` and the words the server writes from the admin catalogs; the other catalogs served for the script.
 */

const SETTINGS_PAGE = '/admin/cart-drawer/'

function pageConfig (html: string): AdminPageConfig {
  const match = new RegExp(`<script type="application/json" id="${ADMIN_CONFIG_ID}">([^<]*)</script>`).exec(html)
  if (match === null) throw new Error('no admin configuration in the page')
  return JSON.parse(match[1]!) as AdminPageConfig
}

const htmlTag = (html: string) => /<html [^>]*>/.exec(html)?.[0]
const h1 = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1]

test('the admin pages speak the shop\'s language, or the manager\'s ?lang=', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, USERS)
  const app = await buildTestApp(t, storage, { edition: 'pro' })
  const admin = await login(app, USERS.admin)
  const get = (url: string, cookie = admin.cookie) => app.inject({ url, headers: cookie === '' ? {} : { cookie } })

  t.test('English by default: no catalog to fetch', async (t) => {
    const page = await get(SETTINGS_PAGE)
    t.equal(htmlTag(page.body), '<html lang="en" dir="ltr">')
    t.equal(h1(page.body), ADMIN_CATALOGS.en['page.settingsTitle'])
    t.same(pageConfig(page.body).i18n, { locale: 'en', catalog: null }, 'English is in the script')
  })

  t.test('the shop\'s language: the page, its words and its catalog', async (t) => {
    t.ok((await app.settings.save({ language: { locale: 'de' } })).ok)
    t.teardown(async () => { await app.settings.save({ language: { locale: 'en' } }) })
    const page = await get(SETTINGS_PAGE)
    t.equal(htmlTag(page.body), '<html lang="de" dir="ltr">')
    t.equal(h1(page.body), escapeHtml(ADMIN_CATALOGS.de['page.settingsTitle']))
    t.match(page.body, `<title>${escapeHtml(ADMIN_CATALOGS.de['page.settingsTitle'])}</title>`)
    t.match(page.body, `>${escapeHtml(ADMIN_CATALOGS.de['page.logout'])}</button>`, 'the header\'s words')
    const { i18n, urls } = pageConfig(page.body)
    t.equal(i18n.locale, 'de')
    t.match(i18n.catalog, new RegExp(`^${ADMIN_CATALOG_PATH}de\\.json\\?v=[\\w-]{16}$`))
    t.equal(urls.settings, SETTINGS_PAGE, 'no ?lang= in the links when the shop\'s language is used')

    const catalog = await get(i18n.catalog!, '')
    t.equal(catalog.statusCode, 200, 'public, like the drawer\'s catalogs')
    t.match(catalog.headers['content-type'], /^application\/json/)
    t.equal(catalog.headers['cache-control'], 'public, max-age=31536000, immutable')
    t.same(catalog.json(), compileCatalog(ADMIN_CATALOGS.de, 'de'), 'the German admin catalog, compiled')
    const again = await app.inject({ url: i18n.catalog!, headers: { 'if-none-match': String(catalog.headers.etag) } })
    t.equal(again.statusCode, 304)
    const gzipped = await app.inject({ url: i18n.catalog!, headers: { 'accept-encoding': 'gzip' } })
    t.equal(gzipped.headers['content-encoding'], 'gzip')

    const guest = await get(SETTINGS_PAGE, '')
    t.equal(guest.statusCode, 401)
    t.equal(htmlTag(guest.body), '<html lang="de" dir="ltr">', 'the login page too')
    t.match(guest.body, `<label>${escapeHtml(ADMIN_CATALOGS.de['page.password'])} <input name="password"`)
  })

  t.test('?lang= chooses another language for this manager, kept in the screens\' links', async (t) => {
    const page = await get(`${SETTINGS_PAGE}?lang=ar`)
    t.equal(page.statusCode, 200)
    t.equal(htmlTag(page.body), '<html lang="ar" dir="rtl">', 'right to left')
    t.equal(h1(page.body), escapeHtml(ADMIN_CATALOGS.ar['page.settingsTitle']))
    const config = pageConfig(page.body)
    t.equal(config.i18n.locale, 'ar')
    t.match(config.i18n.catalog, /\/ar\.json\?v=/)
    t.same(config.urls, { settings: `${SETTINGS_PAGE}?lang=ar`, analytics: '/admin/cart-drawer/analytics?lang=ar', preview: '/admin/cart-drawer/preview?lang=ar', storefront: config.urls.storefront })
    t.match(page.body, `<a href="/admin/cart-drawer/analytics?lang=ar">${escapeHtml(ADMIN_CATALOGS.ar['page.analytics'])}</a>`)

    const regional = await get('/admin/cart-drawer/analytics?lang=fr-CA')
    t.equal(htmlTag(regional.body), '<html lang="fr" dir="ltr">', 'a regional tag: its base language')
    t.equal(pageConfig(regional.body).urls.settings, `${SETTINGS_PAGE}?lang=fr`)

    const preview = await get('/admin/cart-drawer/preview?lang=ja')
    t.equal(htmlTag(preview.body), '<html lang="en" dir="ltr">', 'the preview\'s frame stands for a page of the shop: the shop\'s language')
    t.match(preview.body, `<p class="preview-hint" lang="ja" dir="ltr">${escapeHtml(ADMIN_CATALOGS.ja['page.previewHint'])}</p>`, 'its sentence in the manager\'s')
    t.ok((await app.settings.save({ language: { locale: 'ar' } })).ok)
    const arabicShop = await get('/admin/cart-drawer/preview?lang=de')
    t.equal(htmlTag(arabicShop.body), '<html lang="ar" dir="rtl">', 'an Arabic shop\'s page is right to left')
    t.match(arabicShop.body, '<p class="preview-hint" lang="de" dir="ltr">')
    t.equal(htmlTag((await get(`${SETTINGS_PAGE}?lang=de`)).body), '<html lang="de" dir="ltr">', 'the settings screen in the manager\'s language')
    t.ok((await app.settings.save({ language: { locale: 'en' } })).ok)

    const guest = await get(`${SETTINGS_PAGE}?lang=es`, '')
    t.equal(htmlTag(guest.body), '<html lang="es" dir="ltr">', 'the login form in the language asked for')

    const unknown = await get(`${SETTINGS_PAGE}?lang=pt-BR`)
    t.equal(htmlTag(unknown.body), '<html lang="en" dir="ltr">', 'a language the screens do not speak: the shop\'s')
    t.equal(pageConfig(unknown.body).urls.settings, SETTINGS_PAGE)

    const bad = await get(`${SETTINGS_PAGE}?lang=${encodeURIComponent('"><script>')}`)
    t.equal(bad.statusCode, 400, 'not a language tag: refused')
    t.equal(bad.json().code, 'svc_invalid_params')

    const bare = await get('/admin/cart-drawer?lang=de', '')
    t.equal(bare.statusCode, 302)
    t.equal(bare.headers.location, `${SETTINGS_PAGE}?lang=de`, 'the redirect keeps ?lang=')
  })

  t.test('the catalogs served: one per locale but English', async (t) => {
    const { hash } = compileAdminCatalogs()
    for (const file of ['en.json', 'pt.json']) {
      const response = await get(`${ADMIN_CATALOG_PATH}${file}?v=${hash}`, '')
      t.equal(response.statusCode, 404, file)
      t.equal(response.json().code, 'svc_not_found')
    }
    t.equal((await get(`${ADMIN_CATALOG_PATH}de.js`, '')).statusCode, 400, 'not a catalog\'s name')
  })
})

test('the admin language: ?lang= when spoken, else the shop\'s, else English', async (t) => {
  t.same(adminLocale('de', 'fr'), { locale: 'de', requested: 'de' })
  t.same(adminLocale('ar-EG', 'fr'), { locale: 'ar', requested: 'ar' })
  t.same(adminLocale('pt', 'fr'), { locale: 'fr', requested: null })
  t.same(adminLocale(undefined, 'ja'), { locale: 'ja', requested: null })
  t.same(adminLocale(undefined, undefined), { locale: 'en', requested: null })
})

/**
 * Every word the server writes comes from the catalog: the pages drawn with words that mark each message (⟦…⟧) show
 * no letter outside a mark but the manager's name.
 */
test('no English literal in the pages the server writes', async (t) => {
  const catalogs = compileAdminCatalogs()
  const real = pageWords(catalogs, 'en')
  const marked: PageWords = { locale: 'de', dir: 'ltr', html: (id, values, text) => `⟦${real.html(id, values, text)}⟧` }
  const NAME = 'Zoë Manager'
  const config = (screen: AdminPageConfig['screen']): AdminPageConfig => ({
    screen,
    edition: 'pro',
    restRoot: '/wp-json/',
    nonce: null,
    nonceUrl: '/n',
    loginUrl: '/l',
    logoutUrl: '/o',
    schema: null,
    urls: { settings: '/s', analytics: '/a', preview: '/p', storefront: '/' },
    checkoutUrl: '/c',
    cartUrl: '/k',
    currency: { currency_code: 'USD', currency_symbol: '$', currency_minor_unit: 2, currency_decimal_separator: '.', currency_thousand_separator: ',', currency_prefix: '$', currency_suffix: '' },
    i18n: { locale: 'de', catalog: null }
  })
  const pages = {
    settings: renderAdminPage({ title: marked.html('page.settingsTitle'), config: config('settings'), assets: { script: '/x.js', style: '/x.css' }, userName: NAME, main: settingsMain(marked), words: marked }),
    analytics: renderAdminPage({ title: marked.html('page.analyticsTitle'), config: config('analytics'), assets: { script: '/x.js', style: '/x.css' }, userName: NAME, main: analyticsMain(marked), words: marked }),
    preview: renderAdminPage({ title: marked.html('page.previewTitle'), config: config('preview'), assets: { script: '/x.js', style: '/x.css' }, userName: NAME, main: previewMain(marked), words: marked }),
    login: renderAdminPage({ title: marked.html('page.loginTitle'), config: config('login'), assets: { script: '/x.js', style: '/x.css' }, userName: null, main: loginMain(marked), words: marked }),
    refused: renderAdminPage({ title: marked.html('page.refusedTitle'), config: config('refused'), assets: { script: '/x.js', style: '/x.css' }, userName: NAME, main: refusedMain(NAME, marked), words: marked })
  }
  const unmarked = (text: string) => {
    let rest = text
    for (let inner = rest.replace(/⟦[^⟦⟧]*⟧/g, ''); inner !== rest; inner = rest.replace(/⟦[^⟦⟧]*⟧/g, '')) rest = inner
    return rest
  }
  for (const [name, html] of Object.entries(pages)) {
    const body = html.replace(/<script[\s\S]*?<\/script>/g, '')
    const attributes = [...body.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((match) => match[1]!)
    const text = body.replace(/<[^>]+>/g, ' ')
    for (const part of [text, ...attributes]) {
      t.notMatch(unmarked(part).replace(NAME, ''), /\p{L}/u, `${name}: every word is a message: ${unmarked(part).replace(/\s+/g, ' ').trim().slice(0, 80)}`)
    }
    if (name === 'settings' || name === 'analytics' || name === 'refused') t.match(body, NAME, `${name}: the manager's name`)
  }
  t.match(pages.settings, '<bdi><strong>Zoë Manager</strong></bdi>', 'the name isolated in the sentence')
})
