import { test } from 'tap'
import { ADMIN_CONFIG_ID, type AdminPageConfig } from '../../../../drawer/plugins/admin-screens/index.ts'
import { hashPassword } from '../../../../hosts/reference-shop/index.ts'
import { seedDemoUsers } from '../../../../seed/seed.ts'
import { buildTestApp, TEST_PASSWORD_HASHING } from '../../../helpers/app.ts'
import { login, USERS } from '../../../helpers/security.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

/** The admin pages: for shop managers only, no inline script, the page's data as escaped JSON. */

const SETTINGS_PAGE = '/admin/cart-drawer/'

function pageConfig (html: string): AdminPageConfig {
  const match = new RegExp(`<script type="application/json" id="${ADMIN_CONFIG_ID}">([^<]*)</script>`).exec(html)
  if (match === null) throw new Error('no admin configuration in the page')
  return JSON.parse(match[1]!) as AdminPageConfig
}

/** Every `<script>` either loads a file or is a JSON data block; no `on…=` handler and no `style=` attribute. */
function inlineCode (html: string): string[] {
  const found: string[] = []
  for (const [, tag = '', body = ''] of Array.from(html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g))) {
    if (/type="application\/json"/.test(tag)) continue
    if (!/\bsrc="/.test(tag) || body.trim() !== '') found.push(`<script${tag}>`)
  }
  for (const match of html.matchAll(/<[^>]+\s(on[a-z]+|style)\s*=/gi)) found.push(match[0])
  return found
}

