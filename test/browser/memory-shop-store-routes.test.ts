import { createServer } from 'node:net'
import type { Page } from 'playwright-core'
import { buildTeaShop } from '../../examples/memory-shop/app.ts'
import { buildClient } from '../../scripts/build-client.ts'
import { browserTest, drawer, drawerLines, launchBrowser, newPage, Traffic } from './helpers.ts'

/**
 * The drawer on a host without a Store API, in Chromium: the example host (examples/memory-shop/) registers the drawer
 * with `storeApi: 'drawer'`, so the script reads the cart and changes it through the drawer's own `svc/v1/store/cart`
 * routes: add (the shop's own button), change a quantity, remove, Undo.
 */

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

async function settled (page: Page): Promise<void> {
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
}

browserTest('the drawer on the example host works through the drawer-served cart routes', async (t) => {
  await buildClient()
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const { app } = await buildTeaShop({
    secret: 'a-browser-test-secret-of-at-least-32-bytes',
    admin: { email: 'manager@tea.test', password: 'steep-and-sip-123' },
    edition: 'free',
    homeUrl: url
  })
  t.teardown(() => app.close())
  await app.ready()
  const saved = await app.settings.save({ behaviour: { undo_seconds: 30, open_on_add: true } })
  if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved)}`)
  await app.listen({ port, host: '127.0.0.1' })

  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser)
  t.teardown(() => context.close())
  const traffic = new Traffic(page)
  await page.goto(`${url}/`)
  await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
  t.ok(traffic.requests.some((request) => request.url === `${url}/api/svc/v1/store/cart`), 'the Cart-Token from the drawer\'s own GET store/cart')

  // Add: the shop's own button (its /api/cart/add, the cart cookie the drawer's answer set), the drawer opens.
  const sencha = page.locator('li', { hasText: 'Sencha Green Tea' })
  await sencha.locator('button[data-add]').click()
  await page.waitForSelector(`${drawer}:not([hidden])`)
  await settled(page)
  t.same(await drawerLines(page), ['Sencha Green Tea × 1'], 'the drawer shows the line the page added')

  // Change the quantity with the stepper: update-item of the drawer's routes.
  const line = page.locator(`${drawer} .svc-line`, { hasText: 'Sencha Green Tea' })
  let mark = traffic.mark()
  await line.locator('button[data-fk^="inc:"]').click()
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-svc="drawer"] .svc-line input')?.value === '2')
  await settled(page)
  const updates = traffic.since(mark, '/api/svc/v1/store/cart/update-item')
  t.equal(updates.length, 1, 'one update-item of the drawer\'s routes')
  t.match(JSON.parse(updates[0]?.body ?? '{}'), { quantity: 2 }, 'setting the quantity to 2')
  t.match(updates[0]?.headers['cart-token'], /\./, 'with the Cart-Token')
  t.same(await drawerLines(page), ['Sencha Green Tea × 2'], 'the quantity changed')

  // Remove, then Undo: add-item of the drawer's routes puts the line back in its quantity.
  await line.locator('button[data-fk^="rm:"]').click()
  await settled(page)
  t.same(await drawerLines(page), [], 'removed')
  const undo = page.locator('[data-svc="undo"]')
  t.match(await undo.textContent(), /Sencha Green Tea removed from the cart/, 'Undo offered')
  mark = traffic.mark()
  await undo.getByRole('button', { name: 'Undo' }).click()
  await page.waitForFunction(() => document.querySelectorAll('[data-svc="drawer"] .svc-line').length === 1)
  await settled(page)
  const adds = traffic.since(mark, '/api/svc/v1/store/cart/add-item')
  t.equal(adds.length, 1, 'one add-item of the drawer\'s routes')
  t.match(JSON.parse(adds[0]?.body ?? '{}'), { id: 1, quantity: 2 }, 'the same product in its quantity')
  t.same(await drawerLines(page), ['Sencha Green Tea × 2'], 'the line is back')

  t.same(traffic.requests.filter((request) => request.url.includes('/wc/store/')), [], 'no Store API request at all')
  const cart = await page.evaluate(async () => (await fetch('/api/cart', { credentials: 'same-origin' })).json() as Promise<{ items_count: number }>)
  t.equal(cart.items_count, 2, 'the shop\'s own cart (its cookie) is the drawer\'s')
  t.same(errors, [], 'no script errors')
})
