import {
  browserTest, drawer, drawerLines, launchBrowser, newPage, openShop, SHOPPER, startShop, Traffic
} from './helpers.ts'

/** A logged-in shopper: the page gives the drawer a REST nonce, sent as X-WP-Nonce, and renewed when refused. */

browserTest('the logged-in shopper\'s drawer', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)
  const { context, page, errors } = await newPage(browser)
  t.teardown(() => context.close())
  const traffic = new Traffic(page)

  await openShop(page, shop.url)
  // Logged in with the keyboard through the storefront's form.
  await page.getByLabel('E-mail').fill(SHOPPER.email)
  await page.getByLabel('Password').fill(SHOPPER.password)
  await Promise.all([page.waitForEvent('load'), page.getByLabel('Password').press('Enter')])
  await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
  t.match(await page.textContent('.account'), 'Logged in as Sam Shopper')
  const config = JSON.parse(await page.textContent('#svc-drawer-config') ?? '{}')
  t.match(config, { loggedIn: true, nonce: /^[\w-]{16,}$/, restRoot: '/wp-json/', edition: 'free' }, 'the page gives the drawer its nonce')

  const mark = traffic.mark()
  const add = page.waitForResponse((r) => r.url().includes('wc-ajax=add_to_cart'))
  await page.click('button.add-to-cart[data-product-id="101"]')
  await add
  await page.waitForSelector(`${drawer}:not([hidden])`)
  await page.waitForTimeout(400)
  t.same(traffic.afterLastAdd(), [], 'no request after the add, logged in as well')
  t.same(await drawerLines(page), ['Beanie × 1'])

  await page.getByLabel('Coupon code').fill('fiver')
  await page.getByLabel('Coupon code').press('Enter')
  await page.waitForSelector('.svc-chip')
  const apply = traffic.since(mark, '/svc/v1/coupon')[0]
  t.equal(apply?.headers['x-wp-nonce'], config.nonce, 'svc/v1 calls carry X-WP-Nonce')
  t.match(apply?.headers['cart-token'], /\./, 'and the Cart-Token')

  // Another login in this browser (a second tab, say) ends the session the page's nonce was made for.
  await page.evaluate(`fetch('/account/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(${JSON.stringify({ email: SHOPPER.email, password: SHOPPER.password })}) }).then((r) => r.status)`)
  const before = traffic.mark()
  await page.getByRole('button', { name: 'Remove coupon fiver' }).click()
  await page.waitForSelector('.svc-chip', { state: 'detached' })
  const sequence = traffic.since(before).filter((r) => r.type === 'fetch').map((r) => `${r.method} ${new URL(r.url).pathname}`)
  t.same(sequence.slice(0, 3), ['DELETE /wp-json/svc/v1/coupon', 'GET /account/rest-nonce', 'DELETE /wp-json/svc/v1/coupon'],
    'a refused nonce (403 svc_invalid_nonce) is renewed from /account/rest-nonce and the call made again')
  const retried = traffic.since(before, '/svc/v1/coupon')[1]
  t.ok(retried?.headers['x-wp-nonce'] && retried.headers['x-wp-nonce'] !== config.nonce, 'with the new nonce')
  t.equal(await page.textContent('[data-svc="error"]'), '', 'the shopper saw no error')

  // Logged out elsewhere: the nonce endpoint says 401, and the drawer goes on as a guest, without a nonce.
  await page.evaluate('fetch("/account/logout", { method: "POST" })')
  const guest = traffic.mark()
  await page.getByRole('button', { name: 'Increase the quantity of Beanie' }).click()
  await page.waitForSelector(`${drawer}[aria-busy="false"]`, { state: 'attached' })
  const calls = traffic.since(guest).filter((r) => r.url.includes('/svc/v1/'))
  t.notOk(calls[calls.length - 1]?.headers['x-wp-nonce'], 'the last call went without a nonce')
  t.same(errors, [])
})
