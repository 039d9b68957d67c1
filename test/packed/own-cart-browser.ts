import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import type { Test } from 'tap'
import { CHROMIUM_FLAGS, SCREENSHOTS } from '../browser/helpers.ts'
import { startExample } from './example-server.ts'

/**
 * The second example host (examples/own-cart-shop/, its own cart, totals and coupons) started from the packed
 * project, in Chromium. Free: add from the shop page, the drawer opens, a quantity change, a removal, a coupon
 * applied and removed. Pro: a bundle, an add-on, the spotlight offer, then the reward tiers (free shipping, 10 % off,
 * a gift line); after every step the drawer's total is the shop's own checkout total (`GET /checkout/total`) to the
 * cent, and the value worked out here from the catalog's prices.
 */

const drawer = '[data-svc="drawer"]'

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

/** The total the drawer shows, in cents (the euro amount's digits). */
async function drawerTotal (page: Page): Promise<number> {
  return Number((await page.textContent(`${drawer} [data-svc="total"]`) ?? '').replace(/\D+/g, ''))
}

async function checkoutTotal (page: Page): Promise<number> {
  return page.evaluate(async () => (await (await fetch('/checkout/total', { credentials: 'same-origin' })).json() as { total: number }).total)
}

async function lines (page: Page): Promise<string[]> {
  return page.$$eval(`${drawer} .svc-line`, (elements) => elements.map((line) => {
    const input = line.querySelector('input')
    const quantity = input ? input.value : (line.querySelector('.svc-controls .svc-meta')?.textContent ?? '').replace(/\D+/g, '')
    return `${line.querySelector('.svc-name')?.textContent ?? ''} × ${quantity}`
  }))
}

async function openShop (page: Page, url: string): Promise<void> {
  await page.goto(`${url}/`)
  await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
}

async function addFromShopPage (page: Page, name: string): Promise<void> {
  await page.locator('li', { hasText: name }).locator('button[data-add]').click()
  await page.waitForSelector(`${drawer}:not([hidden])`)
  await settled(page)
}

