import type { Page } from 'playwright-core'
import { CATALOGS } from '../../kernel/i18n/catalogs.ts'
import { LOCALES, type Locale } from '../../kernel/i18n/locales.ts'
import { ADMIN_PAGE, logInOnAdminPage, previewFrame } from './admin-page.ts'
import {
  ADMIN, addFromShop, browserTest, drawer, launchBrowser, MOBILE, newPage, openShop, PRO_WIDGET_SETTINGS, screenshot, seriousAxeViolations, startShop
} from './helpers.ts'

/**
 * The drawer in each of its languages, chosen by the page's `<html lang>`, at 390 px: its words from the
 * locale's catalog (a screenshot each, test/browser/screenshots/languages-<locale>-390.png), Arabic right to left
 * with its numbers and amounts in their own order, Japanese without a box wider than its container, the shop's own
 * text in the drawer and in the admin screen's live preview, and axe-core clean in Arabic and Japanese.
 */

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

/** The storefront with its `<html lang>` set to `lang` (as the host page of another language would have it). */
async function openInLanguage (page: Page, url: string, lang: string): Promise<void> {
  await page.route(`${url}/`, async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, body: (await response.text()).replace('<html lang="en">', `<html lang="${lang}">`) })
  })
  await openShop(page, `${url}/`)
}

/** Each character of an element's text with the left edge of its box, in logical order. */
function characterBoxes (page: Page, selector: string): Promise<Array<{ ch: string, x: number }>> {
  return page.$eval(selector, (element) => {
    const boxes: Array<{ ch: string, x: number }> = []
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const rect = range.getBoundingClientRect()
        if (rect.width > 0) boxes.push({ ch: text[i]!, x: rect.left })
      }
    }
    return boxes
  })
}

/** The elements of the open drawer that stick out of their parent's box (more than half a pixel), as `tag.class`. */
function widerThanContainer (page: Page): Promise<string[]> {
  return page.$$eval(`${drawer} *`, (elements) => elements.flatMap((element) => {
    const parent = element.parentElement
    if (parent === null || element.closest('svg') !== null || element.closest('.svc-sr') !== null) return []
    const box = element.getBoundingClientRect()
    const room = parent.getBoundingClientRect()
    if (box.width === 0 || getComputedStyle(parent).overflowX !== 'visible') return []
    return box.left < room.left - 0.5 || box.right > room.right + 0.5
      ? [`${element.tagName.toLowerCase()}.${element.className} ${Math.round(box.left)}–${Math.round(box.right)} in ${Math.round(room.left)}–${Math.round(room.right)}`]
      : []
  }))
}

