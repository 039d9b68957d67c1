import { readFile } from 'node:fs/promises'
import { ADMIN_PAGE, logInOnAdminPage, previewFrame, rootProperty, saveAndWait, status } from './admin-page.ts'
import {
  addFromShop, ADMIN, browserTest, launchBrowser, logInAs, newPage, openShop, screenshot, SHOPPER, startShop
} from './helpers.ts'

/**
 * The admin screens in Chromium, on one Pro shop: access, the settings screen (live preview, save, errors next to
 * their fields, conflict, import, export, reset), an add-on built with a product picker and a condition, and the
 * analytics dashboard.
 */

/** A label that would run script if it were ever written as HTML. */
const HOSTILE_LABEL = 'Gift wrap <img src=x onerror="window.__owned=1">'

browserTest('the admin screens', async (t) => {
  const shop = await startShop(t, { edition: 'pro' })
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
    await logInOnAdminPage(page, shop.url, ADMIN)
    for (const section of ['enabled', 'drawer_config', 'launcher', 'recommendations', 'rewards', 'smart_addons', 'bundles', 'spotlight', 'analytics']) {
      t.equal(await page.locator(`[data-section="${section}"]`).count(), 1, `the ${section} section`)
    }
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
  })

  t.test('a smart add-on built on the screen, with a product picker and a condition, shows in the drawer', async (t) => {
    await page.click('button[data-path="smart_addons.addons.add"]')
    await page.waitForSelector('[data-path="smart_addons.addons.0"]')
    t.equal(await page.inputValue('#f-smart_addons-addons-0-id'), 'add-on-1', 'a fresh id')
    await page.fill('#f-smart_addons-addons-0-label', HOSTILE_LABEL)
    await page.fill('#f-smart_addons-addons-0-description', 'Wrapped with a ribbon.')
    // The product picker searches `products/search`: the gift wrap is hidden from the catalog but can be picked.
    await page.fill('#f-smart_addons-addons-0-product_id', 'wallet')
    const wallet = '[data-path="smart_addons.addons.0.product_id"] [data-role="results"] button[data-product-id="120"]'
    await page.waitForSelector(wallet)
    t.match(await page.textContent(wallet), 'Wallet <Limited> & "Special"', 'a product name is shown as text')
    t.equal(await page.locator('[data-role="results"] limited').count(), 0, 'and never parsed')
    await page.fill('#f-smart_addons-addons-0-product_id', 'gift')
    await page.click('[data-path="smart_addons.addons.0.product_id"] [data-role="results"] button[data-product-id="116"]')
    t.match(await page.textContent('[data-path="smart_addons.addons.0.product_id"] [data-role="chosen"]'), 'Gift Wrap (#116)')
    // A condition row from `conditions/types`: cart subtotal at least $10.00, typed in dollars, saved in cents.
    await page.click('[data-path="smart_addons.addons.0.conditions"] button[data-action="add-condition"]')
    const row = '[data-path="smart_addons.addons.0.conditions.conditions.0"]'
    await page.waitForSelector(row)
    await page.selectOption(`${row} #f-smart_addons-addons-0-conditions-conditions-0-type`, 'cart_subtotal')
    await page.selectOption(`${row} #f-smart_addons-addons-0-conditions-conditions-0-operator`, 'gte')
    await page.fill(`${row} #f-smart_addons-addons-0-conditions-conditions-0-value`, '10.00')
    await screenshot(page, 'admin-pro-addon')
    const answer = page.waitForResponse((r) => r.url().endsWith('/svc/v1/settings') && r.request().method() === 'POST')
    await page.click('button[data-action="save"]')
    await answer
    await page.waitForSelector(`${status}:has-text("Settings saved.")`)
    const saved = (await shop.app.settings.get()).settings.smart_addons.addons
    t.same(saved, [{
      id: 'add-on-1',
      product_id: 116,
      label: HOSTILE_LABEL,
      description: 'Wrapped with a ribbon.',
      conditions: { match: 'all', conditions: [{ type: 'cart_subtotal', operator: 'gte', value: 1000 }] }
    }])

    const shopper = await newPage(browser)
    t.teardown(() => shopper.context.close())
    await openShop(shopper.page, shop.url + '/')
    t.equal(await shopper.page.isVisible('[data-svc="addons"]'), false, 'an empty cart: the condition does not hold')
    await addFromShop(shopper.page, 101)
    await shopper.page.keyboard.press('Escape')
    await shopper.page.click('[data-svc="launcher"]')
    await shopper.page.waitForSelector('[data-svc="addons"]:not([hidden])')
    t.match(await shopper.page.textContent('[data-svc="addons"]'), HOSTILE_LABEL, 'the add-on, its label as text')
    t.equal(await shopper.page.locator('[data-svc="addons"] img').count(), 0, 'no element made of the label')
    t.equal(await shopper.page.evaluate('window.__owned'), undefined, 'nothing ran')
    t.same(shopper.errors, [])
  })

  t.test('the analytics dashboard reads the events the drawer sent; reset asks first', async (t) => {
    const shopper = await newPage(browser)
    t.teardown(() => shopper.context.close())
    await openShop(shopper.page, shop.url + '/')
    await shopper.page.evaluate('for (let i = 0; i < 3; i++) { window.svcDrawer.open(); window.svcDrawer.close() }')
    const sent = shopper.page.waitForResponse((r) => r.url().endsWith('/svc/v1/analytics/events'))
    await shopper.page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'))`)
    t.equal((await sent).status(), 202, 'the drawer sent its events')

    await page.goto(shop.url + '/admin/cart-drawer/analytics')
    await page.waitForSelector('[data-role="chart"]')
    const opens = Number(await page.textContent('[data-total="drawer_open"] dd'))
    // This page's three are stored before the 202 above. The earlier shopper's open is counted only if its 10-second
    // flush came before its context closed (closing a context fires no pagehide), so it is not asserted.
    t.ok(opens >= 3, `drawer opens counted (${opens}): at least this page's three`)
    const today = new Date().toISOString().slice(0, 10)
    const point = `[data-role="chart"] g[data-series="drawer_open"] circle[data-day="${today}"]`
    t.equal(Number(await page.getAttribute(point, 'data-value')), opens, 'today\'s point of the drawer-open line')
    t.equal(await page.locator('[data-role="chart"] g[data-series="drawer_open"] circle').count(), 30, 'one point a day over the last 30 days')
    // The day as the screens write it: Intl's, in their language (English here).
    const shown = await page.evaluate(`new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('${today}T00:00:00Z'))`)
    t.match(await page.textContent(`${point} title`), `${shown}: ${opens} drawer opens`)
    const cy = Number(await page.getAttribute(point, 'cy'))
    const baseline = Number(await page.getAttribute('[data-role="chart"] g[data-series="drawer_open"] circle[data-value="0"]', 'cy'))
    t.ok(cy < baseline, 'today\'s point is above the zero line')
    await screenshot(page, 'admin-pro-analytics')

    // A shorter range: the chart is drawn again for it.
    await page.click('button[data-days="7"]')
    await page.waitForFunction(() => document.querySelectorAll('[data-role="chart"] g[data-series="drawer_open"] circle').length === 7)
    t.pass('seven days, seven points')

    await page.click('button[data-action="reset-analytics"]')
    await page.click('dialog [data-dialog="cancel"]')
    t.equal(Number(await page.textContent('[data-total="drawer_open"] dd')), opens, 'cancelled: nothing deleted')
    await page.click('button[data-action="reset-analytics"]')
    await page.click('dialog [data-dialog="confirm"]')
    await page.waitForSelector(`${status}:has-text("events deleted")`)
    t.equal(Number(await page.textContent('[data-total="drawer_open"] dd')), 0, 'every count is zero again')
    t.same(errors, [], 'no script errors on the admin pages')
  })

  t.test('the dashboard shows what an order of drawer items brought, and downloads it as CSV', async (t) => {
    // A guest adds the Belt from the drawer's recommendations and places the order through the Store API checkout.
    const cart = await shop.app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart' })
    const token = String(cart.headers['cart-token'])
    const added = await shop.app.inject({ method: 'POST', url: '/wp-json/svc/v1/recommendations/add', headers: { 'cart-token': token }, payload: { product_id: 102 } })
    t.equal(added.statusCode, 200, 'added from the drawer', { body: added.body })
    const address = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'Boston', state: 'MA', postcode: '02110', country: 'US', phone: '' }
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wc/store/v1/checkout',
      headers: { 'cart-token': token },
      payload: { billing_address: { ...address, email: 'ada@example.com' }, shipping_address: address, payment_method: 'cod' }
    })
    t.equal(placed.statusCode, 200, 'the order is placed', { body: placed.body })
    const { order_id: id, order_key: key } = placed.json()
    const order = await shop.app.inject({ method: 'GET', url: `/wp-json/wc/store/v1/order/${id}?key=${key}&billing_email=ada@example.com` })
    const cents = Number(order.json().items.find((item: { id: number }) => item.id === 102).totals.line_total)
    const dollars = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`

    await page.goto(shop.url + '/admin/cart-drawer/analytics')
    await page.waitForSelector('[data-total="attributed_revenue"] dd')
    t.equal(await page.textContent('[data-total="attributed_revenue"] dd'), `$${dollars}`, 'the Belt\'s line, after discounts and before tax')
    t.equal(await page.textContent('[data-total="orders_with_drawer_items"] dd'), '1 of 1')
    t.match(await page.textContent('[data-role="sales"] table[class="admin-table"] >> nth=-1'), 'Belt', 'the top products list the Belt')
    t.match(await page.textContent('[data-role="retention"]'), 'kept for 90 days')
    t.equal(await page.getAttribute('[data-role="retention"] a', 'href'), '/admin/cart-drawer/#section-analytics')
    await screenshot(page, 'admin-pro-analytics-sales')

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="download-csv"][data-report="days"]')])
    const today = new Date().toISOString().slice(0, 10)
    t.match(download.suggestedFilename(), /^drawer-analytics-days-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = await readFile(await download.path(), 'utf8')
    const rows = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n')
    t.match(rows[0], /^Date,Drawer opens,/, 'a header row')
    t.equal(rows.length, 31, 'the header and the 30 days shown')
    t.match(rows.find((row) => row.startsWith(today)), new RegExp(`,1,1,[0-9.]+,${dollars.replace('.', '\\.')}$`), 'today: one order with drawer items, the Belt\'s revenue')
    await page.waitForSelector(`${status}:has-text("Downloaded")`)
    t.same(errors, [], 'no script errors')
  })
})
