import { test, type Test } from 'tap'
import { cartDrawer, type CartDrawerOptions } from '../../../../drawer/plugins/cart-drawer/index.ts'
import { checkDrawerUrls, type DrawerUrls } from '../../../../drawer/plugins/drawer-assets/index.ts'
import { buildPlatform, TEST_SECRET, type PlatformHost } from '../../../helper.ts'

/**
 * The `urls` option of `cartDrawer`: the cart, checkout and login addresses reach the storefront page's drawer
 * configuration and the admin screens' configuration; left out, each is the shop's own, as before the option.
 */

const DRAWER_CONFIG = /<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/s
const ADMIN_CONFIG = /<script type="application\/json" id="svc-admin-config">(.*?)<\/script>/s

async function hostWith (t: Test, urls?: CartDrawerOptions['urls']): Promise<PlatformHost> {
  const host = await buildPlatform(t)
  await host.app.register(cartDrawer, {
    commerce: host.app.shop.commerce,
    stores: { settings: host.storage, analytics: host.storage },
    secrets: [TEST_SECRET],
    rateCounter: host.rateCounter,
    ...(urls === undefined ? {} : { urls })
  })
  await host.app.ready()
  return host
}

async function pageConfigs (host: PlatformHost): Promise<{ drawer: Record<string, unknown>, admin: Record<string, unknown> }> {
  const page = await host.app.inject({ url: '/' })
  const admin = await host.app.inject({ url: '/admin/cart-drawer/' })
  return {
    drawer: JSON.parse(DRAWER_CONFIG.exec(page.body)?.[1] ?? 'null'),
    admin: JSON.parse(ADMIN_CONFIG.exec(admin.body)?.[1] ?? 'null')
  }
}

test('without the option, the drawer uses the shop\'s cart page, checkout and login', async (t) => {
  const host = await hostWith(t)
  const { homeUrl, urls } = host.app.shop.commerce
  const { drawer, admin } = await pageConfigs(host)
  t.equal(drawer.cartUrl, `${homeUrl}/cart/`, 'the cart page below the home URL')
  t.equal(drawer.checkoutUrl, urls.checkout, 'the port\'s checkout')
  t.equal(admin.cartUrl, drawer.cartUrl, 'the admin preview links the same cart page')
  t.equal(admin.checkoutUrl, urls.checkout)
  t.equal(admin.loginUrl, urls.login, 'the login form posts to the port\'s login')
})

test('the urls option reaches the storefront page and the admin screens', async (t) => {
  const given = { cart: '/basket/', checkout: 'https://pay.example/checkout?shop=1', login: '/sign-in/' }
  const host = await hostWith(t, given)
  const { drawer, admin } = await pageConfigs(host)
  t.equal(drawer.cartUrl, given.cart)
  t.equal(drawer.checkoutUrl, given.checkout)
  t.equal(admin.cartUrl, given.cart)
  t.equal(admin.checkoutUrl, given.checkout)
  t.equal(admin.loginUrl, given.login)
})

test('each address is optional: the others stay the shop\'s', async (t) => {
  const host = await hostWith(t, { cart: '/basket/' })
  const { drawer, admin } = await pageConfigs(host)
  t.equal(drawer.cartUrl, '/basket/')
  t.equal(drawer.checkoutUrl, host.app.shop.commerce.urls.checkout)
  t.equal(admin.loginUrl, host.app.shop.commerce.urls.login)
})

test('an address that is not an http(s) URL or a path of the site is refused when the drawer is registered', async (t) => {
  await t.rejects(hostWith(t, { checkout: 'javascript:alert(1)' }), /urls\.checkout must be an http\(s\) URL or a path of the site/)
  for (const urls of [{ cart: '//elsewhere.example/cart/' }, { login: 'login' }, { cart: '/a b/' }, { checkout: 'https://pay.example/a\\b' }]) {
    t.throws(() => { checkDrawerUrls(urls) }, /must be an http\(s\) URL or a path of the site/, JSON.stringify(urls))
  }
  t.throws(() => { checkDrawerUrls({ basket: '/basket/' } as DrawerUrls) }, /urls\.basket is not an option/)
  t.doesNotThrow(() => { checkDrawerUrls({ cart: '/cart/?from=drawer', checkout: 'http://127.0.0.1:3000/checkout/', login: undefined }) })
})
