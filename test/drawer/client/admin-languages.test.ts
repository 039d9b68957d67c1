import type { Page } from 'playwright-core'
import { ADMIN_CATALOGS } from '../../../kernel/i18n/admin/catalogs.ts'
import en, { type AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { compileCatalog } from '../../../kernel/i18n/compile.ts'
import type { CompiledCatalog, CompiledMessage, Locale } from '../../../kernel/i18n/locales.ts'
import { I18n } from '../../../drawer/client/i18n.ts'
import { ADMIN_PAGE, logInOnAdminPage, saveAndWait, status } from '../../browser/admin-page.ts'
import { ADMIN, browserTest, launchBrowser, newPage, PRO_WIDGET_SETTINGS, screenshot, seriousAxeViolations, startShop } from '../../browser/helpers.ts'

/**
 * The admin screens in the shop's language and in a manager's own: German as the shop's `language.locale`,
 * Arabic by `?lang=ar` (right to left, the layout mirrored), each with a screenshot at desktop width
 * (test/browser/screenshots/admin-languages-<locale>.png) and axe-core clean; amounts and dates with Intl in the
 * screens' language; and every text of the settings and analytics screens from the catalog: drawn with a catalog
 * that marks each message, no word is left outside a mark but the shop's own data.
 */

const words = (locale: Locale) => new I18n<AdminMessageId>(locale, locale, compileCatalog(ADMIN_CATALOGS[locale], locale))

/** Conditions of every kind the editor draws, and a nested group. */
const CONDITIONS = {
  match: 'all',
  conditions: [
    { type: 'cart_subtotal', operator: 'gte', value: 2500 },
    { type: 'weekday', operator: 'in', value: [1, 5] },
    { type: 'date_range', operator: 'between', value: { from: '2026-01-01T00:00:00Z', to: '2026-12-31T23:00:00Z' } },
    { type: 'product_in_cart', operator: 'contains_any', value: [101] },
    { match: 'any', conditions: [{ type: 'logged_in', operator: 'is', value: true }, { type: 'user_capability', operator: 'has', value: 'wholesale' }] }
  ]
}

const SETTINGS = {
  ...PRO_WIDGET_SETTINGS,
  language: { locale: 'de' },
  spotlight: { ...PRO_WIDGET_SETTINGS.spotlight, conditions: CONDITIONS },
  recommendations: { fallbacks: ['best_sellers'], rules: [{ conditions: { match: 'all', conditions: [{ type: 'cart_item_count', operator: 'gt', value: 2 }] }, source: 'manual', product_ids: [104] }] }
}

/** The English admin catalog with each message marked ⟦…⟧: what is drawn outside a mark did not come from the catalog. */
function markedCatalog (): CompiledCatalog {
  const mark = (message: CompiledMessage): CompiledMessage => typeof message === 'string' ? `⟦${message}⟧` : ['⟦', ...message, '⟧']
  return Object.fromEntries(Object.entries(compileCatalog(en, 'en')).map(([id, message]) => [id, mark(message)]))
}

/**
 * The words under `selector` (texts in document order, and the aria-label, title and placeholder of each element)
 * left outside the marks. Not words of the screens, so allowed: the shop's data (`translate="no"`: product names,
 * codes, the items' own names), text in another language than the page's (`lang`: the server's English messages,
 * the drawer's catalog in the texts editor), and what Intl wrote in the page's language (`<time>`, the chart's days,
 * weekday names), each compared with Intl's own output.
 */
function unmarkedWords (page: Page, selector: string): Promise<string[]> {
  // A string, not a function: the test runner's compiler would add helpers to a function that the page does not have.
  return page.evaluate(`(() => {
    const lang = document.documentElement.lang
    const day = (iso, options) => new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' }).format(new Date(iso + 'T00:00:00Z'))
    const allowed = (element, text) => {
      if (element === null) return false
      if (element.closest('[translate="no"]') !== null) return true
      const own = element.closest('[lang]')?.getAttribute('lang')
      if (own !== undefined && own !== lang) return true
      const time = element.closest('time[datetime]')
      if (time !== null) return text === day(time.getAttribute('datetime') ?? '', { dateStyle: 'medium' })
      const axis = element.closest('[data-day]')
      if (axis !== null && axis.tagName.toLowerCase() === 'text') return text === day(axis.getAttribute('data-day') ?? '', { month: 'short', day: 'numeric' })
      const weekday = element.closest('[data-weekday]')
      if (weekday !== null) return text === day('2023-01-0' + (1 + Number(weekday.getAttribute('data-weekday'))), { weekday: 'long' })
      return false
    }
    const strip = (text) => {
      let rest = text
      for (let inner = rest.replace(/⟦[^⟦⟧]*⟧/g, ''); inner !== rest; inner = rest.replace(/⟦[^⟦⟧]*⟧/g, '')) rest = inner
      return rest
    }
    const found = []
    for (const root of document.querySelectorAll(${JSON.stringify(selector)})) {
      // One text for the whole root: a message with elements inside (a link) spans several text nodes.
      let text = ''
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const value = node.textContent ?? ''
        text += allowed(node.parentElement, value.trim()) ? '  ' : value
      }
      for (const piece of strip(text).split(/\\s{2,}/)) if (/\\p{L}/u.test(piece)) found.push(piece.trim())
      for (const element of [root, ...root.querySelectorAll('*')]) {
        for (const name of ['aria-label', 'title', 'placeholder']) {
          const value = element.getAttribute(name)
          if (value !== null && /\\p{L}/u.test(strip(value)) && !allowed(element, value)) found.push(name + '="' + value + '"')
        }
      }
    }
    return found
  })()`)
}

browserTest('the admin screens in German and Arabic', async (t) => {
  const shop = await startShop(t, { edition: 'pro', settings: SETTINGS })
  const browser = await launchBrowser(t)
  const de = ADMIN_CATALOGS.de
  const ar = ADMIN_CATALOGS.ar

  t.test('German, the shop\'s language: every word from the German catalog', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await page.goto(shop.url + ADMIN_PAGE)
    t.equal(await page.getAttribute('html', 'lang'), 'de', 'the login page too')
    t.equal(await page.textContent('form#admin-login button'), de['page.login'])
    await logInOnAdminPage(page, shop.url, ADMIN)
    t.equal(await page.getAttribute('html', 'lang'), 'de')
    t.equal(await page.getAttribute('html', 'dir'), 'ltr')
    t.equal(await page.textContent('h1'), de['page.settingsTitle'])
    t.same(await page.$$eval('section.admin-card > h2', (titles) => titles.map((title) => title.textContent)),
      ['enabled', 'drawer_config', 'launcher', 'behaviour', 'recommendations', 'language', 'rewards', 'smart_addons', 'bundles', 'spotlight', 'analytics']
        .map((key) => de[`section.${key}` as keyof typeof de]), 'every section\'s title')
    t.equal(await page.textContent('label[for="f-launcher-position"]'), de['label.launcher.position'])
    t.equal(await page.textContent('#f-drawer_config-animation option[value="fade"]'), de['option.drawer_config.animation.fade'])
    t.equal(await page.textContent('#f-drawer_config-width_desktop-help'), de['help.drawer_config.width_desktop'])
    t.equal(await page.textContent('[data-list="bundles.bundles.0.slots"] button[data-action="add"]'), de['list.bundles.bundles.slots.add'])
    t.equal(await page.getAttribute('[data-path="rewards.tiers.2"] h3', 'translate'), 'no', 'an item\'s own name is the shop\'s data')
    t.equal(await page.textContent('[data-path="spotlight.conditions.conditions.1"] [data-weekday="1"]'),
      await page.evaluate(() => new Intl.DateTimeFormat('de', { weekday: 'long', timeZone: 'UTC' }).format(new Date('2023-01-02T00:00:00Z'))), 'weekdays by Intl')
    t.equal(await page.textContent('[data-role="texts-locale"] option[value="fr"]'), de['option.language.locale.fr'])

    // A refusal: the screen's sentence in German, the server's message marked as English.
    await page.fill('#f-drawer_config-width_desktop', '5000')
    await saveAndWait(page)
    t.equal(await page.textContent(`${status} > span`), words('de').t('settings.notSaved', { count: 1 }), 'the status in German, with its count')
    t.equal(await page.getAttribute('[data-path="drawer_config.width_desktop"] .admin-error span', 'lang'), 'en', 'the server\'s own message is English, and says so')
    t.match(await page.textContent(`${status} [data-problem="drawer_config.width_desktop"]`), `${de['section.drawer_config']} › ${de['label.drawer_config.width_desktop']}: `)
    await page.click('button[data-action="discard"]')

    await page.evaluate(() => { window.scrollTo(0, 0) })
    const path = await screenshot(page, 'admin-languages-de')
    t.pass(`screenshot: ${path}`)
    t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation')
    t.same(errors, [], 'no script errors')
  })

  t.test('Arabic for this manager (?lang=ar): right to left, the layout mirrored', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await logInOnAdminPage(page, shop.url, ADMIN)
    await page.goto(`${shop.url}${ADMIN_PAGE}?lang=ar`)
    await page.waitForSelector('[data-section="drawer_config"]')
    t.equal(await page.getAttribute('html', 'lang'), 'ar')
    t.equal(await page.getAttribute('html', 'dir'), 'rtl')
    t.equal(await page.textContent('#section-drawer_config'), ar['section.drawer_config'])
    t.equal(await page.textContent('button[data-action="save"]'), ar['settings.save'])
    t.equal(await page.getAttribute('header nav a[aria-current="page"]', 'href'), `${ADMIN_PAGE}?lang=ar`, 'the links keep the language')
    const box = async (selector: string) => {
      const found = await page.locator(selector).first().boundingBox()
      if (found === null) throw new Error(`${selector} is not shown`)
      return found
    }
    const editor = await box('.admin-editor')
    const preview = await box('.admin-preview')
    t.ok(editor.x > preview.x, 'the settings on the right, the preview on their left')
    const label = await box('[data-path="drawer_config.width_desktop"] > label')
    const input = await box('#f-drawer_config-width_desktop')
    t.ok(label.x > input.x, 'a label on the right of its field')
    const brand = await box('.admin-brand')
    t.ok(brand.x + brand.width > (page.viewportSize()?.width ?? 0) - 60, 'the header starts on the right')
    t.equal(await page.textContent('[data-path="rewards.tiers.0"] .admin-money-sign'), '$', 'the currency\'s sign by the amount')

    await page.evaluate(() => { window.scrollTo(0, 0) })
    const path = await screenshot(page, 'admin-languages-ar')
    t.pass(`screenshot: ${path}`)
    t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation')
    t.same(errors, [], 'no script errors')
  })

  t.test('the analytics screen in German: dates and amounts with Intl', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await logInOnAdminPage(page, shop.url, ADMIN)
    await page.goto(`${shop.url}/admin/cart-drawer/analytics`)
    await page.waitForSelector('[data-total="attributed_revenue"] dd')
    const expected = await page.evaluate(() => {
      const today = new Date().toISOString().slice(0, 10)
      const from = new Date(`${today}T00:00:00Z`)
      from.setUTCDate(from.getUTCDate() - 29)
      const date = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' })
      return {
        money: new Intl.NumberFormat('de', { style: 'currency', currency: 'USD' }).format(0),
        from: date.format(from),
        to: date.format(new Date(`${today}T00:00:00Z`))
      }
    })
    t.equal(await page.textContent('[data-total="attributed_revenue"] dd'), expected.money, 'money in the shop\'s currency, written the German way')
    t.equal(await page.textContent('[data-role="totals"] > p'), words('de').t('analytics.period', { from: expected.from, to: expected.to }), 'the days, written the German way')
    t.equal(await page.textContent('[data-role="retention"]'), words('de').t('analytics.retention', { days: 90, link: de['analytics.retentionLink'] }))
    t.equal(await page.textContent('[data-total="drawer_open"] dt'), de['analytics.event.drawer_open'])
    t.same(errors, [], 'no script errors')
  })

  t.test('no English left: every text of the screens comes from the catalog', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    // The German page's catalog replaced by the English one with each message marked.
    const marked = JSON.stringify(markedCatalog())
    await page.route(`${shop.url}/assets/svc-admin-i18n/de.json*`, (route) => route.fulfill({ contentType: 'application/json', body: marked }))
    await logInOnAdminPage(page, shop.url, ADMIN)
    t.match(await page.textContent('#section-drawer_config'), /^⟦.*⟧$/, 'the screen is drawn with the marked catalog')
    await page.$eval('[data-role="texts"]', (details) => { (details as HTMLDetailsElement).open = true })
    await page.fill('#f-drawer_config-width_desktop', '5000')
    await page.fill('[data-path="rewards.tiers.0.threshold"] input', 'ten')
    await page.fill('#f-text-de-title', '{oops')
    await page.click('button[data-action="save"]')
    await page.waitForSelector(`${status} [data-role="problems"]`)
    await page.fill('#f-smart_addons-addons-0-product_id', 'zzz-no-such-product')
    await page.waitForSelector('[data-path="smart_addons.addons.0.product_id"] .admin-search-note:not(:empty)')
    await page.fill('#f-bundles-bundles-0-slots-0-product_ids', 'Cap')
    await page.waitForSelector('[data-path="bundles.bundles.0.slots.0.product_ids"] [data-role="results"] button')
    t.same(await unmarkedWords(page, '#admin-app'), [], 'the settings screen: no word outside the catalog\'s')
    await page.click('button[data-action="reset"]')
    await page.waitForSelector('dialog[open]')
    t.same(await unmarkedWords(page, 'dialog'), [], 'the confirmation')
    await page.click('dialog [data-dialog="cancel"]')

    await page.goto(`${shop.url}/admin/cart-drawer/analytics`)
    await page.waitForSelector('[data-role="chart"]')
    await page.$eval('[data-role="chart-area"] + div details', (details) => { (details as HTMLDetailsElement).open = true })
    t.same(await unmarkedWords(page, '#admin-app'), [], 'the analytics screen: no word outside the catalog\'s')
    // The check finds a word that is not a message, in a text or an attribute.
    await page.evaluate('document.querySelector("#sales-title").append(" Total"); document.querySelector("[data-action=show]").setAttribute("aria-label", "Show it")')
    const found = await unmarkedWords(page, '#admin-app')
    t.equal(found.length, 2, 'a literal is found')
    t.match(found[0], /^Total/, 'in a text')
    t.equal(found[1], 'aria-label="Show it"', 'in an attribute')
    t.same(errors, [], 'no script errors')
  })
})
