import { join } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { currencyBlock } from '../../../kernel/domain/money.ts'
import { restError } from '../../../kernel/errors/index.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { SettingsSchema } from '../../schemas/settings.ts'
import { bundleLoader, describeBundle, packageRoot, sendStaticAsset, type ClientBundle } from '../../../kernel/lib/index.ts'
import { PUBLIC_SECURITY, SESSION_SECURITY } from '../openapi/index.ts'
import type { Edition } from '../security/index.ts'
import type { Login, StorefrontContext, StorefrontLink } from '../../port/index.ts'
import { checkDrawerUrls, drawerUrls, type DrawerUrls } from '../drawer-assets/index.ts'
import { ADMIN_BUNDLE_FILE, bundleAdmin } from './bundle.ts'
import type { AdminPageConfig, AdminScreen } from '../../schemas/admin-page-config.ts'
import { ADMIN_CATALOG_PATH, adminLocale, compileAdminCatalogs, pageWords, type PageWords } from './i18n.ts'
import {
  analyticsMain, loginMain, previewMain, refusedMain, renderAdminPage, settingsMain, type AdminAssets
} from './pages.ts'
import { ADMIN_CSS } from './styles.ts'

export interface AdminScreensOptions {
  edition: Edition
  /** The cart and checkout pages (the live preview's links) and the login form's address; default the shop's. */
  urls?: DrawerUrls
  /** The built admin script (default `dist/client/svc-admin.js` of the package, written by `npm run build:client`). */
  bundlePath?: string
}

/** Where the admin screens live. */
export const ADMIN_BASE = '/admin/cart-drawer/'
export const ADMIN_PATHS = {
  settings: ADMIN_BASE,
  analytics: `${ADMIN_BASE}analytics`,
  preview: `${ADMIN_BASE}preview`
} as const
export const ADMIN_SCRIPT_PATH = '/assets/svc-admin.js'
export const ADMIN_STYLE_PATH = '/assets/svc-admin.css'

/** The settings document's JSON schema as plain JSON (TypeBox's symbol keys dropped). */
const SETTINGS_JSON_SCHEMA = JSON.parse(JSON.stringify(SettingsSchema)) as Record<string, unknown>

const PAGE_TITLES = {
  settings: 'page.settingsTitle',
  analytics: 'page.analyticsTitle',
  preview: 'page.previewTitle'
} as const
const PAGE_MAINS: Record<'settings' | 'analytics' | 'preview', (words: PageWords) => string> = {
  settings: settingsMain,
  analytics: analyticsMain,
  preview: previewMain
}
/** `?lang=`: a BCP 47 language tag (`de`, `fr-CA`); a language the screens do not speak falls back to the shop's. */
const PageQuery = Type.Object({
  lang: Type.Optional(Type.String({
    maxLength: 35,
    pattern: '^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
    description: 'The screens\' language for this manager (`en`, `de`, `fr`, `es`, `ar`, `ja`; `de-AT` is German); any other, or none, is the shop\'s `language.locale`.'
  }))
})

/**
 * The admin screens: the settings editor (every setting, a live preview of the drawer, save, reset, export, import),
 * and in Pro the add-on, bundle and spotlight editors and the analytics dashboard. Pages are for users with
 * `manage_shop`: a guest gets the login form (401), a logged-in user without the capability a refusal (403). The
 * pages hold no data but their configuration and the REST nonce; the script reads and writes the settings through
 * the `svc/v1` admin routes.
 */