export async function ownCartChecks (t: Test, project: string, executablePath: string): Promise<void> {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS })
  t.teardown(() => browser.close())
  const start = (edition: 'free' | 'pro') => startExample(t, project, 'own-shop/server.ts', (home) => ({ INK_SHOP_URL: home, INK_SHOP_EDITION: edition }))
  const [freeUrl, proUrl] = await Promise.all([start('free'), start('pro')])
  mkdirSync(SCREENSHOTS, { recursive: true })

  await t.test('Free: add from the shop page, quantity, removal, a coupon', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' })
    t.teardown(() => context.close())
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(String(error)))
    await openShop(page, freeUrl)
    await addFromShopPage(page, 'Dotted Notebook')
    t.same(await lines(page), ['Dotted Notebook × 1'], 'the drawer opened with the line')
    t.equal(await drawerTotal(page), 900 + 490, '€9.00 and €4.90 shipping')

    const line = page.locator(`${drawer} .svc-line`, { hasText: 'Dotted Notebook' })
    await line.locator('button[data-fk^="inc:"]').click()
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-svc="drawer"] .svc-line input')?.value === '2')
    await settled(page)
    t.equal(await drawerTotal(page), 1800 + 490, 'two notebooks')
    t.equal(await checkoutTotal(page), 1800 + 490, 'the shop\'s checkout agrees')

    const code = page.getByLabel('Coupon code')
    await code.fill('INK10')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForSelector('.svc-chip')
    await settled(page)
    t.match(await page.textContent('.svc-chip'), 'ink10', 'the coupon applied')
    t.equal(await drawerTotal(page), 1800 - 180 + 490, '10 % off the items')
    t.equal(await checkoutTotal(page), 1800 - 180 + 490, 'the shop\'s checkout agrees')
    await page.getByRole('button', { name: 'Remove coupon ink10' }).click()
    await page.waitForSelector('.svc-chip', { state: 'detached' })
    await settled(page)
    t.equal(await drawerTotal(page), 1800 + 490, 'the coupon removed')

    await line.locator('button[data-fk^="rm:"]').click()
    await page.waitForFunction(() => document.querySelectorAll('[data-svc="drawer"] .svc-line').length === 0)
    await settled(page)
    t.same(await lines(page), [], 'the line removed')
    t.equal(await checkoutTotal(page), 0, 'the shop\'s cart is empty')
    await page.screenshot({ path: join(SCREENSHOTS, 'packed-own-cart-free.png') })
    t.same(errors, [], 'no script errors')
  })

  await t.test('Pro: bundle, add-on, spotlight and the reward tiers; the drawer\'s total is the checkout\'s after every step', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1400 }, reducedMotion: 'reduce' })
    t.teardown(() => context.close())
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(String(error)))

    /** Waits until the drawer shows the checkout's total (a render may lag its answer), then checks both against `expected`. */
    const agree = async (expected: number, what: string) => {
      await settled(page)
      const deadline = Date.now() + 5000
      let shown = await drawerTotal(page)
      let checkout = await checkoutTotal(page)
      while (shown !== checkout && Date.now() < deadline) {
        await page.waitForTimeout(100)
        shown = await drawerTotal(page)
        checkout = await checkoutTotal(page)
      }
      t.equal(shown, checkout, `${what}: the drawer shows the shop's checkout total (${checkout})`)
      t.equal(checkout, expected, `${what}: ${expected} as worked out from the prices`)
    }

    await openShop(page, proUrl)
    await addFromShopPage(page, 'Dotted Notebook')
    await agree(900 + 490, 'a notebook')

    await page.locator('[data-svc="bundles"] .svc-bundle', { hasText: 'Pen and ink' }).last().getByRole('button', { name: 'Add bundle Pen and ink to the cart' }).click()
    await page.waitForFunction(() => document.querySelectorAll('[data-svc="drawer"] .svc-line').length === 3)
    // The pen (€24.00) and the ink (€7.00), 20 % off both: €24.80.
    await agree(900 + 2480 + 490, 'the bundle')

    await page.getByLabel('Gift wrap').check()
    await page.waitForFunction(() => document.querySelectorAll('[data-svc="drawer"] .svc-line').length === 4)
    await agree(900 + 2480 + 300 + 490, 'the gift-wrap add-on')

    await page.locator('[data-svc="spotlight"]').getByRole('button', { name: 'Add Washi Tape to the cart' }).click()
    await page.waitForFunction(() => document.querySelectorAll('[data-svc="drawer"] .svc-line').length === 5)
    // €40.80 after the bundle discount: free shipping.
    await agree(900 + 2480 + 300 + 400, 'the spotlight offer (free shipping from €40)')

    const more = page.locator(`${drawer} .svc-line`, { hasText: 'Dotted Notebook' }).locator('button[data-fk^="inc:"]')
    const notebooks = async (quantity: number) => {
      await more.click()
      await page.waitForFunction((wanted) => [...document.querySelectorAll<HTMLElement>('[data-svc="drawer"] .svc-line')]
        .some((line) => line.textContent?.includes('Dotted Notebook') && line.querySelector('input')?.value === String(wanted)), quantity)
    }
    await notebooks(2)
    await agree(1800 + 2480 + 300 + 400, 'two notebooks')
    await notebooks(3)
    await agree(2700 + 2480 + 300 + 400, 'three notebooks')
    await notebooks(4)
    // €67.80 reaches 10 % off: €61.02.
    await agree(6780 - 678, 'four notebooks: 10 % off from €60')
    await notebooks(5)
    await agree(7680 - 768, 'five notebooks')
    await notebooks(6)
    await page.waitForFunction(() => document.querySelector('[data-svc="drawer"]')?.textContent?.includes('Brass Bookmark'))
    // €85.80 reaches the bookmark, which costs nothing.
    await agree(8580 - 858, 'six notebooks: the brass bookmark from €80')
    const all = await lines(page)
    t.ok(all.includes('Brass Bookmark × 1'), `the gift line is in the drawer (${all.join(', ')})`)
    await page.screenshot({ path: join(SCREENSHOTS, 'packed-own-cart-pro.png') })
    t.same(errors, [], 'no script errors')
  })
}
