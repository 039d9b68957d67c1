import type { Page } from 'playwright-core'
import {
  addFromShop, browserTest, drawer, drawerLines, FREE_SHIPPING_TIER, launchBrowser, MOBILE, newPage, openShop, PRO_WIDGET_SETTINGS, screenshot,
  seriousAxeViolations, startShop
} from './helpers.ts'

/**
 * The rewards bar in the drawer, in Chromium: the sentence names the next tier and what it still
 * needs, the tiers reached are listed, and crossing a threshold either way adds or takes away the reward in the
 * cart's own totals (free shipping, the discount, the gift line). Pro tiers (test/browser/helpers.ts): free
 * shipping from $100, 10 % off from $150, a free guitar pick from $200. Sunglasses (104) cost $90.
 */

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

async function storeTotals (page: Page): Promise<{ total_price: string, total_shipping: string, total_discount: string }> {
  return page.evaluate(async () => (await (await fetch('/wp-json/wc/store/v1/cart', { credentials: 'same-origin' })).json()).totals)
}

const sentence = (page: Page) => page.textContent(`${drawer} [data-svc="meter"] .svc-meta`).then((text) => (text ?? '').replace(/[\u2068\u2069]/g, ''))
const unlocked = (page: Page) => page.$$eval(`${drawer} [data-svc="meter"] .svc-unlocked li`, (items) => items.map((item) => (item.textContent ?? '').replace(/[\u2068\u2069]/g, '')))

browserTest('the rewards bar', async (t) => {
  const shop = await startShop(t, { edition: 'pro', settings: PRO_WIDGET_SETTINGS })
  const browser = await launchBrowser(t)

  t.test('crossing each threshold up and down', async (t) => {
    const { context, page, errors } = await newPage(browser, { viewport: MOBILE })
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 104)
    await settled(page)
    t.equal(await sentence(page), 'Spend $10.00 more to get Free shipping.')
    t.same(await unlocked(page), [])
    t.equal((await storeTotals(page)).total_shipping, '500', 'shipping is charged below $100')

    const more = page.locator(`${drawer} [data-fk^="inc:"]`).first()
    await more.click()
    await settled(page)
    t.equal(await sentence(page), 'Spend $20.00 more to get A free guitar pick.', '$180: the next goal is the gift')
    t.same(await unlocked(page), ['Unlocked: Free shipping', 'Unlocked: 10% off'])
    const totals = await storeTotals(page)
    t.same([totals.total_shipping, totals.total_discount], ['0', '1800'], 'free shipping and 10 % off in the cart\'s totals')
    t.match(await page.textContent(`${drawer} [data-svc="total"]`), (Number(totals.total_price) / 100).toFixed(2), 'the drawer shows the cart\'s total')
    await screenshot(page, 'rewards-two-of-three-390')

    await more.click()
    await settled(page)
    t.equal(await sentence(page), 'You have unlocked every reward.')
    t.same(await drawerLines(page), ['Sunglasses × 3', 'Guitar Pick × 1'], 'the gift is in the cart')
    t.equal(await page.locator(`${drawer} .svc-line`, { hasText: 'Guitar Pick' }).locator('button, input').count(), 0, 'locked: no controls')
    t.same(await seriousAxeViolations(page), [], 'axe-core: no serious or critical violation')
    await screenshot(page, 'rewards-all-390')

    const fewer = page.locator(`${drawer} [data-fk^="dec:"]`).first()
    await fewer.click()
    await settled(page)
    await fewer.click()
    await settled(page)
    t.same(await drawerLines(page), ['Sunglasses × 1'], 'back below: the gift is gone')
    t.equal(await sentence(page), 'Spend $10.00 more to get Free shipping.')
    t.same(await unlocked(page), [])
    t.equal((await storeTotals(page)).total_shipping, '500', 'and shipping is charged again')
    t.same(errors, [])
  })
})

browserTest('the free-shipping tier in the Free edition', async (t) => {
  const shop = await startShop(t, { edition: 'free', settings: { rewards: { tiers: [FREE_SHIPPING_TIER] } } })
  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser, { viewport: MOBILE })
  t.teardown(() => context.close())
  await openShop(page, shop.url)
  await addFromShop(page, 102)
  await settled(page)
  t.equal(await sentence(page), 'You have unlocked every reward.', '$55 reaches free shipping from $50')
  t.same(await unlocked(page), ['Unlocked: Free shipping'])
  t.equal((await storeTotals(page)).total_shipping, '0')
  t.same(errors, [])
})
