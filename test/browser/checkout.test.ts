import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import {
  addFromShop, browserTest, drawer, launchBrowser, newPage, openShop, screenshot, SHOPPER, startShop, Traffic
} from './helpers.ts'

/**
 * The storefront's cart, checkout and order pages in Chromium, over the Store API with the cookie session and its
 * Nonce: a guest and a logged-in shopper go from the drawer's Checkout button to the order-received page; a refused
 * checkout shows its error and changes nothing; axe-core finds nothing on the cart and checkout pages.
 */

interface Address {
  first_name: string
  last_name: string
  address_1: string
  city: string
  state: string
  postcode: string
  country: string
  email?: string
  phone?: string
}

const GUEST: Address = {
  first_name: 'Grace',
  last_name: 'Hopper',
  address_1: '1 Compiler Street',
  city: 'San Francisco',
  state: 'CA',
  postcode: '94103',
  country: 'US',
  email: 'grace@example.test',
  phone: '555-0100'
}

async function fillBilling (page: Page, address: Address): Promise<void> {
  for (const [field, value] of Object.entries(address)) {
    if (field === 'country') await page.selectOption(`#billing_${field}`, value)
    else await page.fill(`#billing_${field}`, value)
  }
}

/** The visitor's Store API cart, read in the page with its cookies (a read needs no nonce). */
async function storeCart (page: Page): Promise<any> {
  return page.evaluate('fetch("/wp-json/wc/store/v1/cart", { credentials: "same-origin" }).then((r) => r.json())')
}

/** From the shop page through the drawer's Checkout button to the checkout page, its script ready. */
async function toCheckoutThroughDrawer (page: Page, url: string, productIds: number[]): Promise<void> {
  await openShop(page, url)
  for (const id of productIds) {
    if (await page.isVisible(`${drawer}:not([hidden])`)) await page.keyboard.press('Escape')
    await page.waitForSelector(`${drawer}`, { state: 'hidden' })
    await addFromShop(page, id)
  }
  await Promise.all([page.waitForURL(/\/checkout\/$/), page.click(`${drawer} [data-svc="checkout"]`)])
  await page.waitForSelector('#storefront-checkout[data-ready="true"]', { state: 'attached' })
}

let axeSource: string | undefined

