import type { Page } from 'playwright-core'
import { addFromShop, browserTest, drawer, drawerLines, launchBrowser, newPage, openShop, startShop } from './helpers.ts'

/**
 * The page and the host's own UI in step (docs/drawer-events.md): the drawer tells the page of every cart state it
 * draws (`svc:cart-updated`) and of opening and closing (`svc:open`, `svc:close`); `svcDrawer.refresh()` brings a
 * change made behind its back; the reference storefront's header count and mini cart follow the drawer.
 */

interface Seen {
  type: string
  bubbles: boolean
  target: string
  detail: {
    itemCount?: number
    cartHash?: string
    totals?: Record<string, unknown>
    currency?: Record<string, unknown>
    source?: string
  }
}

/** Records every page event of the drawer from before the page's own scripts run. */
async function recordEvents (page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: unknown[] = []
    Object.assign(window, { seenEvents: seen })
    for (const type of ['svc:cart-updated', 'svc:open', 'svc:close']) {
      window.addEventListener(type, (event) => {
        seen.push({ type, bubbles: event.bubbles, target: event.target === document ? 'document' : String(event.target), detail: (event as CustomEvent).detail })
      })
    }
  })
}

function events (page: Page, type?: string): Promise<Seen[]> {
  return page.evaluate((type) => ((window as unknown as { seenEvents: Seen[] }).seenEvents).filter((event) => type === undefined || event.type === type), type)
}

/** Waits until `count` events of the type have been seen; returns the last. */
async function nth (page: Page, type: string, count: number): Promise<Seen> {
  await page.waitForFunction(([type, count]) =>
    (window as unknown as { seenEvents: Array<{ type: string }> }).seenEvents.filter((event) => event.type === type).length >= count, [type, count] as const)
  const seen = await events(page, type)
  return seen[count - 1]!
}

/** The cookie cart as the Store API answers it (the server's truth, read beside the drawer). */
async function storeCart (page: Page): Promise<{ items_count: number, totals: Record<string, string>, hash: string }> {
  const response = await page.request.get(new URL('/wp-json/wc/store/v1/cart', page.url()).href)
  return { ...(await response.json()), hash: response.headers()['cart-hash'] ?? '' }
}

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

const headerCount = (page: Page) => page.textContent('.shop-links .cart-count')

/** Calls `window.svcDrawer.<name>()` in the page and waits for what it returns. */
function svcDrawer (page: Page, name: 'open' | 'close' | 'refresh'): Promise<void> {
  return page.evaluate(async (name) => {
    await (window as unknown as { svcDrawer: Record<typeof name, () => unknown> }).svcDrawer[name]()
  }, name)
}

