import type { Page } from 'playwright-core'
import {
  addFromShop, browserTest, DESKTOP, drawer, drawerLines, focused, inDrawer, launchBrowser, MOBILE, newPage, openShop, screenshot, startShop, Traffic
} from './helpers.ts'
import { waitFor } from '../helper.ts'

/** The live region's announcement, once written (it is cleared and written again a moment later, so repeats are read out). */
async function liveText (page: import('playwright-core').Page): Promise<string> {
  await page.waitForFunction(() => (document.querySelector('[data-svc="live"]')?.textContent ?? '') !== '')
  return (await page.textContent('[data-svc="live"]')) ?? ''
}

/** The Free edition in headless Chromium: the storefront, the drawer and launcher, keyboard, errors, screenshots. */

function transition (page: Page): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector('${drawer}')).transitionDuration.split(',')[0]`)
}

/** Presses Tab until the focused control is `name` (see `focused`), at most 40 times; whether it got there. */
async function tabTo (page: Page, name: string): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (await focused(page) === name) return true
    await page.keyboard.press('Tab')
  }
  return false
}

/** Waits for the drawer's action to end: it is busy (set as the click is handled) through the change and the refresh after it. */
async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

browserTest('the drawer in the Free edition', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)

  t.test('the page loads one cacheable script and tells it its configuration', async (t) => {
    const page = await shop.app.inject({ url: '/' })
    const src = /<script src="(\/assets\/svc-drawer\.js\?v=([\w-]+))" defer><\/script>/.exec(page.body)
    t.ok(src, 'every storefront page has the drawer script')
    const config = /<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/.exec(page.body)
    t.match(JSON.parse(config?.[1] ?? '{}'), { restRoot: '/wp-json/', edition: 'free', loggedIn: false, nonce: null, drawerConfig: { position: 'right' }, launcher: { enabled: true } })
    const script = await shop.app.inject({ url: src?.[1] ?? '', headers: { 'accept-encoding': 'gzip, br' } })
    t.equal(script.statusCode, 200)
    t.match(script.headers['content-type'], 'text/javascript')
    t.equal(script.headers['content-encoding'], 'gzip', 'sent gzipped')
    t.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable', 'the hashed URL is cached for a year')
    t.equal(script.headers.etag, `"${src?.[2]}"`)
    const again = await shop.app.inject({ url: '/assets/svc-drawer.js', headers: { 'if-none-match': `"${src?.[2]}"` } })
    t.equal(again.statusCode, 304, 'revalidated by ETag')
    const plain = await shop.app.inject({ url: '/assets/svc-drawer.js' })
    t.equal(plain.headers['cache-control'], 'public, max-age=300', 'the bare URL for five minutes')
    t.notOk(plain.body.includes('innerHTML'), 'the drawer never writes server strings as HTML')

    t.ok((await shop.app.settings.save({ enabled: false })).ok)
    t.notMatch((await shop.app.inject({ url: '/' })).body, 'svc-drawer', 'the master switch off: no drawer on the page')
    t.ok((await shop.app.settings.save({ enabled: true })).ok)
  })

  t.test('add to cart from the storefront opens the drawer from the fragment, with no request after the response', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    t.ok(traffic.requests.some((r) => r.method === 'GET' && r.url.endsWith('/wp-json/wc/store/v1/cart')), 'the page load fetched the Store API cart (for the Cart-Token)')
    const drawerData = traffic.requests.find((r) => r.url.includes('/svc/v1/drawer-data'))
    t.match(drawerData?.headers['cart-token'], /^[\w-]+\.[\w-]+\.[\w-]+$/, 'svc/v1 calls carry the Cart-Token from the Store API')
    t.notOk(drawerData?.headers['x-wp-nonce'], 'a guest sends no X-WP-Nonce')
    t.equal(await page.getAttribute(drawer, 'hidden'), '', 'the drawer starts closed')
    t.equal(await page.textContent('[data-svc="launcher"] .svc-badge'), '0')

    await addFromShop(page, 110)
    await page.waitForTimeout(1000)
    t.same(traffic.afterLastAdd().map((r) => `${r.method} ${r.url}`), [], 'no request follows the add-to-cart response')
    t.same(await drawerLines(page), ['Vintage Jacket × 1'])
    t.match(await page.textContent(`${drawer} [data-svc="backorder"]`), 'Made to order: ships in about three weeks.')
    t.match(await page.textContent(`${drawer} [data-svc="total"]`), '$137.50', 'total with tax and shipping')
    t.equal(await page.textContent('[data-svc="launcher"] .svc-badge'), '1', 'the launcher counts the item')

    await page.keyboard.press('Escape')
    await addFromShop(page, 101)
    await page.waitForTimeout(700)
    t.same(traffic.afterLastAdd(), [], 'a second add makes no request either')
    t.same(await drawerLines(page), ['Vintage Jacket × 1', 'Beanie × 1'])
    t.match(await liveText(page), /Beanie added to the cart\. Cart: 2 items, total \$/, 'the live region announces the change')
    t.equal(await page.textContent('[data-svc="launcher"] .svc-badge'), '2')

    for (const widget of ['addons', 'spotlight', 'bundles']) {
      t.equal(await page.locator(`[data-svc="${widget}"]`).count(), 0, `no Pro ${widget} in Free`)
    }
    t.equal(await page.locator('[data-svc="meter"]').isVisible(), false, 'no rewards bar without a reward tier (the default)')
    t.notOk(traffic.requests.some((r) => /bundle-builder|smart-addons|shipping-meter|analytics/.test(r.url)), 'no Pro route is called in Free')
    await screenshot(page, 'free-desktop-drawer')
    t.same(errors, [], 'no script errors')
  })

  t.test('quantity changes (Store API update-item) and removal (svc/v1), only where the line allows them', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await page.keyboard.press('Escape')
    await addFromShop(page, 112)

    const album = page.locator(`${drawer} .svc-line`, { hasText: 'Album' })
    t.equal(await album.locator('input').count(), 0, 'a sold-individually line has no quantity controls')
    t.match(await album.textContent(), 'Quantity: 1')
    t.equal(await album.getByRole('button', { name: 'Remove Album from the cart' }).count(), 1, 'but can be removed')

    const beanie = page.locator(`${drawer} .svc-line`, { hasText: 'Beanie' })
    t.equal(await beanie.locator('button[data-fk^="dec:"]').isDisabled(), true, 'decrease is off at the minimum')
    let mark = traffic.mark()
    await beanie.getByRole('button', { name: 'Increase the quantity of Beanie' }).click()
    await settled(page)
    const update = traffic.since(mark, '/wc/store/v1/cart/update-item')[0]
    t.ok(update, 'the quantity goes through the Store API')
    t.match(update?.headers['cart-token'], /\./, 'with the Cart-Token')
    t.match(JSON.parse(update?.body ?? '{}'), { quantity: 2 })
    t.ok(traffic.since(mark, '/svc/v1/drawer-data').length > 0, 'then the drawer state is fetched again')
    t.same(await drawerLines(page), ['Beanie × 2', 'Album × 1'])
    t.equal(await focused(page), `inc:${await beanie.getAttribute('data-key')}`, 'focus stays on the button after the redraw')

    await beanie.locator('input').fill('5')
    await beanie.locator('input').press('Enter')
    await settled(page)
    t.same(await drawerLines(page), ['Beanie × 5', 'Album × 1'], 'a typed quantity is applied')
    t.match(await beanie.textContent(), '5 × $18.00')

    mark = traffic.mark()
    await album.getByRole('button', { name: 'Remove Album from the cart' }).click()
    await settled(page)
    const removal = traffic.since(mark, '/svc/v1/cart/remove-items')[0]
    t.match(JSON.parse(removal?.body ?? '{}'), { keys: [/^[0-9a-f]{32}$/] }, 'removal posts the key to svc/v1')
    t.same(await drawerLines(page), ['Beanie × 5'])
    t.match(await liveText(page), 'Album removed from the cart.')
    await page.getByRole('button', { name: 'Remove Beanie from the cart' }).click()
    await settled(page)
    t.match(await page.textContent(`${drawer} [data-svc="cart"]`), 'Your cart is empty.')
    t.match(await focused(page), /^undo:/, 'focus goes to the Undo button when its line is gone (behaviour.undo_seconds, on by default)')
    t.same(errors, [])
  })

  t.test('coupons: applied, refused in words, removed', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 104)
    const code = page.getByLabel('Coupon code')
    await code.fill('expired')
    await page.getByRole('button', { name: 'Apply' }).click()
    await settled(page)
    t.equal(await page.textContent('[data-svc="coupon-message"]'), 'This coupon has expired.', 'the refusal is shown in words')
    t.equal(await code.inputValue(), 'expired', 'the code stays for correcting')

    await code.fill('usedup')
    await code.press('Enter')
    await settled(page)
    t.match(await page.textContent('[data-svc="coupon-message"]'), /usage limit/i)

    await code.fill('SAVE10')
    await code.press('Enter')
    await settled(page)
    t.equal(await page.textContent('[data-svc="coupon-message"]'), '', 'the message is cleared')
    t.match(await page.textContent('.svc-chip'), 'Coupon: save10 (−$9.00)')
    t.match(await page.textContent(`${drawer} [data-svc="discount"]`), '−$9.00')

    await code.fill('save10')
    await code.press('Enter')
    await settled(page)
    t.match(await page.textContent('[data-svc="coupon-message"]'), /already (been )?applied/i)

    await page.getByRole('button', { name: 'Remove coupon save10' }).click()
    await settled(page)
    t.equal(await page.locator('.svc-chip').count(), 0)
    t.equal(await page.locator(`${drawer} [data-svc="discount"]`).count(), 0)
  })

  t.test('recommendations: shown for the cart, added from the drawer', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    // After an add the drawer made no request, so it has not asked for the new cart's recommendations yet: the
    // shopper's next step (closing, or opening it again) brings them.
    await page.keyboard.press('Escape')
    await page.click('[data-svc="launcher"]')
    await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
    const names = await page.$$eval('[data-svc="recommendations"] .svc-card .svc-name', (links) => links.map((link) => link.textContent))
    t.same(names, ['Belt', 'Cap'], 'the Beanie\'s cross-sells')
    const mark = traffic.mark()
    await page.locator('[data-svc="recommendations"]').getByRole('button', { name: 'Add Cap to the cart' }).click()
    await settled(page)
    t.match(JSON.parse(traffic.since(mark, '/svc/v1/recommendations/add')[0]?.body ?? '{}'), { product_id: 103 })
    t.same(await drawerLines(page), ['Beanie × 1', 'Cap × 1'])
    const after = await page.$$eval('[data-svc="recommendations"] .svc-card .svc-name', (links) => links.map((link) => link.textContent))
    t.notOk(after.includes('Cap'), 'a product in the cart is no longer recommended')
  })

  t.test('a dialog for the keyboard: Enter or Space opens it, focus trap, quantity, removal and coupon by keyboard, Escape back to the launcher', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 103)
    await page.keyboard.press('Escape')
    await addFromShop(page, 101)
    await page.keyboard.press('Escape')
    t.equal(await focused(page), 'launcher', 'Escape returns focus to the launcher')
    t.equal(await page.getAttribute('[data-svc="launcher"]', 'aria-expanded'), 'false')

    await page.keyboard.press('Space')
    await page.waitForSelector(`${drawer}:not([hidden])`)
    t.equal(await focused(page), 'close', 'Space on the launcher opens the drawer')
    await page.keyboard.press('Escape')
    await page.waitForSelector(drawer, { state: 'hidden' })

    await page.keyboard.press('Enter')
    await page.waitForSelector(`${drawer}:not([hidden])`)
    await settled(page)
    t.equal(await page.getAttribute(drawer, 'role'), 'dialog')
    t.equal(await page.getAttribute(drawer, 'aria-modal'), 'true')
    t.equal(await page.textContent(`#${await page.getAttribute(drawer, 'aria-labelledby')}`), 'Your cart', 'labelled by its heading')
    t.equal(await page.getAttribute('[data-svc="launcher"]', 'aria-expanded'), 'true')
    t.equal(await focused(page), 'close', 'Enter opens it, and focus moves into the dialog')
    await page.keyboard.press('Shift+Tab')
    t.equal(await focused(page), 'checkout', 'Shift+Tab from the first control goes to the last')
    await page.keyboard.press('Tab')
    t.equal(await focused(page), 'close', 'and Tab from the last to the first')

    const seen = new Set<string>()
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab')
      t.ok(await inDrawer(page), `Tab ${i + 1} stays inside the drawer`)
      seen.add(await focused(page))
    }
    t.ok(seen.has('close') && seen.has('checkout') && seen.has('coupon-code'), `Tab cycles through the drawer (${[...seen].join(', ')})`)

    // Keyboard only from here: Tab to a control, Enter to use it.
    const beanie = await page.locator(`${drawer} .svc-line`, { hasText: 'Beanie' }).getAttribute('data-key')
    const cap = await page.locator(`${drawer} .svc-line`, { hasText: 'Cap' }).getAttribute('data-key')
    t.ok(await tabTo(page, `inc:${beanie}`), 'Tab reaches the Beanie\'s increase button')
    await page.keyboard.press('Enter')
    await settled(page)
    t.same(await drawerLines(page), ['Cap × 1', 'Beanie × 2'], 'Enter on it changes the quantity')
    t.equal(await focused(page), `inc:${beanie}`, 'focus stays on the button')

    t.ok(await tabTo(page, `rm:${cap}`), 'Tab reaches the Cap\'s remove button')
    await page.keyboard.press('Enter')
    await settled(page)
    t.same(await drawerLines(page), ['Beanie × 2'], 'Enter on it removes the line')
    t.ok(await inDrawer(page), 'focus stays in the drawer')

    t.ok(await tabTo(page, 'coupon-code'), 'Tab reaches the coupon field')
    await page.keyboard.type('save10')
    await page.keyboard.press('Enter')
    await settled(page)
    t.match(await page.textContent(`${drawer} .svc-chip`), 'save10', 'typing a code and Enter applies it')
    t.equal(await focused(page), 'coupon-code', 'focus stays in the field')

    await page.keyboard.press('Escape')
    await page.waitForSelector(drawer, { state: 'hidden' })
    t.equal(await focused(page), 'launcher', 'Escape closes it, and focus is back on the launcher')
  })

  t.test('the jQuery added_to_cart event works as well, also without any request', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    // A stand-in for jQuery's on/trigger: handlers get (event, ...extra parameters), as jQuery calls them.
    await page.addInitScript(`window.jQuery = (element) => ({
      on (type, handler) { (element.__jq ??= {})[type] = [...(element.__jq[type] ?? []), handler]; return this },
      trigger (type, args) { for (const handler of element.__jq?.[type] ?? []) handler({ type }, ...args); return this },
      0: element
    })`)
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await page.evaluate(`(async () => {
      const response = await fetch('/?wc-ajax=add_to_cart', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'product_id=107&quantity=3' })
      const data = await response.json()
      window.jQuery(document.body).trigger('added_to_cart', [data.fragments, data.cart_hash, window.jQuery(document.body)])
    })()`)
    await page.waitForSelector(`${drawer}:not([hidden])`)
    await page.waitForTimeout(500)
    t.same(traffic.afterLastAdd(), [], 'no request after the response')
    t.same(await drawerLines(page), ['T-Shirt × 3'])

    // The storefront fires both events for one add: the drawer handles it once.
    await page.keyboard.press('Escape')
    await addFromShop(page, 103)
    await page.waitForTimeout(500)
    t.same(traffic.afterLastAdd(), [])
    t.same(await drawerLines(page), ['T-Shirt × 3', 'Cap × 1'])
  })

  t.test('server strings are text, and a custom presentation goes to the shop\'s renderer', async (t) => {
    const remove = shop.app.shop.filters.add('svc_cart_item_data', (row) => ({
      ...row,
      extraLines: [{ label: 'Engraving', value: '<img src=x onerror="window.hacked = 1">' }],
      customPresentation: { template: 'gift' }
    }))
    t.teardown(remove)
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await page.evaluate('document.addEventListener("svc-drawer:custom-line", (event) => { window.custom = event.detail.customPresentation.template + " for " + event.target.dataset.key })')
    await addFromShop(page, 120)
    const line = page.locator(`${drawer} .svc-line`)
    t.match(await line.locator('.svc-name').textContent(), 'Wallet <Limited> & "Special"', 'the name as text')
    t.match(await line.locator('.svc-extra').textContent(), 'Engraving: <img src=x onerror="window.hacked = 1">', 'filter output as text')
    t.equal(await line.locator('img').count(), 1, 'no element was made from it (only the thumbnail)')
    t.equal(await page.evaluate('window.hacked'), undefined)
    t.match(await page.evaluate('window.custom'), /^gift for [0-9a-f]{32}$/, 'svc-drawer:custom-line carries the customPresentation')
    t.same(errors, [])
  })

  t.test('the variable product page posts variation_id and attributes', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, `${shop.url}/product/hoodie/`)
    const add = page.locator('form.cart button[type="submit"]')
    t.ok(await add.isDisabled(), 'nothing to add before a choice')
    await page.selectOption('select[name="attribute_pa_color"]', 'red')
    await page.selectOption('select[name="attribute_pa_size"]', 'small')
    t.match(await page.textContent('#variation-price'), 'out of stock')
    t.ok(await add.isDisabled(), 'an out-of-stock variation cannot be added')
    await page.selectOption('select[name="attribute_pa_color"]', 'blue')
    await page.selectOption('select[name="attribute_pa_size"]', 'large')
    t.equal(await page.textContent('#variation-price'), '$48.00')
    const request = page.waitForRequest((r) => r.url().includes('wc-ajax=add_to_cart'))
    await add.click()
    t.match(Object.fromEntries(new URLSearchParams((await request).postData() ?? '')), {
      product_id: '106', variation_id: '1062', attribute_pa_color: 'blue', attribute_pa_size: 'large', quantity: '1'
    })
    await page.waitForSelector(`${drawer}:not([hidden])`)
    const line = page.locator(`${drawer} .svc-line`)
    t.match(await line.textContent(), /Color: blue, Size: large/, 'the variation summary of the presentation row')
  })

  t.test('server errors in words: the real rate limit (429, Retry-After) and a 503', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    const code = page.getByLabel('Coupon code')
    let message = ''
    for (let i = 0; i < 12 && !/Too many/.test(message); i++) {
      await code.fill('nope')
      await code.press('Enter')
      await settled(page)
      message = await page.textContent('[data-svc="coupon-message"]') ?? ''
    }
    t.match(message, /^Too many requests\. Please wait \d+ seconds? and try again\.$/, 'the 10-per-minute coupon limit, with the wait from Retry-After')

    await page.route('**/wp-json/svc/v1/cart/remove-items', (route) => route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'svc_cart_session_unavailable', message: 'The cart session could not be started.', data: { status: 503 } })
    }))
    await page.getByRole('button', { name: 'Remove Beanie from the cart' }).click()
    await settled(page)
    t.equal(await page.textContent('[data-svc="error"]'), 'The cart session could not be started. Please try again in a moment.')
    t.same(await drawerLines(page), ['Beanie × 1'], 'nothing changed')
    await page.unroute('**/wp-json/svc/v1/cart/remove-items')
  })

  t.test('mobile width, right-to-left pages, reduced motion; screenshots', async (t) => {
    const mobile = await newPage(browser, { viewport: MOBILE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
    t.teardown(() => mobile.context.close())
    await openShop(mobile.page, shop.url)
    await addFromShop(mobile.page, 101)
    const box = await mobile.page.locator(drawer).boundingBox()
    t.equal(Math.round(box?.width ?? 0), MOBILE.width, 'full width on a phone (width_mobile 100 %)')
    await screenshot(mobile.page, 'free-mobile-drawer')

    const rtl = await newPage(browser, { viewport: DESKTOP, reducedMotion: 'no-preference' })
    t.teardown(() => rtl.context.close())
    await openShop(rtl.page, shop.url)
    const ltrLauncher = await rtl.page.locator('[data-svc="launcher"]').boundingBox()
    t.ok((ltrLauncher?.x ?? 0) > DESKTOP.width / 2, 'bottom-right: the launcher is on the right')
    await rtl.page.evaluate('document.documentElement.dir = "rtl"')
    const rtlLauncher = await rtl.page.locator('[data-svc="launcher"]').boundingBox()
    t.ok((rtlLauncher?.x ?? DESKTOP.width) < DESKTOP.width / 2, 'on a right-to-left page it is mirrored to the left')
    await addFromShop(rtl.page, 101)
    t.equal(await transition(rtl.page), '0.3s', 'animated without a reduced-motion preference')
    // getAnimations() flushes style, so the slide-in transition is listed until it has ended.
    await waitFor(() => rtl.page.evaluate(`document.querySelector('${drawer}').getAnimations().length === 0`), { what: 'the slide-in ending' })
    const drawerBox = await rtl.page.locator(drawer).boundingBox()
    t.equal(Math.round(drawerBox?.x ?? -1), 0, 'position right: the drawer slides in on the left edge in RTL')
    await screenshot(rtl.page, 'free-desktop-rtl-drawer')

    const reduced = await newPage(browser)
    t.teardown(() => reduced.context.close())
    await openShop(reduced.page, shop.url)
    t.equal(await transition(reduced.page), '0s', 'prefers-reduced-motion turns the animation off')
  })
})
