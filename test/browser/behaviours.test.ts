import type { Page } from 'playwright-core'
import { logInOnAdminPage, previewFrame } from './admin-page.ts'
import {
  ADMIN, addFromShop, browserTest, DESKTOP, drawer, drawerLines, focused, launchBrowser, MOBILE, newPage, openShop, screenshot, seriousAxeViolations,
  startShop, Traffic, type Shop
} from './helpers.ts'

/**
 * The drawer's behaviours in Chromium, one test each: open on add off, undo after a remove,
 * clear cart with its confirmation, the checkout and cart links, the empty cart (recommendations and "Continue
 * shopping"), the launcher hidden on listed paths and per device class, its icon, shape and size, and each of them
 * in the admin screen's live preview. Screenshots: test/browser/screenshots/behaviours-*.png; axe-core on the new UI.
 */

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

/** Saves settings for the next pages (a partial document, laid over the current one). */
async function configure (shop: Shop, patch: Record<string, unknown>): Promise<void> {
  const saved = await shop.app.settings.save(patch)
  if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved)}`)
}

/** Adds to the page's cart through the classic AJAX route (its session cookie), without the drawer seeing it. */
async function addQuietly (page: Page, form: string): Promise<void> {
  const status = await page.evaluate(async (body) => {
    const response = await fetch('/?wc-ajax=add_to_cart', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })
    return response.status
  }, form)
  if (status !== 200) throw new Error(`add to cart: ${status}`)
}

/** Opens the drawer with the launcher and waits for its data. */
async function openDrawer (page: Page): Promise<void> {
  await page.click('[data-svc="launcher"]')
  await page.waitForSelector(`${drawer}:not([hidden])`)
  await settled(page)
}

async function liveText (page: Page): Promise<string> {
  await page.waitForFunction(() => (document.querySelector('[data-svc="live"]')?.textContent ?? '') !== '')
  return (await page.textContent('[data-svc="live"]')) ?? ''
}

const launcher = '[data-svc="launcher"]'
const undoRow = '[data-svc="undo"]'

const DEFAULT_BEHAVIOUR = {
  open_on_add: true,
  undo_seconds: 5,
  clear_cart: false,
  checkout_url: '',
  cart_link: false,
  cart_url: '',
  empty_state: { recommendations: true, continue_shopping: false, continue_url: '' }
}
const DEFAULT_LOOK = { hide_on_paths: [], hide_on_devices: [], icon: 'bag', shape: 'pill', size: 44, show_total: false }

browserTest('the drawer\'s behaviours', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)
  t.beforeEach(async () => { await configure(shop, { behaviour: DEFAULT_BEHAVIOUR, launcher: DEFAULT_LOOK }) })

  t.test('the defaults keep the drawer as it was: it opens on add, no clear button, no cart link, the platform\'s checkout', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    const config = JSON.parse(await page.textContent('#svc-drawer-config') ?? '{}')
    t.same(config.behaviour, DEFAULT_BEHAVIOUR, 'the page carries the behaviour settings')
    t.equal(config.cartUrl, `${shop.url}/cart/`)
    t.equal(config.shopUrl, `${shop.url}/`)
    await addFromShop(page, 101)
    t.equal(await page.getAttribute(`${drawer} [data-svc="checkout"]`, 'href'), `${shop.url}/checkout/`)
    t.notOk(await page.getByRole('button', { name: 'Clear cart' }).isVisible(), 'no clear button')
    t.notOk(await page.getByRole('link', { name: 'View cart' }).isVisible(), 'no cart link')
    t.same(errors, [])
  })

  t.test('open on add off: the launcher counts and the add is announced, the drawer stays closed', async (t) => {
    await configure(shop, { behaviour: { open_on_add: false } })
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    const added = page.waitForResponse((response) => response.url().includes('wc-ajax=add_to_cart'))
    await page.click('button.add-to-cart[data-product-id="101"]')
    await added
    await page.waitForFunction(() => document.querySelector('[data-svc="launcher"] .svc-badge')?.textContent === '1')
    t.pass('the launcher\'s count is 1')
    t.match(await liveText(page), /^Beanie added to the cart\. Cart: 1 item, total \$/, 'the add is announced')
    t.equal(await page.getAttribute(drawer, 'hidden'), '', 'the drawer stayed closed')
    t.same(traffic.afterLastAdd().map((request) => request.url), [], 'no request after the add either')
    await openDrawer(page)
    t.same(await drawerLines(page), ['Beanie × 1'], 'the launcher opens it with the line')
    t.same(errors, [])
  })

  t.test('undo after a remove: the line comes back with its variation and quantity, through the Store API\'s add-item', async (t) => {
    await configure(shop, { behaviour: { undo_seconds: 30 } })
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await addQuietly(page, 'product_id=106&variation_id=1062&attribute_pa_color=blue&attribute_pa_size=large&quantity=3')
    await addFromShop(page, 101)
    await settled(page)
    const hoodie = page.locator(`${drawer} .svc-line`, { hasText: 'Hoodie' })
    const name = (await hoodie.locator('.svc-name').textContent()) ?? ''
    t.same(await drawerLines(page), [`${name} × 3`, 'Beanie × 1'])

    await hoodie.locator('button[data-fk^="rm:"]').click()
    await settled(page)
    t.same(await drawerLines(page), ['Beanie × 1'], 'removed')
    const row = page.locator(undoRow)
    t.equal(await row.getAttribute('role'), 'status', 'the undo row is a status: screen readers read it out')
    t.equal(await row.textContent(), `${name} removed from the cart.Undo`)
    t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation with the undo row')
    await screenshot(page, 'behaviours-undo')

    const mark = traffic.mark()
    await row.getByRole('button', { name: 'Undo' }).click()
    await settled(page)
    const add = traffic.since(mark, '/wc/store/v1/cart/add-item')
    t.equal(add.length, 1, 'one add-item')
    t.same(JSON.parse(add[0]?.body ?? '{}'), { id: 1062, quantity: 3, variation: [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'large' }] }, 'the same variation, attributes and quantity')
    t.match(add[0]?.headers['cart-token'], /\./, 'with the Cart-Token')
    t.same((await drawerLines(page)).sort(), ['Beanie × 1', `${name} × 3`].sort(), 'the line is back with its quantity')
    t.equal(await row.textContent(), '', 'the undo row is gone')
    t.match(await liveText(page), `${name} added to the cart.`)
    t.ok((await focused(page)).endsWith(`:${await hoodie.getAttribute('data-key')}`), 'focus goes to the restored line')
    t.same(errors, [])
  })

  t.test('undo: the row goes after undo_seconds, and undo_seconds 0 offers none', async (t) => {
    await configure(shop, { behaviour: { undo_seconds: 1 } })
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addQuietly(page, 'product_id=103&quantity=1')
    await addFromShop(page, 101)
    // What the row showed, recorded in the page: on a busy machine one second may be gone before the test reads it.
    await page.evaluate(() => {
      const row = document.querySelector('[data-svc="undo"]')!
      const seen: string[] = []
      Object.assign(window, { undoSeen: seen })
      new MutationObserver(() => { seen.push(row.textContent ?? '') }).observe(row, { childList: true, subtree: true })
    })
    await page.getByRole('button', { name: 'Remove Cap from the cart' }).click()
    await page.waitForFunction(() => {
      const seen = (window as unknown as { undoSeen: string[] }).undoSeen
      return seen.length > 1 && seen[seen.length - 1] === ''
    }, undefined, { timeout: 5000 })
    t.same(await page.evaluate(() => (window as unknown as { undoSeen: string[] }).undoSeen), ['Cap removed from the cart.Undo', ''], 'the row showed, then went by itself')

    // By keyboard: focus moves from the remove button to Undo, and Enter there undoes.
    await page.locator('button[data-fk^="rm:"]').focus()
    await page.keyboard.press('Enter')
    await settled(page)
    t.match(await focused(page), /^undo:/, 'focus is on Undo after a remove by keyboard')
    await page.keyboard.press('Enter')
    await settled(page)
    t.same(await drawerLines(page), ['Beanie × 1'], 'Enter on Undo puts the line back')

    await configure(shop, { behaviour: { undo_seconds: 0 } })
    await openShop(page, shop.url)
    await openDrawer(page)
    await page.getByRole('button', { name: 'Remove Beanie from the cart' }).click()
    await settled(page)
    t.equal(await page.textContent(undoRow), '', 'no undo row with undo_seconds 0')
    t.equal(await page.locator(`${undoRow} button`).count(), 0)
  })

  t.test('clear cart: a question first, in the button\'s place ("Keep the items" keeps them), then one remove-items with every line', async (t) => {
    await configure(shop, { behaviour: { clear_cart: true } })
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await addQuietly(page, 'product_id=103&quantity=2')
    await addFromShop(page, 101)
    await settled(page)
    const keys = await page.$$eval(`${drawer} .svc-line`, (lines) => lines.map((line) => (line as HTMLElement).dataset.key))
    const clear = page.getByRole('button', { name: 'Clear cart' })
    const question = page.getByRole('group', { name: 'Remove every item from your cart?' })
    const active = () => page.evaluate(() => document.activeElement?.textContent)

    await clear.click()
    await question.waitFor()
    t.notOk(await clear.isVisible(), 'the question takes the button\'s place')
    t.equal(await active(), 'Keep the items', 'the safe answer has the focus')
    await page.keyboard.press('Shift+Tab')
    t.equal(await active(), 'Remove all', 'the other answer is next to it')
    t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation with the question')
    await screenshot(page, 'behaviours-clear-question')
    await question.getByRole('button', { name: 'Keep the items' }).click()
    t.notOk(await question.isVisible(), 'the question went')
    t.equal(await active(), 'Clear cart', 'focus is back on the button')
    t.equal((await drawerLines(page)).length, 2, 'nothing removed')
    t.equal(traffic.requests.filter((request) => request.url.includes('/cart/remove-items')).length, 0, 'nothing sent')

    const mark = traffic.mark()
    await clear.click()
    await question.getByRole('button', { name: 'Remove all' }).click()
    await settled(page)
    const removals = traffic.since(mark, '/svc/v1/cart/remove-items')
    t.equal(removals.length, 1, 'one request')
    t.same(JSON.parse(removals[0]?.body ?? '{}').keys.sort(), keys.sort(), 'with every line\'s key')
    t.match(await page.textContent(`${drawer} [data-svc="cart"]`), 'Your cart is empty.')
    t.notOk(await clear.isVisible(), 'no clear button for an empty cart')
    t.notOk(await question.isVisible(), 'nor the question')
    t.equal(await focused(page), 'close', 'focus waits on the close button')
    t.match(await liveText(page), 'Your cart was emptied.')
    t.equal(await page.textContent(undoRow), '', 'no undo for a cleared cart')
    t.same(errors, [])
  })

  t.test('checkout and cart links: the settings\' addresses, else the platform\'s pages', async (t) => {
    await configure(shop, { behaviour: { checkout_url: 'https://pay.example/checkout?shop=demo', cart_link: true } })
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await settled(page)
    t.equal(await page.getAttribute(`${drawer} [data-svc="checkout"]`, 'href'), 'https://pay.example/checkout?shop=demo', 'checkout_url')
    const cart = page.getByRole('link', { name: 'View cart' })
    t.ok(await cart.isVisible(), 'cart_link shows the link')
    t.equal(await cart.getAttribute('href'), `${shop.url}/cart/`, 'cart_url empty: the shop\'s cart page')

    await configure(shop, { behaviour: { checkout_url: '/checkout/?from=drawer', cart_url: '/basket/' } })
    await openShop(page, shop.url)
    await openDrawer(page)
    t.equal(await page.getAttribute(`${drawer} [data-svc="checkout"]`, 'href'), `${shop.url}/checkout/?from=drawer`, 'a path on the site')
    t.equal(await cart.getAttribute('href'), `${shop.url}/basket/`)
    await screenshot(page, 'behaviours-links')
  })

  t.test('the empty cart: recommendations from a source that needs no cart, and "Continue shopping"', async (t) => {
    await configure(shop, {
      recommendations: { source: 'cross_sells', fallbacks: ['manual'], manual_ids: [103, 104] },
      behaviour: { empty_state: { recommendations: true, continue_shopping: true, continue_url: '' } }
    })
    t.teardown(() => configure(shop, { recommendations: { source: 'cross_sells', fallbacks: [], manual_ids: [] } }))
    const { context, page, errors } = await newPage(browser, { viewport: MOBILE, isMobile: true, hasTouch: true })
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await openDrawer(page)
    await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
    t.match(await page.textContent(`${drawer} [data-svc="cart"]`), 'Your cart is empty.')
    const names = await page.$$eval('[data-svc="recommendations"] .svc-card .svc-name', (links) => links.map((link) => link.textContent))
    t.same(names, ['Cap', 'Sunglasses'], 'the manual fallback fills the empty cart (it has no cross-sells)')
    const more = page.getByRole('link', { name: 'Continue shopping' })
    t.equal(await more.getAttribute('href'), `${shop.url}/`, 'continue_url empty: the shop\'s home page')
    t.same(await seriousAxeViolations(page), [], 'axe-core: the empty cart')
    await screenshot(page, 'behaviours-empty-390')
    await page.locator('[data-svc="recommendations"]').getByRole('button', { name: 'Add Cap to the cart' }).click()
    await settled(page)
    t.same(await drawerLines(page), ['Cap × 1'], 'a recommendation of the empty cart is added')
    t.equal(await more.count(), 0, 'no "Continue shopping" once the cart has a line')

    await configure(shop, { behaviour: { empty_state: { recommendations: false, continue_shopping: true, continue_url: '/product/hoodie/' } } })
    await page.getByRole('button', { name: 'Remove Cap from the cart' }).click()
    await settled(page)
    await openShop(page, shop.url)
    await openDrawer(page)
    t.ok(await page.locator('[data-svc="recommendations"]').isHidden(), 'empty_state.recommendations off: none in the empty cart')
    t.equal(await more.getAttribute('href'), `${shop.url}/product/hoodie/`, 'continue_url')
    await page.keyboard.press('Escape')
    await addFromShop(page, 101)
    await page.keyboard.press('Escape')
    await openDrawer(page)
    await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
    t.pass('with a line in the cart, recommendations show again')
    t.same(errors, [])
  })

  t.test('the launcher hides on listed paths and per device class (by viewport width)', async (t) => {
    await configure(shop, { launcher: { hide_on_paths: ['/product/*'], hide_on_devices: ['mobile'] } })
    const wide = await newPage(browser)
    t.teardown(() => wide.context.close())
    await openShop(wide.page, shop.url)
    t.ok(await wide.page.locator(launcher).isVisible(), 'shown on /')
    await openShop(wide.page, `${shop.url}/product/hoodie/`)
    t.ok(await wide.page.locator(launcher).isHidden(), 'hidden on /product/hoodie/ (/product/*)')
    await wide.page.evaluate(() => { (window as unknown as { svcDrawer: { open (): void } }).svcDrawer.open() })
    await wide.page.waitForSelector(`${drawer}:not([hidden])`)
    await wide.page.keyboard.press('Escape')
    await wide.page.waitForSelector(drawer, { state: 'hidden' })
    t.not(await focused(wide.page), 'launcher', 'the drawer still opens there; closing it does not focus the hidden launcher')

    for (const [width, shown] of [[390, false], [640, false], [641, true], [1023, true], [1280, true]] as const) {
      await wide.page.setViewportSize({ width, height: 800 })
      await openShop(wide.page, shop.url)
      t.equal(await wide.page.locator(launcher).isVisible(), shown, `hide_on_devices [mobile] at ${width} px: ${shown ? 'shown' : 'hidden'}`)
    }
    await configure(shop, { launcher: { hide_on_paths: [], hide_on_devices: ['tablet', 'desktop'] } })
    for (const [width, shown] of [[640, true], [641, false], [1023, false], [1024, false]] as const) {
      await wide.page.setViewportSize({ width, height: 800 })
      await openShop(wide.page, shop.url)
      t.equal(await wide.page.locator(launcher).isVisible(), shown, `hide_on_devices [tablet, desktop] at ${width} px: ${shown ? 'shown' : 'hidden'}`)
    }
    await wide.page.setViewportSize(DESKTOP)
  })

  t.test('the launcher\'s icon, shape and size', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    const look = () => page.$eval('[data-svc="launcher"]', (element) => {
      const box = element.getBoundingClientRect()
      return {
        width: Math.round(box.width),
        height: Math.round(box.height),
        radius: getComputedStyle(element).borderTopLeftRadius,
        icon: element.querySelector('svg path')?.getAttribute('d') ?? '',
        badge: getComputedStyle(element.querySelector('.svc-badge')!).position
      }
    })
    const pill = await look()
    t.equal(pill.height, 44, 'default: 44 px high, as before the setting')
    t.equal(pill.radius, '999px', 'rounded ends')
    t.ok(pill.width > pill.height, 'a pill is wider than high')

    await configure(shop, { launcher: { icon: 'cart', shape: 'circle', size: 64 } })
    await openShop(page, shop.url)
    const circle = await look()
    t.match(circle, { width: 64, height: 64, radius: '999px', badge: 'absolute' }, 'a circle of 64 px, the count on its corner')
    t.not(circle.icon, pill.icon, 'another icon')
    await screenshot(page, 'behaviours-launcher-circle')

    await configure(shop, { launcher: { icon: 'basket', shape: 'square', size: 56, show_total: true } })
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await page.keyboard.press('Escape')
    const square = await look()
    t.match(square, { height: 56, radius: '0px' }, 'square corners, 56 px')
    t.not(square.icon, circle.icon)
    t.not(square.icon, pill.icon)
    t.match(await page.textContent(`${launcher} .svc-launcher-total`), '$', 'the total shows on a square')
    await screenshot(page, 'behaviours-launcher-square')
  })

  t.test('Arabic, right to left: the undo row and the question at 390 px', async (t) => {
    await configure(shop, { behaviour: { clear_cart: true, undo_seconds: 30 } })
    const { context, page, errors } = await newPage(browser, { viewport: MOBILE, isMobile: true, hasTouch: true })
    t.teardown(() => context.close())
    await page.route(`${shop.url}/`, async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, body: (await response.text()).replace('<html lang="en">', '<html lang="ar">') })
    })
    await openShop(page, `${shop.url}/`)
    // Three items stay: with one or two, Arabic's launcher name has no numeral ("منتج واحد"), which axe-core's
    // label-content-name-mismatch reports against the badge's "1" (a finding of the Languages work, not of these).
    await addQuietly(page, 'product_id=103&quantity=1')
    await addQuietly(page, 'product_id=101&quantity=2')
    await addFromShop(page, 101)
    await settled(page)
    await page.locator(`${drawer} .svc-line`, { hasText: 'Cap' }).locator('button[data-fk^="rm:"]').click()
    await settled(page)
    const row = page.locator(undoRow)
    t.equal(await row.textContent(), 'تمت إزالة \u2068Cap\u2069 من السلة.تراجع')
    const text = await row.evaluate((element) => {
      const range = document.createRange()
      range.selectNodeContents(element.firstChild!)
      return range.getBoundingClientRect().left
    })
    const button = await row.locator('button').boundingBox()
    t.ok((button?.x ?? Infinity) < text, 'right to left: the Undo button is at the row\'s left end')
    await screenshot(page, 'behaviours-ar-undo-390')
    await page.getByRole('button', { name: 'إفراغ السلة' }).click()
    await page.getByRole('group', { name: 'هل تريد إزالة كل المنتجات من السلة؟' }).waitFor()
    t.same(await seriousAxeViolations(page), [], 'axe-core in Arabic')
    await screenshot(page, 'behaviours-ar-clear-390')
    t.same(errors, [])
  })

  t.test('the admin screen\'s live preview shows each behaviour, unsaved', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await logInOnAdminPage(page, shop.url, ADMIN)
    const added = await page.request.post(`${shop.url}/?wc-ajax=add_to_cart`, { form: { product_id: '101', quantity: '1' } })
    t.equal(added.status(), 200, 'the manager\'s own cart has a line')
    await page.reload()
    const before = (await shop.app.settings.get()).settings
    let frame = await previewFrame(page)
    await frame.waitForSelector(`${drawer} .svc-line`)

    await page.selectOption('#f-launcher-shape', 'circle')
    await page.fill('#f-launcher-size', '64')
    await frame.waitForFunction(() => Math.round(document.querySelector('[data-svc="launcher"]')!.getBoundingClientRect().width) === 64)
    t.pass('the launcher\'s shape and size')

    await page.check('#f-behaviour-clear_cart')
    await frame.getByRole('button', { name: 'Clear cart' }).waitFor()
    t.pass('the clear button')
    await page.check('#f-behaviour-cart_link')
    await frame.getByRole('link', { name: 'View cart' }).waitFor()
    await page.fill('#f-behaviour-checkout_url', 'https://pay.example/go')
    await frame.waitForFunction(() => document.querySelector('[data-svc="checkout"]')?.getAttribute('href') === 'https://pay.example/go')
    t.pass('the cart link and the checkout address')

    await page.selectOption('[data-role="preview-sample"]', 'undo')
    await frame.waitForFunction(() => document.querySelector('[data-svc="undo"]')?.textContent === 'Beanie removed from the cart.Undo')
    t.pass('a line just removed: the undo row')
    await page.fill('#f-behaviour-undo_seconds', '0')
    await frame.waitForFunction(() => document.querySelector('[data-svc="undo"]')?.textContent === '')
    t.pass('undo_seconds 0: no undo row')

    await page.check('#f-behaviour-empty_state-continue_shopping')
    await page.selectOption('[data-role="preview-sample"]', 'empty')
    await frame.waitForFunction(() => document.querySelector('[data-svc="cart"]')?.textContent?.startsWith('Your cart is empty.Continue shopping'))
    t.pass('an empty cart with "Continue shopping"')
    t.equal((await (await page.request.get(`${shop.url}/wp-json/wc/store/v1/cart`)).json()).items_count, 1, 'the sample sent nothing: the manager\'s cart still has its line')
    await screenshot(page, 'behaviours-admin-preview')

    await page.selectOption('[data-role="preview-sample"]', '')
    frame = await previewFrame(page)
    await frame.waitForSelector(`${drawer} .svc-line`)
    t.pass('back to the cart as it is')

    await page.check('[data-path="launcher.hide_on_devices"] input[value="mobile"]')
    await page.selectOption('[data-role="preview-width"]', '390')
    await frame.waitForFunction(() => document.querySelector('[data-svc="launcher"]')!.getClientRects().length === 0)
    t.pass('hidden on phones: the phone-wide preview has no launcher')
    await page.fill('#f-launcher-hide_on_paths', '/shop/*\nnope')
    await page.click('button[data-action="save"]')
    await page.waitForSelector('[data-path="launcher.hide_on_paths"][data-invalid]')
    t.match(await page.textContent('[data-path="launcher.hide_on_paths"] .admin-error'), '"nope" must be a path starting with /')
    t.strictSame((await shop.app.settings.get()).settings, before, 'nothing saved while a value is refused')
    t.same(errors, [])
  })
})