/** Every axe-core violation of the page, whatever its impact. */
async function axeViolations (page: Page): Promise<Array<{ id: string, impact: string | null, targets: string[] }>> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  await page.evaluate(axeSource)
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(' ')) }))
  })()`)
}

browserTest('the storefront\'s cart, checkout and order pages', async (t) => {
  const shop = await startShop(t, { edition: 'free' })
  const browser = await launchBrowser(t)
  const storage = shop.app.shop.storage

  await t.test('(a) a guest: drawer, Checkout, the form, cash on delivery, the order-received page', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    const traffic = new Traffic(page)
    await toCheckoutThroughDrawer(page, shop.url, [101, 107])
    t.equal(await page.title(), 'Checkout')
    t.equal(await page.locator('[data-svc="root"]').count(), 0, 'the checkout page carries no drawer')
    const cart = await storeCart(page)
    t.equal(cart.items.length, 2)
    t.match(await page.textContent('#checkout-summary .order-total'), `$${(Number(cart.totals.total_price) / 100).toFixed(2)}`, 'the summary shows the cart\'s total')

    await fillBilling(page, GUEST)
    t.equal(await page.isChecked('#payment_method_cod'), true, 'cash on delivery, the first method, is chosen')
    await page.check('#payment_method_cod')
    await page.fill('#order_comments', 'Ring twice <please>')
    const stockBefore = (await storage.getProduct(107))!.stockQuantity!
    const mark = traffic.mark()
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/), page.click('#place-order')])
    const post = traffic.since(mark, '/wc/store/v1/checkout')[0]
    t.equal(post?.method, 'POST')
    t.match(post?.headers.nonce, /^[\w-]{10,}$/, 'the checkout carried the Store API nonce')
    t.match(JSON.parse(post?.body ?? '{}'), {
      billing_address: { ...GUEST, company: '', address_2: '' },
      shipping_address: { first_name: 'Grace', last_name: 'Hopper', address_1: '1 Compiler Street', city: 'San Francisco', state: 'CA', postcode: '94103', country: 'US' },
      customer_note: 'Ring twice <please>',
      payment_method: 'cod',
      payment_data: []
    }, 'in WooCommerce\'s body')

    const url = new URL(page.url())
    const id = Number(/order-received\/(\d+)\//.exec(url.pathname)?.[1])
    const key = url.searchParams.get('key') ?? ''
    t.match(await page.textContent('h1'), 'Order received')
    t.match(await page.textContent('.order-number'), String(id))
    t.match(await page.textContent('.order-payment-method'), 'Cash on delivery')
    t.match(await page.textContent('.customer-note'), 'Ring twice <please>')
    const read = await page.request.get(`${shop.url}/wp-json/wc/store/v1/order/${id}?key=${encodeURIComponent(key)}&billing_email=${encodeURIComponent(GUEST.email!)}`)
    t.equal(read.status(), 200, 'the guest reads the order back with its key and e-mail')
    const order = await read.json()
    t.equal(order.totals.total_price, cart.totals.total_price, 'the order has the cart\'s total')
    t.equal((await storage.getOrder(id))?.totals.totalPrice, Number(cart.totals.total_price))
    t.equal((await storage.getProduct(107))!.stockQuantity, stockBefore - 1, 'the order took its stock')
    t.match(await page.textContent('.order-total'), `$${(Number(cart.totals.total_price) / 100).toFixed(2)}`)

    await page.goto(`${shop.url}/cart/`)
    await page.waitForSelector('#storefront-cart[data-ready="true"]', { state: 'attached' })
    t.equal(await page.textContent('.cart-empty'), 'Your cart is currently empty.', 'the cart was emptied with the order')
    await screenshot(page, 'checkout-guest-empty-cart')
    t.same(errors, [])
  })

  await t.test('(b) the logged-in shopper: e-mail prefilled, bank transfer, the order under My orders', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await page.getByLabel('E-mail').fill(SHOPPER.email)
    await page.getByLabel('Password').fill(SHOPPER.password)
    await Promise.all([page.waitForEvent('load'), page.getByLabel('Password').press('Enter')])
    t.equal(await page.getByRole('link', { name: 'My orders' }).count(), 1, 'the header links the shopper\'s orders')
    await toCheckoutThroughDrawer(page, shop.url, [102])
    t.equal(await page.inputValue('#billing_email'), SHOPPER.email, 'the shopper\'s e-mail is filled in')
    const cart = await storeCart(page)
    await fillBilling(page, { ...GUEST, first_name: 'Sam', last_name: 'Shopper', email: SHOPPER.email })
    // A different shipping address.
    await page.check('#ship-to-different-address')
    t.equal(await page.isVisible('#shipping_first_name'), true, 'the shipping fields are shown')
    await page.fill('#shipping_first_name', 'Sam')
    await page.fill('#shipping_last_name', 'Shopper')
    await page.selectOption('#shipping_country', 'CA')
    await page.fill('#shipping_address_1', '2 Maple Road')
    await page.fill('#shipping_city', 'Toronto')
    await page.fill('#shipping_state', 'ON')
    await page.fill('#shipping_postcode', 'M5V 2T6')
    await page.check('#payment_method_bacs')
    await screenshot(page, 'checkout-form')
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\//), page.click('#place-order')])
    const id = Number(/order-received\/(\d+)\//.exec(page.url())?.[1])
    t.match(await page.textContent('.payment-instructions'), 'Please transfer the order total', 'a bank transfer shows its instructions')
    t.match(await page.textContent('.order-addresses'), 'Toronto')
    const stored = await storage.getOrder(id)
    t.equal(stored?.totals.totalPrice, Number(cart.totals.total_price), 'the order has the cart\'s total')
    t.equal(stored?.customerId, (await storage.getUserByEmail(SHOPPER.email))?.id, 'and belongs to the shopper')
    t.match(stored?.shipping, { city: 'Toronto', country: 'CA' })
    await screenshot(page, 'checkout-order-received')

    await Promise.all([page.waitForURL(/\/account\/orders\/$/), page.getByRole('link', { name: 'My orders' }).click()])
    t.match(await page.textContent(`tr[data-order-id="${id}"]`), 'On hold', 'the order is listed under My orders')
    await Promise.all([page.waitForURL(/order-received/), page.click(`tr[data-order-id="${id}"] a`)])
    t.match(await page.textContent('.order-number'), String(id), 'and opens its page')
    t.same(errors, [])
  })

  await t.test('(c) a refused checkout shows the error and changes neither cart, stock nor coupons', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await addFromShop(page, 108)
    // The cart page: a quantity, a coupon.
    await page.goto(`${shop.url}/cart/`)
    await page.waitForSelector('#storefront-cart[data-ready="true"]', { state: 'attached' })
    await page.getByLabel('Quantity of Long Sleeve Tee').fill('2')
    await page.getByLabel('Quantity of Long Sleeve Tee').press('Enter')
    await page.waitForFunction(() => document.querySelector('.product-subtotal')?.textContent === '$50.00')
    await page.getByLabel('Coupon code').fill('fiver')
    await page.getByRole('button', { name: 'Apply coupon' }).click()
    await page.waitForSelector('.applied-coupons')
    t.match(await page.textContent('.cart-totals .discount'), '-$5.00')
    const before = await storeCart(page)
    const stock = (await storage.getProduct(108))!.stockQuantity
    const uses = (await storage.getCoupon('fiver'))!.usageCount

    await Promise.all([page.waitForURL(/\/checkout\/$/), page.click('a.checkout-button')])
    await page.waitForSelector('#storefront-checkout[data-ready="true"]', { state: 'attached' })
    await fillBilling(page, { ...GUEST, email: 'not-an-email' })
    await page.click('#place-order')
    await page.waitForSelector('#checkout-error:not(:empty)')
    t.match(await page.textContent('#checkout-error'), /email address is not valid/i, 'the error is shown')
    t.equal(await page.getAttribute('#billing_email', 'aria-invalid'), 'true', 'the e-mail field is marked')
    for (const other of ['first_name', 'last_name', 'address_1', 'city', 'postcode', 'country']) {
      t.equal(await page.getAttribute(`#billing_${other}`, 'aria-invalid'), null, `${other} is not marked`)
    }
    t.equal(await page.evaluate('document.activeElement.id'), 'billing_email', 'the keyboard is taken to the field')
    t.equal(await page.inputValue('#billing_first_name'), 'Grace', 'what was typed stays')
    t.equal(await page.inputValue('#billing_email'), 'not-an-email')
    t.match(page.url(), /\/checkout\/$/)
    await screenshot(page, 'checkout-error')
    t.same((await axeViolations(page)), [], 'axe-core: nothing on the checkout page with its error')

    // Sold out by another shopper between the form and the order.
    await page.fill('#billing_email', 'grace@example.test')
    const product = (await storage.getProduct(108))!
    await storage.upsertProducts([{ ...product, stockQuantity: 1 }])
    await page.click('#place-order')
    await page.waitForFunction(() => document.querySelector('#checkout-error')?.textContent?.includes('stock') === true)
    t.match(await page.textContent('#checkout-error'), /Long Sleeve Tee/, 'the out-of-stock refusal is shown')
    t.equal(await page.getAttribute('#billing_email', 'aria-invalid'), null, 'the earlier mark is gone')
    t.match(page.url(), /\/checkout\/$/)
    await storage.upsertProducts([{ ...product, stockQuantity: stock }])

    const after = await storeCart(page)
    t.same(after.items.map((item: any) => [item.id, item.quantity]), before.items.map((item: any) => [item.id, item.quantity]), 'the cart is unchanged')
    t.same(after.coupons.map((coupon: any) => coupon.code), ['fiver'], 'the coupon is still applied')
    t.equal((await storage.getProduct(108))!.stockQuantity, stock, 'the stock is unchanged')
    t.equal((await storage.getCoupon('fiver'))!.usageCount, uses, 'the coupon\'s uses are unchanged')
    t.equal((await storage.listOrders({})).total, 2, 'no order was made')

    // The script renders the cart as the server does, character for character: the server's page read without
    // JavaScript (same cookies) against the page after the script's first render.
    const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
    t.teardown(() => plain.close())
    const serverPage = await plain.newPage()
    await serverPage.goto(`${shop.url}/cart/`)
    const serverHtml = await serverPage.innerHTML('#cart-body')
    await page.goto(`${shop.url}/cart/`)
    await page.waitForSelector('#storefront-cart[data-ready="true"]', { state: 'attached' })
    t.match(serverHtml, 'Long Sleeve Tee')
    t.equal(await page.innerHTML('#cart-body'), serverHtml, 'the script renders the cart as the server does')
    await page.getByRole('button', { name: 'Remove coupon fiver' }).click()
    await page.waitForSelector('.applied-coupons', { state: 'detached' })
    await page.getByRole('button', { name: 'Remove Long Sleeve Tee from the cart' }).click()
    await page.waitForSelector('.cart-empty')
    t.equal((await storeCart(page)).items.length, 0, 'removed through the Store API')
    t.same(errors, [])
  })

  await t.test('(d) axe-core finds nothing on the cart and checkout pages', async (t) => {
    const { context, page, errors } = await newPage(browser)
    t.teardown(() => context.close())
    await openShop(page, shop.url)
    await page.goto(`${shop.url}/cart/`)
    await page.waitForSelector('#storefront-cart[data-ready="true"]', { state: 'attached' })
    t.same(await axeViolations(page), [], 'the empty cart')
    await openShop(page, shop.url)
    await addFromShop(page, 101)
    await page.goto(`${shop.url}/product/hoodie/`)
    await page.selectOption('#attribute-pa_color', 'blue')
    await page.selectOption('#attribute-pa_size', 'large')
    const added = page.waitForResponse((r) => r.url().includes('wc-ajax=add_to_cart'))
    await page.click('form.cart button[type="submit"]')
    await added
    await page.goto(`${shop.url}/cart/`)
    await page.waitForSelector('#storefront-cart[data-ready="true"]', { state: 'attached' })
    await page.getByLabel('Coupon code').fill('save10')
    await page.getByRole('button', { name: 'Apply coupon' }).click()
    await page.waitForSelector('.applied-coupons')
    t.same(await axeViolations(page), [], 'the cart with two lines, one a variation, and a coupon')
    await screenshot(page, 'cart-page')
    await page.goto(`${shop.url}/checkout/`)
    await page.waitForSelector('#storefront-checkout[data-ready="true"]', { state: 'attached' })
    await page.check('#ship-to-different-address')
    t.same(await axeViolations(page), [], 'the checkout form, shipping fields shown')
    await page.setViewportSize({ width: 390, height: 844 })
    t.same(await axeViolations(page), [], 'and at a phone\'s width')
    t.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'nothing scrolls sideways on a phone')
    t.same(errors, [])
  })
})
