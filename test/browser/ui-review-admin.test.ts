import type { FastifyInstance } from 'fastify'
import type { Page } from 'playwright-core'
import { type Test } from 'tap'
import { ADMIN_PAGE, logInOnAdminPage, saveAndWait, status } from './admin-page.ts'
import { ADMIN, browserTest, FREE_SHIPPING_TIER, launchBrowser, newPage, screenshot, seriousAxeViolations, startShop } from './helpers.ts'

/**
 * The merchant's screens as a person sees them, on a laptop (1280×800) and on a phone (390×844): the login form (and
 * its error), the settings screen of each edition (every part of the page, scrolled), the settings screen showing a
 * refused value, and the analytics dashboard with a fortnight of events. Each is screenshotted
 * (test/browser/screenshots/) and must have no serious or critical axe-core violation, no sideways scroll, and no
 * control smaller than 44 px (WCAG 2.5.5).
 */

const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }]

/**
 * The visible controls smaller than 44 px in either direction, described. A checkbox or radio button counts with
 * the label around it (the label is part of its target). A link inside a sentence is left out: WCAG's target-size
 * criteria except inline targets whose size is set by the line of text around them.
 */
const SMALL_TARGETS = `(() => {
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab], [tabindex]:not([tabindex="-1"])'
  const describe = (element) => {
    const text = (element.getAttribute('aria-label') || element.textContent || element.getAttribute('name') || '').trim().replace(/\\s+/g, ' ').slice(0, 40)
    return element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (element.type && element.tagName === 'INPUT' ? '[type=' + element.type + ']' : '') + (text ? ' "' + text + '"' : '')
  }
  const inSentence = (link) => {
    if (getComputedStyle(link).display !== 'inline') return false
    const parent = link.parentElement
    return parent !== null && parent.textContent.trim().length > link.textContent.trim().length
  }
  const small = []
  for (const element of document.querySelectorAll(controls)) {
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue
    if (element.matches('a') && inSentence(element)) continue
    const label = element.matches('input[type=checkbox], input[type=radio]') ? element.closest('label') : null
    const box = (label ?? element).getBoundingClientRect()
    if (box.width === 0 && box.height === 0) continue
    if (Math.min(box.width, box.height) < 43.5) small.push(describe(element) + ': ' + Math.round(box.width) + '×' + Math.round(box.height))
  }
  return small
})()`

/** What every screen must pass; `name` is its screenshot's name. */
async function review (t: Test, page: Page, name: string): Promise<void> {
  await screenshot(page, name)
  t.same(await seriousAxeViolations(page), [], `${name}: no serious or critical axe-core violation`)
  const widths = await page.evaluate('({ content: document.documentElement.scrollWidth, window: window.innerWidth })') as { content: number, window: number }
  t.ok(widths.content <= widths.window, `${name}: no sideways scroll (${widths.content} px of content in ${widths.window} px)`)
  t.same(await page.evaluate(SMALL_TARGETS), [], `${name}: every control at least 44 px`)
}

/** Screenshots the whole page a screen at a time (`name`, `name-2`, …), from the top. */
async function screenshotScrolled (page: Page, name: string): Promise<number> {
  const total = await page.evaluate('document.documentElement.scrollHeight') as number
  const height = page.viewportSize()?.height ?? 800
  // Each screen overlaps the last by a sixth, so nothing is cut between two screenshots.
  const step = Math.floor(height * 5 / 6)
  let shots = 0
  for (let top = 0; top === 0 || top < total - height + step; top += step) {
    await page.evaluate(`window.scrollTo(0, ${top})`)
    await screenshot(page, shots === 0 ? name : `${name}-${shots + 1}`)
    shots++
  }
  await page.evaluate('window.scrollTo(0, 0)')
  return shots
}

/** A few visitors' events over the last fortnight, sent as the drawer sends them (each visitor with its Cart-Token). */
async function seedAnalytics (app: FastifyInstance): Promise<number> {
  const day = 86_400_000
  let opens = 0
  for (let visitor = 0; visitor < 6; visitor++) {
    const cart = await app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart' })
    const token = cart.headers['cart-token']
    if (typeof token !== 'string') throw new Error('no Cart-Token')
    const events = []
    for (let back = 13; back >= 0; back--) {
      if ((back + visitor) % 3 === 0) continue
      const at = new Date(Date.now() - back * day - 60_000).toISOString()
      events.push({ type: 'drawer_open', occurred_at: at }, { type: 'drawer_close', occurred_at: at })
      opens++
      if ((back + visitor) % 2 === 0) events.push({ type: 'recommendation_add', product_id: 102, value: 5500, occurred_at: at })
      if (back % 4 === visitor % 4) events.push({ type: 'checkout_click', value: 12000, occurred_at: at })
    }
    const response = await app.inject({
      method: 'POST', url: '/wp-json/svc/v1/analytics/events', headers: { 'cart-token': token }, payload: { events }
    })
    if (response.statusCode !== 202) throw new Error(`analytics/events: ${response.statusCode} ${response.body}`)
    // Two of them order what they added from the drawer (and one a thing of their own): the sales part has figures.
    if (visitor < 2) await orderFromDrawer(app, token, visitor === 0 ? [102] : [104, 103])
  }
  return opens
}

