import { test } from 'tap'
import { expectError } from '../../../helpers/security.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'
import { adminRequest, buildFreeApp, currentSettings, errorData, Shopper } from './helpers.ts'

/**
 * The settings' `behaviour` section and the launcher's look: defaults that keep the drawer as it
 * was, good values saved, bad ones refused with every problem listed and nothing saved (a link that is neither http(s)
 * nor a path of the site, an unknown device class, too many paths, a circle with a total…), and the values reaching
 * the storefront page and the Store API cart.
 */

const PAGE_CONFIG = /<script type="application\/json" id="svc-drawer-config">(.*?)<\/script>/s

test('settings: behaviour and the launcher\'s look', async (t) => {
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const free = await buildFreeApp(t, storage)
  const save = (settings: unknown) => adminRequest(free, 'POST', 'settings', { settings })

  t.test('the defaults keep the drawer as it was, with undo for five seconds', async (t) => {
    const { settings } = await currentSettings(free)
    t.strictSame(settings.behaviour, {
      open_on_add: true,
      undo_seconds: 5,
      clear_cart: false,
      checkout_url: '',
      cart_link: false,
      cart_url: '',
      empty_state: { recommendations: true, continue_shopping: false, continue_url: '' }
    })
    t.strictSame(settings.launcher, {
      enabled: true,
      position: 'bottom-right',
      show_count: true,
      show_total: false,
      hide_on_paths: [],
      hide_on_devices: [],
      icon: 'bag',
      shape: 'pill',
      size: 44
    })
  })

  t.test('good values are saved: http(s) addresses, paths of the site, path patterns, device classes', async (t) => {
    const response = await save({
      behaviour: {
        open_on_add: false,
        undo_seconds: 30,
        clear_cart: true,
        checkout_url: 'https://pay.example/checkout?shop=demo#top',
        cart_link: true,
        cart_url: '/basket/',
        empty_state: { recommendations: false, continue_shopping: true, continue_url: 'http://shop.example/new/' }
      },
      launcher: { hide_on_paths: ['/account/*', '/about/', '/*'], hide_on_devices: ['desktop', 'mobile'], icon: 'basket', shape: 'circle', size: 96 }
    })
    t.equal(response.statusCode, 200)
    const { behaviour, launcher } = response.json().settings
    t.match(behaviour, { open_on_add: false, undo_seconds: 30, checkout_url: 'https://pay.example/checkout?shop=demo#top', cart_url: '/basket/' })
    t.match(launcher, { hide_on_paths: ['/account/*', '/about/', '/*'], hide_on_devices: ['desktop', 'mobile'], icon: 'basket', shape: 'circle', size: 96 })
  })

  t.test('bad values: every problem listed at once, nothing saved', async (t) => {
    const before = await currentSettings(free)
    const tooMany = Array.from({ length: 21 }, (_, index) => `/page-${index}/`)
    tooMany[3] = 'page-3'
    const response = await save({
      behaviour: {
        open_on_add: 'yes',
        undo_seconds: 31,
        checkout_url: 'javascript:alert(1)',
        cart_url: '//evil.example/cart/',
        autoplay: true,
        empty_state: { continue_url: 'ftp://files.example/' }
      },
      launcher: { hide_on_paths: tooMany, hide_on_devices: ['mobile', 'phone'], icon: 'star', shape: 'circle', show_total: true, size: 20 }
    })
    expectError(t, response, 400, 'svc_invalid_params', 'refused')
    const params = errorData(response).params as Record<string, string>
    t.same(Object.keys(params).sort(), [
      'behaviour.autoplay',
      'behaviour.cart_url',
      'behaviour.checkout_url',
      'behaviour.empty_state.continue_url',
      'behaviour.open_on_add',
      'behaviour.undo_seconds',
      'launcher.hide_on_devices.1',
      'launcher.hide_on_paths',
      'launcher.hide_on_paths.3',
      'launcher.icon',
      'launcher.shape',
      'launcher.size'
    ], 'one entry per problem')
    t.match(params, {
      'behaviour.autoplay': /not a known setting/,
      'behaviour.cart_url': /http\(s\) address or a path on this site/,
      'behaviour.checkout_url': /http\(s\) address or a path on this site/,
      'behaviour.empty_state.continue_url': /http\(s\) address or a path on this site/,
      'behaviour.open_on_add': /boolean/,
      'behaviour.undo_seconds': /at most 30/,
      'launcher.hide_on_devices.1': /mobile, tablet, desktop/,
      'launcher.hide_on_paths': /at most 20 items/,
      'launcher.hide_on_paths.3': /"page-3" must be a path starting with \//,
      'launcher.icon': /bag, cart, basket/,
      'launcher.shape': /circle has room for the icon and the count only/,
      'launcher.size': /at least 44/
    })
    t.strictSame(await currentSettings(free), before, 'nothing was stored')

    for (const link of ['/\\evil.example/', 'https://', 'mailto:shop@example.com', 'checkout', ' /cart/', 'HTTPS://pay.example/']) {
      const refused = await save({ behaviour: { checkout_url: link } })
      t.equal(refused.statusCode, 400, `refused: ${JSON.stringify(link)}`)
      t.same(Object.keys(errorData(refused).params as object), ['behaviour.checkout_url'])
    }
    for (const path of ['/a*b', '/search?q=x', '/x#y', '/a b']) {
      const refused = await save({ launcher: { hide_on_paths: [path] } })
      t.same(Object.keys(errorData(refused).params as object), ['launcher.hide_on_paths.0'], `refused: ${path}`)
    }
  })

  t.test('the storefront page and the Store API cart carry them', async (t) => {
    const page = await free.app.inject({ url: '/' })
    const config = JSON.parse(PAGE_CONFIG.exec(page.body)?.[1] ?? 'null')
    t.match(config.behaviour, { open_on_add: false, undo_seconds: 30, clear_cart: true, cart_url: '/basket/' }, 'the behaviour section as saved')
    t.match(config.launcher, { hide_on_paths: ['/account/*', '/about/', '/*'], shape: 'circle', size: 96 })
    t.equal(config.checkoutUrl, `${free.app.commerce.homeUrl}/checkout/`, 'the platform\'s checkout (the drawer prefers checkout_url)')
    t.equal(config.cartUrl, `${free.app.commerce.homeUrl}/cart/`, 'the platform\'s cart page')
    t.equal(config.shopUrl, `${free.app.commerce.homeUrl}/`, 'the shop\'s home page')

    const shopper = await Shopper.guest(free.app)
    await shopper.add(101)
    const svc = (await shopper.storeCart()).cart.extensions.svc
    t.match(svc.launcher, { hide_on_devices: ['desktop', 'mobile'], icon: 'basket', shape: 'circle', size: 96 }, 'extensions.svc.launcher')
    t.notOk('behaviour' in svc, 'the behaviour section is the page\'s, not the cart\'s')
  })
})
