import type { Page, Route } from 'playwright-core'
import type { Test } from 'tap'
import {
  addFromShop, type AxeViolation, browserTest, drawer, drawerLines, launchBrowser, newPage, openShop, screenshot, PRO_WIDGET_SETTINGS, seriousAxeViolations, startShop, Traffic
} from './helpers.ts'

/**
 * The shopper's screens reviewed at a desktop and a phone size: the storefront, the launcher, and the drawer empty,
 * filled, with a coupon, with a refusal, loading, dark and right to left. Each screen is screenshotted and must have
 * no serious or critical axe-core violation (the drawer's body checked a screenful at a time), touch targets of at
 * least 44×44 CSS pixels, no horizontal scroll and nothing sticking out of the drawer's parts.
 */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 }
]

/** Every widget of the Pro edition, so that each of its controls is reviewed too; the launcher shows its total. */
const SETTINGS = PRO_WIDGET_SETTINGS

const MINIMUM_TARGET = 44

/**
 * The rendered interactive elements smaller than 44×44 CSS pixels (WCAG 2.5.5), as `tag[name] width×height`. A
 * checkbox or radio button is measured with its label, which toggles it as well.
 */
function smallTargets (page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const selector = 'a[href], a[role=link], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"])'
    const offenders = []
    for (const element of document.querySelectorAll(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue
      const label = element.matches('input[type=checkbox], input[type=radio]') ? element.closest('label') : null
      const box = (label ?? element).getBoundingClientRect()
      if (box.width >= ${MINIMUM_TARGET} && box.height >= ${MINIMUM_TARGET}) continue
      const name = element.getAttribute('data-fk') || element.getAttribute('data-svc') || element.getAttribute('aria-label') || element.textContent.trim().slice(0, 30)
      offenders.push(element.tagName.toLowerCase() + '[' + name + '] ' + Math.round(box.width) + '×' + Math.round(box.height))
    }
    return offenders
  })()`)
}

/**
 * Boxes wider than their room: the page scrolls sideways, the drawer's content does, or something in the drawer's
 * head, body or foot sticks out of the padding of its part.
 */
function overflows (page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const found = []
    const root = document.documentElement
    if (root.scrollWidth > innerWidth) found.push('page ' + root.scrollWidth + ' > ' + innerWidth)
    for (const part of document.querySelectorAll('[data-svc="drawer"]:not([hidden]), [data-svc="drawer"]:not([hidden]) .svc-body')) {
      if (part.scrollWidth > part.clientWidth) found.push(part.className + ' ' + part.scrollWidth + ' > ' + part.clientWidth)
    }
    for (const part of document.querySelectorAll('[data-svc="drawer"]:not([hidden]) :is(.svc-head, .svc-body, .svc-foot)')) {
      const box = part.getBoundingClientRect()
      const style = getComputedStyle(part)
      const left = box.left + parseFloat(style.paddingLeft) - 0.5
      const right = box.left + part.clientWidth - parseFloat(style.paddingRight) + 0.5
      for (const element of part.querySelectorAll('*')) {
        const inner = element.getBoundingClientRect()
        if (inner.width === 0 || element.closest('.svc-sr')) continue
        if (inner.left < left || inner.right > right) {
          found.push(part.className + ' > ' + element.tagName.toLowerCase() + '.' + element.className + ' "' + element.textContent.trim().slice(0, 30) + '" ' + Math.round(inner.left) + '–' + Math.round(inner.right) + ' outside ' + Math.round(left) + '–' + Math.round(right))
        }
      }
    }
    return found
  })()`)
}

/** The screen's screenshot and its checks: axe-core, touch targets, no sideways scroll. */
async function review (t: Test, page: Page, name: string): Promise<void> {
  const size = page.viewportSize()
  const file = `shopper-${name}-${size?.width}x${size?.height}`
  await screenshot(page, file)
  t.same(await seriousAxeViolations(page), [], `${file}: no serious or critical axe-core violation`)
  // axe-core reads only what is on screen in a scrolled box: the drawer's body is checked a screenful at a time.
  if (await page.isVisible(drawer)) {
    const body = page.locator(`${drawer} .svc-body`)
    const start = await body.evaluate((element) => element.scrollTop)
    const further: AxeViolation[] = []
    const scrollDown = () => body.evaluate((element) => {
      if (Math.ceil(element.scrollTop + element.clientHeight) >= element.scrollHeight) return false
      element.scrollTop += element.clientHeight
      return true
    })
    while (await scrollDown()) further.push(...await seriousAxeViolations(page))
    await body.evaluate((element, top) => { element.scrollTop = top }, start)
    t.same(further, [], `${file}: none further down the drawer either`)
  }
  t.same(await smallTargets(page), [], `${file}: every touch target is at least ${MINIMUM_TARGET}×${MINIMUM_TARGET}`)
  t.same(await overflows(page), [], `${file}: nothing scrolls sideways or sticks out of the drawer`)
}