test('admin pages', async (t) => {
  // One database for both editions: building the apps is most of this file's time.
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)

  for (const edition of ['free', 'pro'] as const) {
    await t.test(edition, async (t) => {
      const app = await buildTestApp(t, storage, { edition })
      const admin = await login(app, USERS.admin)
      const shopper = await login(app, USERS.shopper)

      t.test('a guest gets the login form, with no data of the shop', async (t) => {
        for (const url of [SETTINGS_PAGE, '/admin/cart-drawer/preview']) {
          const response = await app.inject({ url })
          t.equal(response.statusCode, 401, url)
          t.match(response.headers['content-type'], /^text\/html/)
          t.match(response.body, /<form id="admin-login"/)
          const config = pageConfig(response.body)
          t.equal(config.screen, 'login')
          t.equal(config.nonce, null, 'no nonce for a guest')
          t.equal(config.schema, null)
        }
      })

      t.test('a shopper without manage_shop is refused', async (t) => {
        const response = await app.inject({ url: SETTINGS_PAGE, headers: { cookie: shopper.cookie } })
        t.equal(response.statusCode, 403)
        t.match(response.body, /may not manage the shop/)
        t.equal(pageConfig(response.body).nonce, null, 'no nonce for a refused user')
        t.equal(pageConfig(response.body).screen, 'refused')
        const preview = await app.inject({ url: '/admin/cart-drawer/preview', headers: { cookie: shopper.cookie } })
        t.equal(preview.statusCode, 403)
      })

      t.test('a shop manager gets the settings screen with its nonce and the settings schema', async (t) => {
        const response = await app.inject({ url: SETTINGS_PAGE, headers: { cookie: admin.cookie } })
        t.equal(response.statusCode, 200)
        t.equal(response.headers['cache-control'], 'no-store, private')
        t.equal(response.headers['x-frame-options'], 'SAMEORIGIN')
        t.match(response.headers['content-security-policy'], "script-src 'self'", 'the HTML pages\' policy: no inline script runs')
        t.match(response.headers['content-security-policy'], "frame-ancestors 'self'", 'the preview may be framed by the screen, by no other site')
        t.equal(response.headers['x-content-type-options'], 'nosniff')
        t.same(inlineCode(response.body), [], 'no inline script, handler or style attribute')
        const config = pageConfig(response.body)
        t.equal(config.screen, 'settings')
        t.equal(config.edition, edition)
        t.equal(config.restRoot, '/wp-json/')
        t.type(config.nonce, 'string')
        const nonceWorks = await app.inject({ url: '/wp-json/svc/v1/settings', headers: { cookie: admin.cookie, 'x-wp-nonce': config.nonce! } })
        t.equal(nonceWorks.statusCode, 200, 'the page\'s nonce opens the admin routes')
        const properties = (config.schema as { properties: Record<string, unknown> }).properties
        t.ok(properties.drawer_config && properties.launcher && properties.smart_addons, 'the schema of every section')
        t.equal(config.urls.analytics, edition === 'pro' ? '/admin/cart-drawer/analytics' : null)
        const script = /<script src="([^"]+)" defer><\/script>/.exec(response.body)?.[1]
        const style = /<link rel="stylesheet" href="([^"]+)">/.exec(response.body)?.[1]
        t.match(script, /^\/assets\/svc-admin\.js\?v=[\w-]{16}$/)
        t.match(style, /^\/assets\/svc-admin\.css\?v=[\w-]{16}$/)

        const js = await app.inject({ url: script! })
        t.equal(js.statusCode, 200)
        t.match(js.headers['content-type'], /^text\/javascript/)
        t.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable')
        t.ok(js.body.length > 1000)
        const again = await app.inject({ url: script!, headers: { 'if-none-match': String(js.headers.etag) } })
        t.equal(again.statusCode, 304)
        const css = await app.inject({ url: style!, headers: { 'accept-encoding': 'gzip' } })
        t.equal(css.statusCode, 200)
        t.match(css.headers['content-type'], /^text\/css/)
        t.equal(css.headers['content-encoding'], 'gzip')
      })

      t.test('the storefront\'s header links the settings screen for a manager', async (t) => {
        const storefront = await app.inject({ url: '/', headers: { cookie: admin.cookie } })
        t.match(storefront.body, /<nav class="site-links" aria-label="Site"><a href="\/admin\/cart-drawer\/">Cart drawer settings<\/a><\/nav>/)
        const guest = await app.inject({ url: '/' })
        t.notMatch(guest.body, '<nav class="site-links"', 'no links for a guest')
        // Links from other callbacks: only site paths and http(s), escaped.
        const remove = app.shop.filters.add('storefront_header_links', (links) => [
          ...links,
          { href: 'javascript:alert(1)', label: 'Run' },
          { href: '//evil.example/', label: 'Elsewhere' },
          { href: '/help/', label: '<b>Help</b>' }
        ])
        t.teardown(remove)
        const filtered = await app.inject({ url: '/', headers: { cookie: admin.cookie } })
        t.notMatch(filtered.body, 'javascript:')
        t.notMatch(filtered.body, 'evil.example')
        t.match(filtered.body, '<a href="/help/">&lt;b&gt;Help&lt;/b&gt;</a>')
      })

      t.test('the preview frame and the analytics page', async (t) => {
        const preview = await app.inject({ url: '/admin/cart-drawer/preview', headers: { cookie: admin.cookie } })
        t.equal(preview.statusCode, 200)
        t.equal(pageConfig(preview.body).screen, 'preview')
        t.same(inlineCode(preview.body), [])
        const analytics = await app.inject({ url: '/admin/cart-drawer/analytics', headers: { cookie: admin.cookie } })
        if (edition === 'pro') {
          t.equal(analytics.statusCode, 200)
          t.equal(pageConfig(analytics.body).screen, 'analytics')
          t.same(inlineCode(analytics.body), [])
        } else {
          t.equal(analytics.statusCode, 404, 'no analytics page in Free')
        }
        const bare = await app.inject({ url: '/admin/cart-drawer' })
        t.equal(bare.statusCode, 302)
        t.equal(bare.headers.location, SETTINGS_PAGE)
      })

      t.test('names are escaped in the page', async (t) => {
        const who = { email: `ada-${edition}@shop.test`, password: 'ada-password-1' }
        await storage.ensureUser({ email: who.email, displayName: '</script><b>Ada</b>', passwordHash: await hashPassword(who.password, TEST_PASSWORD_HASHING), capabilities: ['manage_shop'] })
        const hostile = await login(app, who)
        const response = await app.inject({ url: SETTINGS_PAGE, headers: { cookie: hostile.cookie } })
        t.notMatch(response.body, /<b>Ada<\/b>/)
        t.match(response.body, /&lt;\/script&gt;&lt;b&gt;Ada&lt;\/b&gt;/)
      })
    })
  }
})