browserTest('the drawer\'s page events, svcDrawer.refresh() and the storefront\'s header', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser)
  t.teardown(() => context.close())
  await recordEvents(page)
  let fragmentRefreshes = 0
  page.on('request', (request) => { if (request.url().includes('wc-ajax=get_refreshed_fragments')) fragmentRefreshes++ })
  await openShop(page, shop.url)

  const loaded = await nth(page, 'svc:cart-updated', 1)
  t.match(loaded, { type: 'svc:cart-updated', bubbles: true, target: 'document' }, 'a bubbling CustomEvent on document')
  t.match(loaded.detail, { itemCount: 0, cartHash: '' }, 'the page load\'s (empty) cart')
  t.equal(await headerCount(page), '(0)')

  // (a) an add: the cart from the fragment, then the drawer opens.
  await addFromShop(page, 101)
  const added = await nth(page, 'svc:cart-updated', 2)
  let server = await storeCart(page)
  t.equal(added.detail.itemCount, server.items_count, 'the count after an add')
  t.equal(added.detail.itemCount, 1)
  t.equal(added.detail.cartHash, server.hash, 'the cart hash is the platform\'s')
  t.match(added.detail.totals, {
    subtotal: server.totals.total_items, tax: server.totals.total_tax, shipping: server.totals.total_shipping, total: server.totals.total_price
  }, 'the totals in minor units, as strings')
  t.match(added.detail.currency, { currency_code: server.totals.currency_code, currency_minor_unit: server.totals.currency_minor_unit })
  const opened = await nth(page, 'svc:open', 1)
  t.match(opened, { bubbles: true, target: 'document', detail: { source: 'add_to_cart' } }, 'svc:open says what opened the drawer')
  const types = (await events(page)).map((event) => event.type)
  t.ok(types.indexOf('svc:cart-updated', 1) < types.indexOf('svc:open'), 'the new cart is told before the drawer opens')
  t.equal(await headerCount(page), '(1)', '(d) the storefront\'s header counts the add')

  // (a) a quantity change in the drawer.
  const beanie = page.locator(`${drawer} .svc-line`, { hasText: 'Beanie' })
  await beanie.getByRole('button', { name: 'Increase the quantity of Beanie' }).click()
  await settled(page)
  const changed = await nth(page, 'svc:cart-updated', 3)
  server = await storeCart(page)
  t.equal(changed.detail.itemCount, 2, 'the count after a quantity change')
  t.equal(changed.detail.itemCount, server.items_count)
  t.equal(changed.detail.totals?.total, server.totals.total_price)
  t.not(changed.detail.cartHash, added.detail.cartHash, 'another cart, another hash')
  t.equal(changed.detail.cartHash, server.hash)
  t.match(await page.textContent(`${drawer} [data-svc="count"]`), '2', 'the figure the drawer shows')
  t.equal(await headerCount(page), '(2)', '(d) the header follows the drawer')
  t.equal(fragmentRefreshes, 0, 'the collapsed mini cart is not fetched')

  // (b) open and close, each with what did it.
  await page.keyboard.press('Escape')
  t.match(await nth(page, 'svc:close', 1), { bubbles: true, target: 'document', detail: { source: 'escape' } })

  await page.click('details.mini-cart summary')
  await page.waitForFunction(() => /2 ×/.test(document.querySelector('.widget_shopping_cart_content .quantity')?.textContent ?? ''))
  t.equal(fragmentRefreshes, 1, '(d) opened, the mini cart shows the drawer\'s cart, fetched once for its new hash')
  await page.click('[data-svc="launcher"]')
  t.match(await nth(page, 'svc:open', 2), { detail: { source: 'launcher' } })
  await page.click(`${drawer} .svc-close`)
  t.match(await nth(page, 'svc:close', 2), { detail: { source: 'close_button' } })
  await svcDrawer(page, 'open')
  t.match(await nth(page, 'svc:open', 3), { detail: { source: 'api' } })
  await svcDrawer(page, 'open')
  await svcDrawer(page, 'close')
  t.match(await nth(page, 'svc:close', 3), { detail: { source: 'api' } })
  t.equal((await events(page, 'svc:open')).length, 3, 'opening an open drawer is no new opening')
  await svcDrawer(page, 'close')
  t.equal((await events(page, 'svc:close')).length, 3, 'nor closing a closed one')

  // (c) a line added behind the drawer's back (the page's own Store API call), then svcDrawer.refresh().
  const before = (await events(page, 'svc:cart-updated')).length
  const status = await page.evaluate(async () => {
    const cart = await fetch('/wp-json/wc/store/v1/cart', { credentials: 'same-origin' })
    const response = await fetch('/wp-json/wc/store/v1/cart/add-item', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Cart-Token': cart.headers.get('Cart-Token') ?? '' },
      body: JSON.stringify({ id: 103, quantity: 1 })
    })
    return response.status
  })
  t.equal(status, 201, 'the host\'s own add')
  t.same(await drawerLines(page), ['Beanie × 2'], 'the drawer does not know of it yet')
  t.equal(await headerCount(page), '(2)')
  await svcDrawer(page, 'refresh')
  t.same(await drawerLines(page), ['Beanie × 2', 'Cap × 1'], 'refresh() resolves with the server\'s cart drawn')
  const refreshed = await events(page, 'svc:cart-updated')
  t.equal(refreshed.length, before + 1, 'and told the page once')
  server = await storeCart(page)
  t.match(refreshed.at(-1)?.detail, { itemCount: server.items_count, cartHash: server.hash, totals: { total: server.totals.total_price } })
  t.equal(await headerCount(page), `(${server.items_count})`, '(d) the header follows the refresh')
  await page.waitForFunction(() => (document.querySelector('.widget_shopping_cart_content')?.textContent ?? '').includes('Cap'))
  t.equal(fragmentRefreshes, 2, '(d) and the open mini cart at once')

  t.same(errors, [], 'no script error')
})
