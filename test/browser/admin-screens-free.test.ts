import { ADMIN_PAGE, logInOnAdminPage, previewFrame, rootProperty, saveAndWait, status } from './admin-page.ts'
import { ADMIN, browserTest, launchBrowser, newPage, openShop, startShop } from './helpers.ts'

/**
 * The settings screen of the Free edition in Chromium: the Free sections only, the live preview, a save that the
 * storefront's drawer shows, and no analytics dashboard.
 */

const PRO_SECTIONS = ['smart_addons', 'bundles', 'spotlight', 'analytics']

browserTest('the Free edition\'s admin screen', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser)
  t.teardown(() => context.close())

  t.test('the demo admin logs in and sees the Free sections only', async (t) => {
    await logInOnAdminPage(page, shop.url, ADMIN)
    for (const section of ['enabled', 'drawer_config', 'launcher']) {
      t.equal(await page.locator(`[data-section="${section}"]`).count(), 1, `the ${section} section`)
    }
    for (const section of PRO_SECTIONS) {
      t.equal(await page.locator(`[data-section="${section}"]`).count(), 0, `no ${section} section in Free`)
    }
    t.equal(await page.locator('a[href$="/analytics"]').count(), 0, 'no link to an analytics dashboard')
  })

  t.test('an edit shows in the preview at once, and on the storefront once saved', async (t) => {
    const frame = await previewFrame(page)
    const saved = (await shop.app.settings.get()).settings.drawer_config.colors.primary
    t.equal(await rootProperty(frame, '--svc-c-primary'), saved, 'the preview starts with the saved colour')
    await page.fill('#f-drawer_config-colors-primary', '#0f766e')
    await frame.waitForFunction(() => (document.querySelector('[data-svc="root"]') as HTMLElement).style.getPropertyValue('--svc-c-primary') === '#0f766e')
    t.pass('the preview shows the unsaved colour')
    t.match(await page.textContent(status), 'Unsaved changes')
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, saved, 'nothing saved yet')

    t.match(await saveAndWait(page), 'Settings saved.')
    t.equal((await shop.app.settings.get()).settings.drawer_config.colors.primary, '#0f766e', 'saved')
    const store = await context.newPage()
    await openShop(store, shop.url + '/')
    t.equal(await rootProperty(store, '--svc-c-primary'), '#0f766e', 'the storefront drawer\'s colour')
    await store.close()
  })

  t.test('no analytics dashboard in Free', async (t) => {
    const response = await page.goto(shop.url + ADMIN_PAGE + 'analytics')
    t.equal(response?.status(), 404)
  })

  t.test('the page ran without script errors', async (t) => {
    t.same(errors, [], 'no page errors')
  })
})