/** Adds products through `recommendations/add` (and one through the Store API) and places the order. */
async function orderFromDrawer (app: FastifyInstance, token: string, productIds: number[]): Promise<void> {
  const headers = { 'cart-token': token }
  for (const id of productIds) {
    const added = await app.inject({ method: 'POST', url: '/wp-json/svc/v1/recommendations/add', headers, payload: { product_id: id } })
    if (added.statusCode !== 200) throw new Error(`recommendations/add: ${added.statusCode} ${added.body}`)
  }
  await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers, payload: { id: 107, quantity: 1 } })
  const address = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'Boston', state: 'MA', postcode: '02110', country: 'US', phone: '' }
  const placed = await app.inject({
    method: 'POST',
    url: '/wp-json/wc/store/v1/checkout',
    headers,
    payload: { billing_address: { ...address, email: 'ada@example.com' }, shipping_address: address, payment_method: 'cod' }
  })
  if (placed.statusCode !== 200) throw new Error(`checkout: ${placed.statusCode} ${placed.body}`)
}

browserTest('the merchant\'s screens on a laptop and on a phone', async (t) => {
  const free = await startShop(t, { edition: 'free' })
  const pro = await startShop(t, { edition: 'pro', settings: { rewards: { tiers: [FREE_SHIPPING_TIER] } } })
  const opens = await seedAnalytics(pro.app)
  const browser = await launchBrowser(t)

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`

    t.test(`the login screen and its error, ${size}`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport })
      t.teardown(() => context.close())
      await page.goto(pro.url + ADMIN_PAGE)
      await page.waitForSelector('form#admin-login')
      await review(t, page, `admin-login-${size}`)
      await page.fill('form#admin-login input[name="email"]', ADMIN.email)
      await page.fill('form#admin-login input[name="password"]', 'not the password')
      await page.click('form#admin-login button[type="submit"]')
      await page.waitForSelector('#admin-login-message:not(:empty)')
      await review(t, page, `admin-login-error-${size}`)
      t.same(errors, [], 'no script errors')
    })

    t.test(`the settings screen, Free, ${size}`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport })
      t.teardown(() => context.close())
      await logInOnAdminPage(page, free.url, ADMIN)
      await review(t, page, `admin-settings-free-${size}`)
      await screenshotScrolled(page, `admin-settings-free-${size}-scrolled`)
      t.same(errors, [], 'no script errors')
    })

    t.test(`the settings screen, Pro, ${size}`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport })
      t.teardown(() => context.close())
      await logInOnAdminPage(page, pro.url, ADMIN)
      // One add-on with a condition, so its editor is on the page too.
      await page.click('button[data-path="smart_addons.addons.add"]')
      await page.click('[data-path="smart_addons.addons.0.conditions"] button[data-action="add-condition"]')
      await page.waitForSelector('[data-path="smart_addons.addons.0.conditions.conditions.0"]')
      await review(t, page, `admin-settings-pro-${size}`)
      t.ok(await screenshotScrolled(page, `admin-settings-pro-${size}-scrolled`) > 1, 'the page screenshotted a screen at a time')
      t.same(errors, [], 'no script errors')
    })

    t.test(`the settings screen showing a refused value, ${size}`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport })
      t.teardown(() => context.close())
      await logInOnAdminPage(page, pro.url, ADMIN)
      const before = (await pro.app.settings.get()).version
      await page.fill('#f-drawer_config-width_desktop', '5000')
      t.match(await saveAndWait(page), 'Nothing was saved')
      t.equal((await pro.app.settings.get()).version, before, 'nothing saved')
      // The first refused field has the focus; the screenshot shows it with its message.
      t.equal(await page.evaluate('document.activeElement.id'), 'f-drawer_config-width_desktop')
      await review(t, page, `admin-settings-error-${size}`)
      await page.evaluate('window.scrollTo(0, 0)')
      await screenshot(page, `admin-settings-error-${size}-top`)
      t.ok(await page.isVisible(status), 'the status line')

      // An amount that is not one is named at once, and Save sends nothing until it is fixed.
      const amount = '#f-rewards-tiers-0-threshold'
      const error = '[data-path="rewards.tiers.0.threshold"] .admin-error'
      await page.fill(amount, 'fifty')
      t.equal(await page.textContent(error), 'must be an amount in USD, for example 50.00')
      let posted = 0
      page.on('request', (request) => { if (request.method() === 'POST' && request.url().endsWith('/svc/v1/settings')) posted++ })
      await page.click('button[data-action="save"]')
      await page.waitForSelector(`${status} [data-problem="rewards.tiers.0.threshold"]`)
      t.match(await page.textContent(status), 'Rewards › Tiers › Tier 1 › From: must be an amount in USD')
      t.equal(posted, 0, 'nothing sent')
      t.equal(await page.evaluate('document.activeElement.id'), 'f-rewards-tiers-0-threshold', 'the field has the focus')
      await review(t, page, `admin-settings-amount-error-${size}`)
      await page.fill(amount, '49.99')
      t.equal(await page.textContent(error), '', 'a real amount: the message goes')
      t.same(errors, [], 'no script errors')
    })

    t.test(`the analytics screen with a fortnight of events, ${size}`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport })
      t.teardown(() => context.close())
      await logInOnAdminPage(page, pro.url, ADMIN)
      await page.goto(pro.url + ADMIN_PAGE + 'analytics')
      await page.waitForSelector('[data-role="chart"]')
      t.equal(Number(await page.textContent('[data-total="drawer_open"] dd')), opens, 'the seeded drawer opens')
      t.equal(await page.textContent('[data-total="orders_with_drawer_items"] dd'), '2 of 2', 'the two orders with drawer items')
      await review(t, page, `admin-analytics-${size}`)
      await screenshotScrolled(page, `admin-analytics-${size}-scrolled`)
      t.same(errors, [], 'no script errors')
    })
  }
})
