import type { FastifyInstance } from 'fastify'
import type { Page } from 'playwright-core'
import {
  addFromShop, ADMIN, browserTest, drawer, drawerLines, FREE_SHIPPING_TIER, launchBrowser, MOBILE, newPage, openShop, PRO_WIDGET_SETTINGS, screenshot, startShop, Traffic
} from './helpers.ts'
import { waitFor } from '../helper.ts'

/** The Pro edition with an add-on, a bundle and a spotlight configured: its widgets in the drawer, and analytics. */

const PRO_SETTINGS = {
  ...PRO_WIDGET_SETTINGS,
  // One tier, free shipping from $100, so the widgets' prices here are not changed by a discount reward (the rewards
  // bar's tiers have their own test: rewards.test.ts).
  rewards: { tiers: [{ ...FREE_SHIPPING_TIER, threshold: 10000 }] },
  drawer_config: { border_radius: 12, colors: { accent: '#0f766e' } },
  analytics: { enabled: true }
}

/** The analytics totals per event type, as the shop manager sees them. */
async function analyticsTotals (app: FastifyInstance): Promise<{ drawer_open: number, drawer_close: number, addon_toggle: number }> {
  const login = await app.inject({ method: 'POST', url: '/account/login', payload: { email: ADMIN.email, password: ADMIN.password } })
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
  const summary = await app.inject({ url: '/wp-json/svc/v1/analytics/summary', headers: { cookie, 'x-wp-nonce': login.json().nonce } })
  return summary.json().totals
}

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

