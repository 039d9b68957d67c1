import { readFile } from 'node:fs/promises'
import type { Frame, Page } from 'playwright-core'
import {
  ADMIN, browserTest, launchBrowser, logInAs, newPage, openShop, screenshot, SHOPPER, startShop
} from './helpers.ts'

/** The settings screen (Free) in Chromium: access, live preview, save, errors, conflict, import, export, reset. */

const ADMIN_PAGE = '/admin/cart-drawer/'
const status = '[data-role="status"]'

async function previewFrame (page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[data-role="preview"]')
  const frame = await handle.contentFrame()
  if (frame === null) throw new Error('no preview frame')
  await frame.waitForSelector('body[data-preview="ready"]')
  return frame
}

function rootProperty (target: Page | Frame, name: string): Promise<string> {
  return target.$eval('[data-svc="root"]', (root, property) => (root as HTMLElement).style.getPropertyValue(property), name)
}

async function saveAndWait (page: Page): Promise<string> {
  const answer = page.waitForResponse((response) => response.url().endsWith('/svc/v1/settings') && response.request().method() === 'POST')
  await page.click('button[data-action="save"]')
  await answer
  await page.waitForSelector('#admin-app:not([aria-busy])')
  return (await page.textContent(status)) ?? ''
}

browserTest('the settings screen', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)

  t.test('a shopper without manage_shop is refused; a guest is asked to log in', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    const guest = await page.goto(shop.url + ADMIN_PAGE)
    t.equal(guest?.status(), 401)
    t.ok(await page.isVisible('form#admin-login'), 'the login form')
    await logInAs(page, SHOPPER)
    const refused = await page.goto(shop.url + ADMIN_PAGE)
    t.equal(refused?.status(), 403)
    t.match(await page.textContent('main'), 'may not manage the shop')
    t.equal(await page.locator('#admin-app').count(), 0, 'no settings screen')
    await page.goto(shop.url + '/')
    t.equal(await page.locator('a[href="/admin/cart-drawer/"]').count(), 0, 'no admin link on the storefront for the shopper')
  })

  const { context, page, errors } = await newPage(browser)
  t.teardown(() => context.close())

  t.test('the demo admin logs in on the admin page and edits with a live preview', async (t) => {
    await page.goto(shop.url + ADMIN_PAGE)
    await page.fill('form#admin-login input[name="email"]', ADMIN.email)
    await page.fill('form#admin-login input[name="password"]', ADMIN.password)
    await page.click('form#admin-login button[type="submit"]')
    await page.waitForSelector('[data-section="drawer_config"]')
    for (const section of ['enabled', 'drawer_config', 'launcher', 'recommendations']) {
      t.equal(await page.locator(`[data-section="${section}"]`).count(), 1, `the ${section} section`)
    }
    t.equal(await page.locator('[data-section="smart_addons"]').count(), 0, 'no Pro section in Free')
    t.equal(await page.getAttribute('#f-drawer_config-width_desktop', 'max'), '960', 'bounds from the schema')
    t.equal(await page.getAttribute('#f-drawer_config-width_desktop', 'min'), '280')
    t.equal(await page.getAttribute('#f-drawer_config-colors-primary', 'type'), 'color')
    t.equal(await page.getAttribute('#f-launcher-show_total', 'type'), 'checkbox')

    const frame = await previewFrame(page)
    t.equal(await rootProperty(frame, '--svc-c-primary'), '#1f2937', 'the preview starts with the saved colour')
    await page.fill('#f-drawer_config-colors-primary', '#c2410c')
    await page.selectOption('#f-launcher-position', 'top-left')
    await frame.waitForFunction(() => (document.querySelector('[data-svc="root"]') as HTMLElement).style.getPropertyValue('--svc-c-primary') === '#c2410c')
    t.pass('the preview shows the unsaved colour')
    t.equal(await frame.getAttribute('[data-svc="launcher"]', 'data-v'), 'top', 'the preview\'s launcher moved to the top')
    t.equal(await frame.getAttribute('[data-svc="launcher"]', 'data-side'), 'start')
    t.match(await page.textContent(status), 'Unsaved changes')
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#1f2937', 'nothing saved yet')
    await screenshot(page, 'admin-settings-preview')
  })

  t.test('a value out of bounds is shown next to its field, and nothing is saved', async (t) => {
    const before = await shop.app.settings.get()
    await page.fill('#f-drawer_config-width_desktop', '5000')
    t.match(await saveAndWait(page), 'Nothing was saved')
    t.equal(await page.textContent('[data-path="drawer_config.width_desktop"] .admin-error'), 'must be at most 960')
    t.equal(await page.getAttribute('[data-path="drawer_config.width_desktop"]', 'data-invalid'), '')
    t.equal((await shop.app.settings.get()).version, before.version, 'nothing saved')
    await page.fill('#f-drawer_config-width_desktop', '480')
    t.equal(await page.textContent('[data-path="drawer_config.width_desktop"] .admin-error'), '', 'the message goes once the value changes')
  })

  t.test('saved: the storefront\'s drawer has the new colour and launcher corner', async (t) => {
    t.match(await saveAndWait(page), 'Settings saved.')
    const saved = await shop.app.settings.get()
    t.equal(saved.settings.drawer_config.colors.primary, '#c2410c')
    t.equal(saved.settings.launcher.position, 'top-left')
    t.equal(saved.settings.drawer_config.width_desktop, 480)
    const store = await context.newPage()
    await openShop(store, shop.url + '/')
    t.equal(await rootProperty(store, '--svc-c-primary'), '#c2410c', 'the storefront drawer\'s colour')
    t.equal(await store.getAttribute('[data-svc="launcher"]', 'data-v'), 'top')
    t.equal(await store.getAttribute('[data-svc="launcher"]', 'data-side'), 'start')
    t.equal(await store.locator('a[href="/admin/cart-drawer/"]').count(), 1, 'the storefront links the admin page for the manager')
    await store.close()
  })

  t.test('a save over another manager\'s is refused and can be redone knowingly', async (t) => {
    const other = await shop.app.settings.save({ drawer_config: { border_radius: 20 } })
    t.ok(other.ok)
    await page.fill('#f-drawer_config-border_radius', '8')
    t.match(await saveAndWait(page), 'Someone else saved the settings')
    t.equal((await shop.app.settings.get()).settings.drawer_config.border_radius, 20, 'theirs kept')
    const answer = page.waitForResponse((response) => response.url().endsWith('/svc/v1/settings') && response.request().method() === 'POST')
    await page.click('button[data-action="conflict-overwrite"]')
    await answer
    await page.waitForSelector(`${status}:has-text("Settings saved.")`)
    t.equal((await shop.app.settings.get()).settings.drawer_config.border_radius, 8, 'ours, saved knowingly')
  })

  t.test('a bad file lists every problem and changes nothing', async (t) => {
    const before = await shop.app.settings.get()
    // A whole export with three wrong values and a key no release knows.
    const settings = structuredClone(before.settings) as unknown as Record<string, Record<string, unknown>>
    settings.drawer_config!.width_desktop = 9999
    ;(settings.drawer_config!.colors as Record<string, unknown>).primary = 'red'
    settings.launcher!.position = 'middle'
    const bad = { format: 'svc-settings', schema_version: 1, settings: { ...settings, surprise: true } }
    await page.setInputFiles('input[data-action="import-file"]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) })
    await page.click('dialog [data-dialog="confirm"]')
    await page.waitForSelector(`${status} [data-role="problems"]`)
    const problems = await page.$$eval(`${status} [data-role="problems"] li`, (items) => items.map((item) => item.textContent))
    t.match(await page.textContent(status), 'nothing was changed: 4 problems')
    t.same(problems.sort(), [
      'settings.drawer_config.colors.primary: must be a colour written #rrggbb',
      'settings.drawer_config.width_desktop: must be at most 960',
      'settings.launcher.position: must be one of: bottom-right, bottom-left, top-right, top-left',
      'settings.surprise: is not a known setting'
    ])
    const after = await shop.app.settings.get()
    t.equal(after.version, before.version, 'nothing changed')
    t.same(after.settings, before.settings)

    await page.setInputFiles('input[data-action="import-file"]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not json') })
    await page.waitForSelector(`${status}:has-text("is not JSON")`)
    t.pass('a file that is not JSON is refused before anything is sent')
  })

  t.test('export, change, and import the export back', async (t) => {
    const download = page.waitForEvent('download')
    await page.click('button[data-action="export"]')
    const file = await download
    t.match(file.suggestedFilename(), /^svc-settings-\d{4}-\d{2}-\d{2}\.json$/)
    const exported = JSON.parse(await readFile((await file.path())!, 'utf8'))
    t.equal(exported.format, 'svc-settings')
    t.equal(exported.settings.drawer_config.colors.primary, '#c2410c')

    await page.fill('#f-drawer_config-colors-primary', '#15803d')
    t.match(await saveAndWait(page), 'Settings saved.')
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#15803d')

    await page.setInputFiles('input[data-action="import-file"]', { name: 'export.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) })
    await page.click('dialog [data-dialog="confirm"]')
    await page.waitForSelector(`${status}:has-text("Imported export.json.")`)
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#c2410c', 'the exported settings are back')
    t.equal(await page.inputValue('#f-drawer_config-colors-primary'), '#c2410c', 'and on the screen')
  })

  t.test('reset asks first, then restores the defaults', async (t) => {
    await page.click('button[data-action="reset"]')
    await page.click('dialog [data-dialog="cancel"]')
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#c2410c', 'cancelled: nothing changed')
    await page.click('button[data-action="reset"]')
    await page.click('dialog [data-dialog="confirm"]')
    await page.waitForSelector(`${status}:has-text("default settings are restored")`)
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#1f2937')
    t.equal(await page.inputValue('#f-launcher-position'), 'bottom-right')
    t.same(errors, [], 'no script errors')
  })
})