browserTest('the drawer in six languages', async (t) => {
  const shop = await startShop(t, {
    edition: 'pro',
    settings: { ...PRO_WIDGET_SETTINGS, language: { locale: 'en', texts: { de: { checkout: 'Jetzt sicher bezahlen' } } } }
  })
  const browser = await launchBrowser(t)

  for (const locale of LOCALES) {
    t.test(`${locale}: the page's language chooses the catalog`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport: MOBILE })
      t.teardown(() => context.close())
      await openInLanguage(page, shop.url, locale)
      await addFromShop(page, 101)
      await settled(page)
      const catalog = CATALOGS[locale as Locale]
      t.equal(await page.getAttribute('[data-svc="root"]', 'lang'), locale, 'the drawer says its language')
      t.equal(await page.textContent('#svc-drawer-title'), catalog.title, 'the title from the catalog')
      t.equal(await page.textContent(`${drawer} [data-svc="checkout"]`), locale === 'de' ? 'Jetzt sicher bezahlen' : catalog.checkout,
        locale === 'de' ? 'the shop\'s own text for German' : 'the checkout link from the catalog')
      if (locale === 'ar' || locale === 'ja') {
        // Three of the beanie and a coupon: a number in the count, a discount with its minus sign.
        await page.locator(`${drawer} [data-fk^="inc:"]`).click()
        await settled(page)
        await page.locator(`${drawer} [data-fk^="inc:"]`).click()
        await settled(page)
        await page.fill(`${drawer} input[name="coupon"]`, 'save10')
        await page.press(`${drawer} input[name="coupon"]`, 'Enter')
        await settled(page)
        await page.waitForSelector(`${drawer} [data-svc="discount"]`)
      }
      if (locale === 'ar') {
        t.equal(await page.getAttribute('[data-svc="root"]', 'dir'), 'rtl', 'right to left')
        const count = await characterBoxes(page, `${drawer} [data-svc="count"]`)
        const three = count.find((box) => box.ch === '3')
        const word = count.find((box) => box.ch === 'م')
        t.ok(three && word && three.x > word.x, '"(3 منتجات)": the number before its word, read from the right (not "(منتجات 3)")')
        const open = count.find((box) => box.ch === '(')
        t.ok(open && three && open.x > three.x, 'the opening parenthesis first, on the right')
        for (const name of ['discount', 'total']) {
          const amount = await characterBoxes(page, `${drawer} [data-svc="${name}"] bdi`)
          const digits = amount.filter((box) => /[0-9.]/.test(box.ch))
          t.ok(digits.length >= 4 && digits.every((box, i) => i === 0 || box.x > digits[i - 1]!.x), `${name}: the amount's digits left to right (${amount.map((box) => box.ch).join('')})`)
          const minus = amount.find((box) => box.ch === '\u2212')
          if (name === 'discount') t.ok(minus && minus.x < digits[0]!.x, 'the minus sign before the amount, not after it ("$10.80−")')
          else t.notOk(minus, 'no minus in the total')
        }
        const goal = await characterBoxes(page, `${drawer} [data-svc="meter"] .svc-meta`)
        const goalDigits = goal.filter((box) => /[0-9]/.test(box.ch))
        t.ok(goalDigits.length >= 4 && goalDigits.every((box, i) => i === 0 || box.x > goalDigits[i - 1]!.x),
          `the rewards sentence keeps its amount's digits left to right (${goal.map((box) => box.ch).join('')})`)
        const chip = await characterBoxes(page, `${drawer} .svc-chip span`)
        const minusAt = chip.findIndex((box) => box.ch === '\u2212')
        const chipMinus = chip[minusAt]
        const chipDigit = chip.slice(minusAt).find((box) => /[0-9]/.test(box.ch))
        t.ok(chipMinus && chipDigit && chipMinus.x < chipDigit.x, 'the coupon chip\'s amount keeps its minus before it')
      }
      if (locale === 'ja') t.same(await widerThanContainer(page), [], 'no element wider than its container')
      if (locale === 'ar' || locale === 'ja') t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation')
      t.same(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), true, 'nothing scrolls sideways')
      const path = await screenshot(page, `languages-${locale}-390`)
      t.pass(`screenshot: ${path}`)
      t.same(errors, [], 'no script error')
    })
  }

  t.test('a page language the drawer does not speak: the shop\'s locale', async (t) => {
    t.ok((await shop.app.settings.save({ language: { locale: 'fr' } })).ok)
    t.teardown(async () => { await shop.app.settings.save({ language: { locale: 'en' } }) })
    const { context, page } = await newPage(browser, { viewport: MOBILE })
    t.teardown(() => context.close())
    await openInLanguage(page, shop.url, 'pt-BR')
    await page.click('[data-svc="launcher"]')
    t.equal(await page.textContent('#svc-drawer-title'), CATALOGS.fr.title)
  })

  t.test('the shop\'s own text shows in the admin screen\'s live preview as it is typed', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await logInOnAdminPage(page, shop.url, ADMIN)
    t.equal(page.url(), shop.url + ADMIN_PAGE)
    await previewFrame(page)
    await page.selectOption('[data-role="texts-locale"]', 'de')
    await page.$eval('[data-role="texts"]', (details) => { (details as HTMLDetailsElement).open = true })
    const frame = await previewFrame(page)
    await frame.waitForFunction(() => document.body.dataset.previewLocale === 'de')
    t.equal(await frame.textContent('[data-svc="checkout"]'), 'Jetzt sicher bezahlen', 'the saved German text')
    await page.fill('#f-text-de-title', 'Ihr Einkaufskorb')
    await frame.waitForFunction(() => document.querySelector('#svc-drawer-title')?.textContent === 'Ihr Einkaufskorb')
    t.pass('the typed title shows in the preview before it is saved')
    await page.fill('#f-text-de-count', '({menge} Stück)')
    t.match(await page.textContent('[data-error="language.texts.de.count"]'), /must use \{count\}/, 'a text without the placeholder is marked at once')
    await screenshot(page, 'languages-admin-preview-de')
  })
})