browserTest('the drawer in the Pro edition', async (t) => {
  const shop = await startShop(t, { edition: 'pro', settings: PRO_SETTINGS })
  const browser = await launchBrowser(t)

  t.test('Pro widgets: shipping meter, add-on, spotlight, bundle builder; still no request after an add', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    t.ok(traffic.requests.some((r) => r.url.endsWith('/svc/v1/bundle-builder/configs') && !r.headers['cart-token']), 'the public bundle configs, asked without a token')
    await addFromShop(page, 101)
    await page.waitForTimeout(800)
    t.same(traffic.afterLastAdd(), [], 'no request follows the add-to-cart response in Pro either')
    t.match(await page.textContent('[data-svc="meter"]'), 'Spend $82.00 more to get Free shipping.', 'the rewards bar follows the fragment\'s cart')
    t.equal(await page.getAttribute('[data-svc="meter"] [role="progressbar"]', 'aria-valuenow'), '18')
    t.match(await page.textContent('[data-svc="addons"]'), 'Gift wrap')
    t.match(await page.textContent('[data-svc="spotlight"]'), 'Ready for the sun?')
    t.match(await page.textContent('[data-svc="bundles"]'), 'Head to toe')
    t.match(await page.textContent('[data-svc="launcher"]'), '$25.30', 'the launcher shows the total (show_total)')
    t.equal(await page.getAttribute(drawer, 'data-side'), 'end', 'position right: the inline end')
    await screenshot(page, 'pro-desktop-drawer')

    // The next step in the drawer brings the sections up to date: the companions of the Beanie's bundle.
    await page.keyboard.press('Escape')
    await page.click('[data-svc="launcher"]')
    await page.waitForSelector('[data-svc="bundles"] .svc-bundle >> nth=1')
    t.ok(traffic.requests.some((r) => r.url.includes('/svc/v1/bundle-builder/companions?product_id=101')), 'companions of the product in the cart')
    t.match(await page.textContent('[data-svc="bundles"] .svc-bundle >> nth=0'), 'Hat: Beanie', 'the bundle around the Beanie')
    t.same(errors, [])
  })

  t.test('the add-on toggle adds a locked line and takes it away', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 103)
    await page.getByLabel('Gift wrap').check()
    await settled(page)
    t.same(await drawerLines(page), ['Cap × 1', 'Gift Wrap × 1'])
    const wrap = page.locator(`${drawer} .svc-line`, { hasText: 'Gift Wrap' })
    t.match(await wrap.textContent(), 'Add-on', 'marked as an add-on')
    t.equal(await wrap.locator('button, input').count(), 0, 'locked: no quantity controls, no remove button')
    t.ok(await page.getByLabel('Gift wrap').isChecked())
    await page.getByLabel('Gift wrap').uncheck()
    await settled(page)
    t.same(await drawerLines(page), ['Cap × 1'])
  })

  t.test('the spotlight offer and a bundle are added from the drawer', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await openShop(page, shop.url)
    await addFromShop(page, 107)
    await page.locator('[data-svc="spotlight"]').getByRole('button', { name: 'Add Sunglasses to the cart' }).click()
    await settled(page)
    t.same(await drawerLines(page), ['T-Shirt × 1', 'Sunglasses × 1'])
    t.ok(await page.locator('[data-svc="spotlight"]').isHidden(), 'the offer is gone once in the cart')

    const bundle = page.locator('[data-svc="bundles"] .svc-bundle', { hasText: 'Head to toe' }).last()
    await bundle.locator('select').first().selectOption({ label: 'Cap — $18.00' })
    const mark = traffic.mark()
    await bundle.getByRole('button', { name: 'Add bundle Head to toe to the cart' }).click()
    await settled(page)
    t.match(JSON.parse(traffic.since(mark, '/svc/v1/bundle-builder/add')[0]?.body ?? '{}'), { bundle_id: 'head-to-toe', product_ids: [103, 102] })
    const lines = await drawerLines(page)
    t.ok(lines.includes('Cap × 1') && lines.includes('Belt × 1'), `the bundle's lines are in the cart (${lines.join(', ')})`)
    t.match(await page.locator(`${drawer} .svc-line`, { hasText: 'Belt' }).textContent(), /\$55\.00.*\$46\.75/, 'with the bundle discount')

    const mobile = await newPage(browser, { viewport: MOBILE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
    t.teardown(() => mobile.context.close())
    await openShop(mobile.page, shop.url)
    await addFromShop(mobile.page, 105)
    await mobile.page.keyboard.press('Escape')
    await mobile.page.click('[data-svc="launcher"]')
    await mobile.page.waitForSelector('[data-svc="recommendations"] .svc-card')
    await screenshot(mobile.page, 'pro-mobile-drawer')
  })

  t.test('analytics: events go in batches of at most 50, on a timer and on page hide with keepalive', async (t) => {
    const { context, page } = await newPage(browser)
    t.teardown(() => context.close())
    const batches: Array<Array<{ type: string }>> = []
    page.on('request', (request) => {
      if (request.url().endsWith('/svc/v1/analytics/events')) batches.push(request.postDataJSON().events)
    })
    const before = await analyticsTotals(shop.app)
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await page.getByLabel('Gift wrap').check()
    await settled(page)
    await page.keyboard.press('Escape')
    t.same(batches, [], 'nothing is sent while the shopper is on the page (batched, on a 10 s timer)')

    // Leaving the page sends the batch with fetch(…, {keepalive: true}): the request outlives the page (Chromium
    // does not report it to Playwright, so the server is asked what it stored).
    await page.goto(`${shop.url}/product/hoodie/`)
    await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
    const stored = async () => {
      const totals = await analyticsTotals(shop.app)
      return totals.addon_toggle !== before.addon_toggle && totals
    }
    const after = await waitFor(stored, { intervalMs: 100, what: 'the batch sent on leaving stored' }).catch(() => analyticsTotals(shop.app))
    t.equal(after.drawer_open - before.drawer_open, 1, 'drawer_open stored')
    t.equal(after.addon_toggle - before.addon_toggle, 1, 'addon_toggle stored')
    t.equal(after.drawer_close - before.drawer_close, 1, 'drawer_close stored')

    // 30 opens and closes are 60 events (and the recommendations seen): two batches when the page is hidden.
    await page.evaluate('for (let i = 0; i < 30; i++) { window.svcDrawer.open(); window.svcDrawer.close() }')
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'))`)
    await waitFor(() => batches.length >= 2, { what: 'two batches sent on page hide' }).catch(() => {})
    const types = batches.flat().map((event) => event.type)
    t.equal(batches.length, 2, `two batches (${batches.map((events) => events.length).join(' + ')} events)`)
    t.equal(batches[0]?.length, 50, 'the first one full: 50 events at most in a batch')
    t.equal(types.filter((type) => type === 'drawer_open').length, 30)
    t.equal(types.filter((type) => type === 'drawer_close').length, 30)
  })

  t.test('settings reach the page at once: dark mode, left side, a tall window (screenshot of the whole drawer)', async (t) => {
    const saved = await shop.app.settings.save({ drawer_config: { dark_mode: 'dark', position: 'left' }, launcher: { position: 'bottom-left' } })
    t.ok(saved.ok)
    const { context, page } = await newPage(browser, { viewport: { width: 1280, height: 1500 } })
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await page.keyboard.press('Escape')
    await page.click('[data-svc="launcher"]')
    await page.waitForSelector('[data-svc="recommendations"] .svc-card')
    await page.waitForSelector('[data-svc="bundles"] .svc-bundle >> nth=1')
    t.equal(await page.evaluate(`getComputedStyle(document.querySelector('${drawer}')).backgroundColor`), 'rgb(17, 24, 39)', 'the dark palette')
    t.equal(Math.round((await page.locator(drawer).boundingBox())?.x ?? -1), 0, 'on the left')
    t.ok(((await page.locator('[data-svc="launcher"]').boundingBox())?.x ?? 1280) < 640, 'the launcher bottom-left')
    await screenshot(page, 'pro-desktop-dark-left-full')
  })
})