export const adminScreensPlugin = fp<AdminScreensOptions>(async (fastify, options) => {
  const { commerce: shop, settings } = fastify
  const pro = options.edition === 'pro'
  checkDrawerUrls(options.urls)
  const style = describeBundle(Buffer.from(ADMIN_CSS))
  const catalogs = compileAdminCatalogs()
  const script = bundleLoader(options.bundlePath ?? join(packageRoot(), ADMIN_BUNDLE_FILE), () => bundleAdmin(), () => {
    fastify.log.warn('the admin script is not built (npm run build:client): bundling it in memory')
  })

  async function assets (): Promise<AdminAssets> {
    return { script: `${ADMIN_SCRIPT_PATH}?v=${(await script()).hash}`, style: `${ADMIN_STYLE_PATH}?v=${style.hash}` }
  }

  /** A page's configuration; `lang` is the manager's `?lang=` (kept in the screens' links), `words` the page's language. */
  function config (screen: AdminScreen, nonce: string | null, words: PageWords, lang: string | null): AdminPageConfig {
    const keep = (url: string) => lang === null ? url : `${url}?lang=${lang}`
    const urls = drawerUrls(shop, options.urls)
    return {
      screen,
      edition: options.edition,
      restRoot: shop.restRoot,
      nonce,
      nonceUrl: shop.urls.restNonce,
      loginUrl: urls.login,
      logoutUrl: shop.urls.logout,
      schema: screen === 'settings' ? SETTINGS_JSON_SCHEMA : null,
      urls: { settings: keep(ADMIN_PATHS.settings), analytics: pro ? keep(ADMIN_PATHS.analytics) : null, preview: keep(ADMIN_PATHS.preview), storefront: `${shop.homeUrl}/` },
      checkoutUrl: urls.checkout,
      cartUrl: urls.cart,
      currency: currencyBlock(shop.currency),
      i18n: {
        locale: words.locale,
        catalog: catalogs.files.has(`${words.locale}.json`) ? `${ADMIN_CATALOG_PATH}${words.locale}.json?v=${catalogs.hash}` : null
      }
    }
  }

  /**
   * An admin page for a shop manager; the login form (401) for a guest; a refusal (403) for anyone else. Never
   * cached, never framed by another site.
   */
  async function page (request: FastifyRequest<{ Querystring: { lang?: string } }>, reply: FastifyReply, screen: 'settings' | 'analytics' | 'preview'): Promise<string> {
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store, private')
      .header('X-Frame-Options', 'SAMEORIGIN')
      .header('Referrer-Policy', 'same-origin')
    const authenticated: Login | null = await shop.login(request)
    const files = await assets()
    const shopLocale = (await settings.get()).settings.language.locale
    const { locale, requested } = adminLocale(request.query.lang, shopLocale)
    const words = pageWords(catalogs, locale)
    if (authenticated === null) {
      reply.code(401)
      return renderAdminPage({ title: words.html('page.loginTitle'), config: config('login', null, words, requested), assets: files, userName: null, main: loginMain(words), words })
    }
    const userName = authenticated.user.displayName
    if (!shop.canManageShop(authenticated.user)) {
      reply.code(403)
      return renderAdminPage({
        title: words.html('page.refusedTitle'), config: config('refused', null, words, requested), assets: files, userName, main: refusedMain(userName, words), words
      })
    }
    return renderAdminPage({
      title: words.html(PAGE_TITLES[screen]),
      config: config(screen, shop.restNonce(authenticated), words, requested),
      assets: files,
      userName,
      main: PAGE_MAINS[screen](words),
      words,
      // The preview's frame stands for a page of the shop: the shop's language and direction, whatever the manager's.
      document: screen === 'preview' ? { lang: shopLocale, dir: pageWords(catalogs, adminLocale(undefined, shopLocale).locale).dir } : undefined,
      bodyClass: screen === 'preview' ? 'svc-preview-frame' : undefined
    })
  }

  const pageSchema = (operationId: string, summary: string) => ({
    tags: ['admin'],
    operationId,
    summary,
    description: 'HTML for a user with `manage_shop`; the login form (401) for a guest; a refusal (403) without the capability.',
    querystring: PageQuery,
    security: SESSION_SECURITY,
    produces: ['text/html'],
    response: {
      200: { description: 'The page (`text/html`).', type: 'string' },
      401: { description: 'The login form (`text/html`): no one is logged in.', type: 'string' },
      403: { description: 'A refusal (`text/html`): the user lacks `manage_shop`.', type: 'string' }
    }
  })

  fastify.get<{ Querystring: { lang?: string } }>(ADMIN_PATHS.settings, { schema: pageSchema('getAdminSettingsPage', 'The settings screen (HTML)') },
    (request, reply) => page(request, reply, 'settings'))
  fastify.get(ADMIN_BASE.slice(0, -1), {
    schema: {
      tags: ['admin'],
      operationId: 'redirectToAdminSettings',
      summary: 'To the settings screen',
      security: PUBLIC_SECURITY,
      response: { 302: { description: 'Redirect to `/admin/cart-drawer/` (with the same query, `?lang=`).', type: 'null' } }
    }
  }, (request, reply) => {
    const query = request.url.indexOf('?')
    return reply.redirect(ADMIN_BASE + (query === -1 ? '' : request.url.slice(query)))
  })
  fastify.get<{ Querystring: { lang?: string } }>(ADMIN_PATHS.preview, { schema: pageSchema('getAdminPreviewPage', 'The settings screen\'s live preview frame (HTML)') },
    (request, reply) => page(request, reply, 'preview'))
  if (pro) {
    fastify.get<{ Querystring: { lang?: string } }>(ADMIN_PATHS.analytics, { schema: pageSchema('getAdminAnalyticsPage', 'The analytics dashboard (HTML, Pro)') },
      (request, reply) => page(request, reply, 'analytics'))
  }

  // The storefront's header links the settings screen for a shop manager.
  const removeLink = shop.filters.add('storefront_header_links', (links: StorefrontLink[], context: StorefrontContext) =>
    context.user !== null && shop.canManageShop(context.user) ? [...links, { href: ADMIN_PATHS.settings, label: 'Cart drawer settings' }] : links)
  fastify.addHook('onClose', async () => { removeLink() })

  const assetQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'The content hash.' })) })
  const assetSchema = (operationId: string, summary: string, file: string, errors: Record<number, unknown> = {}) => ({
    tags: ['admin'],
    operationId,
    summary,
    querystring: assetQuery,
    security: PUBLIC_SECURITY,
    response: {
      200: { description: file, type: 'string' },
      304: { description: 'Not modified (`If-None-Match` names the current ETag).', type: 'null' },
      400: ErrorBody,
      ...errors
    }
  })
  fastify.get<{ Querystring: { v?: string } }>(ADMIN_SCRIPT_PATH, {
    schema: assetSchema('getAdminScript', 'The admin screens\' script', 'The script (`text/javascript`).', {
      404: { ...ErrorBody, 'x-response-description': 'The script cannot be built (`svc_not_found`).' }
    })
  }, async (request, reply) => {
    let file: ClientBundle
    try {
      file = await script()
    } catch (error) {
      request.log.error({ err: error }, 'the admin script cannot be built')
      throw restError('svc_not_found', 'The admin script is not available.')
    }
    return sendStaticAsset(request, reply, file, 'text/javascript; charset=utf-8')
  })

  fastify.get<{ Params: { file: string }, Querystring: { v?: string } }>(`${ADMIN_CATALOG_PATH}:file`, {
    schema: {
      tags: ['admin'],
      operationId: 'getAdminCatalog',
      summary: 'The admin screens\' words in one language',
      description: 'The admin catalog of one supported locale other than English (`de.json`, `fr.json`, `es.json`, `ar.json`, `ja.json`): its ICU messages compiled to the JSON the admin script formats. Fetched by the admin pages in that language; gzipped when accepted, with an ETag, cached for a year under the hashed URL (`?v=<hash>`).',
      params: Type.Object({ file: Type.String({ pattern: '^[a-z]{2}\\.json$', description: '`<locale>.json`' }) }),
      querystring: assetQuery,
      security: PUBLIC_SECURITY,
      response: {
        200: { description: 'The compiled catalog (`application/json`).', type: 'object', additionalProperties: true },
        304: { description: 'Not modified (`If-None-Match` names the current ETag).', type: 'null' },
        400: ErrorBody,
        404: { ...ErrorBody, 'x-response-description': 'Not a supported locale (`svc_not_found`).' }
      }
    }
  }, async (request, reply) => {
    const file = catalogs.files.get(request.params.file)
    if (file === undefined) throw restError('svc_not_found', 'There is no admin catalog for this locale.')
    return sendStaticAsset(request, reply, file, 'application/json; charset=utf-8')
  })

  fastify.get<{ Querystring: { v?: string } }>(ADMIN_STYLE_PATH, {
    schema: assetSchema('getAdminStylesheet', 'The admin screens\' stylesheet', 'The stylesheet (`text/css`).')
  }, async (request, reply) => sendStaticAsset(request, reply, style, 'text/css; charset=utf-8'))
}, { name: 'svc-admin-screens', fastify: '5.x', dependencies: ['commerce', 'settings'] })

export { ADMIN_CONFIG_ID, type AdminPageConfig, type AdminScreen } from '../../schemas/admin-page-config.ts'
export { ADMIN_BUNDLE_FILE, bundleAdmin } from './bundle.ts'
export { ADMIN_CATALOG_PATH } from './i18n.ts'
