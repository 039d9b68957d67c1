import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { ADMIN_PAGE, previewFrame } from './admin-page.ts'
import { ADMIN, browserTest, FREE_SHIPPING_TIER, launchBrowser, newPage, startShop } from './helpers.ts'

/**
 * The settings screen with the keyboard alone (Pro, 1280×800): log in with Tab, typing and Enter; Tab through the
 * form to a list, a checkbox and an amount; change them with the arrow keys, Space and typing; save with the Save
 * button (Shift+Tab back to it, Enter) and with Enter in a field. Every place the focus stops shows a focus ring.
 * The live preview, which draws its drawer again as a text is typed, never takes the focus from the field.
 */

/** What has the focus: its id, or its tag and text. */
const FOCUSED = `(() => {
  const element = document.activeElement
  if (!element || element === document.body) return 'body'
  return element.id ? '#' + element.id : element.tagName.toLowerCase() + ' "' + (element.textContent || '').trim().slice(0, 30) + '"'
})()`

/** Whether the focused element shows that it has the focus: an outline or a box shadow, and `:focus-visible`. */
const FOCUS_SHOWN = `(() => {
  const element = document.activeElement
  if (!element || element === document.body) return false
  const style = getComputedStyle(element)
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
  return element.matches(':focus-visible') && (outline || style.boxShadow !== 'none')
})()`

/**
 * Presses Tab (or Shift+Tab) until `selector` has the focus, at most `limit` times; every stop on the way must show
 * its focus. Returns the stops.
 */
async function tabTo (t: Test, page: Page, selector: string, options: { back?: boolean, limit?: number } = {}): Promise<string[]> {
  const stops: string[] = []
  const hidden: string[] = []
  for (let presses = 0; presses < (options.limit ?? 60); presses++) {
    await page.keyboard.press(options.back === true ? 'Shift+Tab' : 'Tab')
    const stop = await page.evaluate(FOCUSED) as string
    stops.push(stop)
    if (!(await page.evaluate(FOCUS_SHOWN) as boolean)) hidden.push(stop)
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) === true, selector)) {
      t.same(hidden, [], `the focus is shown at every stop on the way to ${selector} (${stops.length} stops)`, { stops })
      return stops
    }
  }
  throw new Error(`${selector} never had the focus; the stops: ${stops.join(', ')}`)
}

browserTest('the settings screen with the keyboard alone', async (t) => {
  const shop = await startShop(t, { edition: 'pro', settings: { rewards: { tiers: [FREE_SHIPPING_TIER] } } })
  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser, { viewport: { width: 1280, height: 800 } })
  t.teardown(() => context.close())
  const before = (await shop.app.settings.get()).settings

  t.test('logging in: Tab to the e-mail, type, Tab, type the password, Enter', async (t) => {
    await page.goto(shop.url + ADMIN_PAGE)
    await page.waitForSelector('form#admin-login')
    await tabTo(t, page, 'input[name="email"]')
    await page.keyboard.type(ADMIN.email)
    await page.keyboard.press('Tab')
    t.equal(await page.evaluate('document.activeElement.name'), 'password')
    await page.keyboard.type(ADMIN.password)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-section="drawer_config"]')
    t.pass('the settings screen')
  })

  t.test('a list, a checkbox and an amount changed with the keyboard, saved with the Save button', async (t) => {
    const select = '#f-launcher-position'
    await tabTo(t, page, select)
    t.equal(await page.inputValue(select), before.launcher.position)
    await page.keyboard.press('ArrowDown')
    const position = await page.inputValue(select)
    t.not(position, before.launcher.position, `the arrow key chose another corner (${position})`)

    const checkbox = '#f-launcher-show_total'
    await tabTo(t, page, checkbox)
    await page.keyboard.press('Space')
    t.equal(await page.isChecked(checkbox), !before.launcher.show_total, 'Space ticked the checkbox')

    const amount = '#f-rewards-tiers-0-threshold'
    await tabTo(t, page, amount)
    await page.keyboard.press('Control+A')
    await page.keyboard.type('75')

    const save = 'button[data-action="save"]'
    await tabTo(t, page, save, { back: true })
    const answer = page.waitForResponse((response) => response.url().endsWith('/svc/v1/settings') && response.request().method() === 'POST')
    await page.keyboard.press('Enter')
    t.equal((await answer).status(), 200)
    await page.waitForSelector('[data-role="status"]:has-text("Settings saved.")')
    const saved = (await shop.app.settings.get()).settings
    t.equal(saved.launcher.position, position, 'the corner chosen')
    t.equal(saved.launcher.show_total, !before.launcher.show_total, 'the checkbox')
    t.equal(saved.rewards.tiers[0]!.threshold, 7500, '75 dollars, saved in cents')
  })

  t.test('Enter in a field saves too', async (t) => {
    const title = '#f-spotlight-title'
    await tabTo(t, page, title, { limit: 80 })
    await page.keyboard.type('Complete your look')
    const answer = page.waitForResponse((response) => response.url().endsWith('/svc/v1/settings') && response.request().method() === 'POST')
    await page.keyboard.press('Enter')
    t.equal((await answer).status(), 200)
    await page.waitForSelector('[data-role="status"]:has-text("Settings saved.")')
    t.equal((await shop.app.settings.get()).settings.spotlight.title, 'Complete your look')
    t.equal(await page.evaluate(FOCUSED), title, 'the focus stays in the field after the save')
    t.same(errors, [], 'no script errors')
  })

  t.test('the preview drawing its drawer again, as a text is typed, leaves the focus in the field', async (t) => {
    const frame = await previewFrame(page)
    await page.$eval('[data-role="texts"]', (details) => { (details as HTMLDetailsElement).open = true })
    const field = '#f-text-en-title'
    await page.click(field)
    // Every time the field loses the focus is counted, from here on.
    await page.$eval(field, (input) => {
      (window as unknown as { lost: number }).lost = 0
      input.addEventListener('blur', () => { (window as unknown as { lost: number }).lost++ })
    })
    await page.keyboard.type('Your bag')
    // A changed text draws a new drawer in the frame, and opens it.
    await frame.waitForFunction(() => document.querySelector('.svc-open #svc-drawer-title')?.textContent === 'Your bag')
    await page.keyboard.type(' today')
    await frame.waitForFunction(() => document.querySelector('.svc-open #svc-drawer-title')?.textContent === 'Your bag today')
    t.equal(await page.inputValue(field), 'Your bag today', 'every key typed landed in the field')
    t.equal(await page.evaluate(FOCUSED), field, 'the focus is still in the field')
    t.equal(await page.evaluate(FOCUS_SHOWN), true, 'and shown')
    t.equal(await page.evaluate('window.lost'), 0, 'the field never lost the focus while the preview drew itself again')
    t.same(errors, [], 'no script errors')
  })
})