/** The drawer's actions that need the cart and are not disabled (neither `disabled` nor `aria-disabled`, or a link with an address). */
function enabledCartActions (page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const actions = document.querySelectorAll('${drawer} .svc-body button, ${drawer} .svc-body input:not([data-fk="coupon-code"]), ${drawer} .svc-foot a, ${drawer} .svc-foot button')
    return [...actions]
      .filter((element) => element.getClientRects().length > 0)
      .filter((element) => !element.disabled && element.getAttribute('aria-disabled') !== 'true' && !(element.matches('input') && element.readOnly))
      .concat([...document.querySelectorAll('${drawer} a[data-svc="checkout"][href]')])
      .map((element) => element.getAttribute('data-fk') || element.getAttribute('data-svc') || element.textContent.trim())
  })()`)
}

/** The drawer's actions disabled for loading (`aria-disabled`), which must all be gone once it has loaded. */
function lockedActions (page: Page): Promise<string[]> {
  return page.$$eval(`${drawer} [aria-disabled="true"]`, (elements) => elements.map((element) => element.getAttribute('data-fk') ?? element.getAttribute('data-svc') ?? ''))
}

/** Whether the element is shown whole inside the drawer's scrolled body (not under its head or foot). */
function inView (page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => {
    const body = element.closest('.svc-body')?.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    return body !== undefined && box.height > 0 && box.top >= body.top && box.bottom <= body.bottom
  })
}

/** Applies a coupon code with the keyboard (Enter in the field) and waits for the drawer's answer. */
async function applyCoupon (page: Page, code: string): Promise<void> {
  const field = page.getByLabel('Coupon code')
  await field.fill(code)
  await field.press('Enter')
  await settled(page)
}

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

/** A route that holds the requests it matches until `release()`. */
function hold (): { handler: (route: Route) => Promise<void>, release: () => void, seen: Promise<void> } {
  let release = () => {}
  let seen = () => {}
  const released = new Promise<void>((resolve) => { release = resolve })
  const arrived = new Promise<void>((resolve) => { seen = resolve })
  return {
    handler: async (route) => {
      seen()
      await released
      await route.continue()
    },
    release: () => release(),
    seen: arrived
  }
}

/** Opens the drawer with the launcher, once its sections are up to date for the cart. */
async function openDrawer (page: Page): Promise<void> {
  await page.click('[data-svc="launcher"]')
  await page.waitForSelector(`${drawer}:not([hidden])`)
  await settled(page)
}

/** Fills the cart from the storefront (a hat, a shirt and a made-to-order jacket) and closes the drawer. */
async function fillCart (page: Page): Promise<void> {
  for (const id of [101, 107, 110]) {
    await addFromShop(page, id)
    await page.keyboard.press('Escape')
    await page.waitForSelector(drawer, { state: 'hidden' })
  }
}

browserTest('the shopper\'s screens at a desktop and a phone size', async (t) => {
  const shop = await startShop(t, { edition: 'pro', settings: SETTINGS })
  const browser = await launchBrowser(t)

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`
    const phone = viewport.width < 640
    const device = phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}

    t.test(`${size}: storefront, launcher, and the drawer empty, filled, with a coupon, refusing one, loading`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport, ...device })
      t.teardown(() => context.close())
      const traffic = new Traffic(page)
      await openShop(page, shop.url)
      await review(t, page, 'storefront')

      await openDrawer(page)
      t.match(await page.textContent(`${drawer} [data-svc="cart"]`), 'Your cart is empty.')
      await review(t, page, 'drawer-empty')
      await page.keyboard.press('Escape')

      await fillCart(page)
      t.match(await page.textContent('[data-svc="launcher"]'), /\$\d/, 'the launcher shows the total')
      await review(t, page, 'launcher')

      await openDrawer(page)
      await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
      t.same(await drawerLines(page), ['Beanie × 1', 'T-Shirt × 1', 'Vintage Jacket × 1'])
      await review(t, page, 'drawer-filled')

      await applyCoupon(page, 'save10')
      await page.waitForSelector('.svc-chip')
      t.match(await page.textContent(`${drawer} [data-svc="discount"]`), /−\$/)
      t.ok(await inView(page, '.svc-chip'), 'the applied coupon is in view')
      await review(t, page, 'drawer-coupon')

      await applyCoupon(page, 'nosuchcode')
      t.match(await page.textContent('[data-svc="coupon-message"]'), /\w/, 'the refusal is shown in words')
      t.ok(await inView(page, '[data-svc="coupon-message"]'), 'and in view')
      await review(t, page, 'drawer-error')

      // A write in flight: every action that needs the cart is disabled until the cart is back.
      const write = hold()
      await page.route('**/wp-json/wc/store/v1/cart/update-item', write.handler)
      await page.locator(`${drawer} .svc-line`, { hasText: 'Beanie' }).getByRole('button', { name: 'Increase the quantity of Beanie' }).click()
      await write.seen
      await page.waitForSelector(`${drawer}[aria-busy="true"]`, { state: 'attached' })
      t.same(await enabledCartActions(page), [], 'while a change is sent, no cart action is enabled')
      const mark = traffic.mark()
      await page.locator(`${drawer} [data-svc="checkout"]`).click({ force: true })
      await page.locator(`${drawer} button[data-fk^="rm:"]`).first().click({ force: true })
      t.equal(new URL(page.url()).pathname, '/', 'Checkout does not leave the page while the cart is loading')
      t.same(traffic.since(mark).map((r) => r.url), [], 'and no other change is sent')
      await review(t, page, 'drawer-busy')
      write.release()
      await settled(page)
      t.same(await drawerLines(page), ['Beanie × 2', 'T-Shirt × 1', 'Vintage Jacket × 1'])
      t.same(await lockedActions(page), [], 'every action is enabled again')
      t.ok(await page.getAttribute(`${drawer} [data-svc="checkout"]`, 'href'), 'Checkout is a link again')
      await page.unroute('**/wp-json/wc/store/v1/cart/update-item')

      // The page loading: the drawer opened before its cart has arrived.
      await page.keyboard.press('Escape')
      const load = hold()
      const isDrawerData = (url: URL) => url.pathname.endsWith('/svc/v1/drawer-data')
      await page.route(isDrawerData, load.handler)
      await page.reload()
      await load.seen
      await page.click('[data-svc="launcher"]')
      await page.waitForSelector(`${drawer}:not([hidden])`)
      t.equal(await page.getAttribute(drawer, 'aria-busy'), 'true', 'the drawer says it is busy')
      t.same(await enabledCartActions(page), [], 'while the cart loads, no cart action is enabled')
      const beforeCheckout = traffic.mark()
      await page.locator(`${drawer} [data-svc="checkout"]`).click({ force: true })
      t.equal(new URL(page.url()).pathname, '/', 'Checkout does not leave the page')
      t.same(traffic.since(beforeCheckout, '/checkout'), [], 'nor asks for the checkout')
      await review(t, page, 'drawer-loading')
      load.release()
      await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
      await settled(page)
      t.same(await drawerLines(page), ['Beanie × 2', 'T-Shirt × 1', 'Vintage Jacket × 1'], 'the cart arrives')
      t.same(await lockedActions(page), [], 'every action is enabled once loaded')
      t.ok(await page.getAttribute(`${drawer} [data-svc="checkout"]`, 'href'), 'Checkout is a link again')
      await page.unroute(isDrawerData)
      t.same(errors, [], 'no script errors')
    })

    t.test(`${size}: the drawer in dark mode (the visitor's preference, dark_mode auto)`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport, ...device, colorScheme: 'dark' })
      t.teardown(() => context.close())
      await openShop(page, shop.url)
      await fillCart(page)
      await openDrawer(page)
      await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
      t.equal(await page.evaluate(`getComputedStyle(document.querySelector('${drawer}')).backgroundColor`), 'rgb(17, 24, 39)', 'the dark palette')
      await applyCoupon(page, 'nosuchcode')
      t.ok(await inView(page, '[data-svc="coupon-message"]'), 'the refusal is in view')
      await review(t, page, 'drawer-dark')
      t.same(errors, [])
    })

    t.test(`${size}: the drawer on a right-to-left page`, async (t) => {
      const { context, page, errors } = await newPage(browser, { viewport, ...device })
      t.teardown(() => context.close())
      await openShop(page, shop.url)
      await page.evaluate('document.documentElement.dir = "rtl"')
      await fillCart(page)
      await review(t, page, 'launcher-rtl')
      await openDrawer(page)
      await page.waitForSelector('[data-svc="recommendations"]:not([hidden]) .svc-card')
      const box = await page.locator(drawer).boundingBox()
      t.equal(Math.round(box?.x ?? -1), 0, 'position right: the drawer is on the left edge in RTL')
      await applyCoupon(page, 'save10')
      t.ok(await inView(page, '.svc-chip'), 'the applied coupon is in view')
      t.ok(await page.$eval(`${drawer} [data-svc="discount"] bdi`, (amount) => {
        const text = amount.firstChild as Text
        const range = document.createRange()
        range.setStart(text, 0)
        range.setEnd(text, 1)
        const sign = range.getBoundingClientRect()
        range.setStart(text, 1)
        range.setEnd(text, text.length)
        return text.data.startsWith('−') && sign.right <= range.getBoundingClientRect().left + 1
      }), 'the discount\'s minus sign is drawn before its amount, not after it')
      await review(t, page, 'drawer-rtl')
      t.same(errors, [])
    })
  }
})
