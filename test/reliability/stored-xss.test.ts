import type { Page } from 'playwright-core'
import { ADMIN, browserTest, launchBrowser, newPage, openShop, startShop } from '../browser/helpers.ts'

/**
 * Stored XSS: hostile strings saved where the shop shows them — settings (add-on label and description, bundle
 * title, spotlight text), a product name and a coupon (its code is its label) — never run in the storefront, the
 * drawer or the admin screens, and create no element. The pages' Content-Security-Policy would block inline
 * handlers anyway: the test checks the escaping itself (no element made from the payload) as well as the outcome.
 */

const payload = (tag: string) => `"'><img src=x data-xss="${tag}" onerror="window.__xss=(window.__xss||[]).concat('${tag}')"><script>window.__xss=['${tag}-script']</script></script><svg onload="window.__xss=['${tag}-svg']">\u2028<!--`
const always = { match: 'all', conditions: [] }

async function expectInert (t: Parameters<Parameters<typeof browserTest>[1]>[0], page: Page, errors: string[], where: string) {
  await page.waitForTimeout(200)
  t.equal(await page.evaluate('window.__xss === undefined'), true, `${where}: no payload ran`)
  t.equal(await page.evaluate('document.querySelectorAll("[data-xss], svg[onload], img[onerror]").length'), 0, `${where}: no element was made from a payload`)
  t.same(errors.filter((error) => /Content Security Policy|Refused to/.test(error)), [], `${where}: nothing for the Content-Security-Policy to block`)
}

browserTest('hostile strings in settings, product names and coupons never execute', async (t) => {
  const shop = await startShop(t, {
    edition: 'pro',
    settings: {
      smart_addons: { enabled: true, addons: [{ id: 'wrap', product_id: 116, label: payload('addon-label').slice(0, 100), description: payload('addon-text'), conditions: always }] },
      bundles: { enabled: true, bundles: [{ id: 'pair', title: payload('bundle').slice(0, 100), description: payload('bundle-text'), discount_percent: 10, slots: [{ label: payload('slot').slice(0, 100), product_ids: [101] }, { label: 'Belt', product_ids: [102] }] }] },
      spotlight: { enabled: true, product_id: 104, title: payload('spotlight').slice(0, 100), text: payload('spotlight-text'), conditions: always }
    }
  })
  const { storage } = shop.app.shop
  const beanie = (await storage.getProduct(101))!
  await storage.upsertProducts([{ ...beanie, name: payload('product'), shortDescription: payload('product-text') }])
  const code = payload('coupon').toLowerCase().replace(/\s+/g, '').slice(0, 150)
  await storage.upsertCoupons([{ code, discountType: 'percent', amount: 5, description: payload('coupon-text'), freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null }])

  const browser = await launchBrowser(t)
  const { page, errors } = await newPage(browser)
  await openShop(page, `${shop.url}/`)
  await expectInert(t, page, errors, 'the shop page')

  // Into the cart, with the hostile coupon applied to the browser's cart (its cookie session).
  const added = page.waitForResponse((response) => response.url().includes('wc-ajax=add_to_cart'))
  await page.click('button.add-to-cart[data-product-id="101"]')
  await added
  await page.waitForSelector('[data-svc="drawer"]:not([hidden])')
  const applied = await page.evaluate(async (couponCode) => {
    // The page's own script: the Store API nonce of a read goes with the cookie-session write.
    const read = await fetch('/wp-json/wc/store/v1/cart', { credentials: 'same-origin' })
    const response = await fetch('/wp-json/wc/store/v1/cart/apply-coupon', {
      method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', nonce: read.headers.get('Nonce') ?? '' }, body: JSON.stringify({ code: couponCode })
    })
    return response.status
  }, code)
  t.equal(applied, 200, 'the hostile coupon is applied')
  await expectInert(t, page, errors, 'the open drawer after an add')

  await openShop(page, `${shop.url}/`)
  await page.click('[data-svc="launcher"]')
  await page.waitForSelector('[data-svc="drawer"]:not([hidden])')
  await page.waitForSelector('[data-svc="drawer"][aria-busy="false"]', { state: 'attached' })
  const text = await page.textContent('[data-svc="drawer"]') ?? ''
  t.match(text, 'data-xss="product"', 'the product name is shown as text')
  t.match(text, 'data-xss="coupon"', 'the coupon is shown as text')
  await expectInert(t, page, errors, 'the drawer with the hostile product, coupon, add-on, bundle and spotlight')

  await page.goto(`${shop.url}/product/beanie/`)
  await expectInert(t, page, errors, 'the product page')

  // The admin screens, where every hostile setting is shown for editing.
  const hasAdmin = shop.app.hasRoute({ method: 'GET', url: '/admin/cart-drawer/' })
  t.ok(hasAdmin, 'the admin screens are part of the app')
  if (hasAdmin) {
    const admin = await newPage(browser)
    await admin.page.goto(`${shop.url}/`)
    const login = await admin.page.evaluate(async (who) => (await fetch('/account/login', {
      method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who)
    })).status, { email: ADMIN.email, password: ADMIN.password })
    t.equal(login, 200, 'the admin logs in')
    await admin.page.goto(`${shop.url}/admin/cart-drawer/`)
    await admin.page.waitForLoadState('networkidle')
    await expectInert(t, admin.page, admin.errors, 'the admin settings screen')
    const fields = await admin.page.$$eval('input, textarea', (inputs) => inputs.map((input) => (input as HTMLInputElement).value))
    t.ok(fields.some((value) => value.includes('data-xss=')), 'the hostile settings are shown as field values')
  }
})
