import { join } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { currencyBlock } from '../../domain/money.ts'
import { restError } from '../../errors/index.ts'
import { ErrorBody } from '../../schemas/error.ts'
import { SettingsSchema } from '../../schemas/settings.ts'
import { bundleLoader, describeBundle, packageRoot, sendStaticAsset, type ClientBundle } from '../../lib/index.ts'
import { PUBLIC_SECURITY, SESSION_SECURITY } from '../openapi/index.ts'
import type { Edition } from '../security/index.ts'
import type { Login, StorefrontContext, StorefrontLink } from '../cart-drawer/index.ts'
import { platformCartUrl } from '../drawer-assets/index.ts'
import { ADMIN_BUNDLE_FILE, bundleAdmin } from './bundle.ts'
import type { AdminPageConfig, AdminScreen } from './page-config.ts'
import {
  ANALYTICS_MAIN, LOGIN_MAIN, PREVIEW_MAIN, refusedMain, renderAdminPage, SETTINGS_MAIN, type AdminAssets
} from './pages.ts'
import { ADMIN_CSS } from './styles.ts'

export interface AdminScreensOptions {
  edition: Edition
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

const PAGE_TITLES: Record<'settings' | 'analytics' | 'preview', string> = {
  settings: 'Cart drawer settings',
  analytics: 'Cart drawer analytics',
  preview: 'Cart drawer preview'
}

/**
 * The admin screens: the settings editor (every setting, a live preview of the drawer, save, reset, export, import),
 * and in Pro the add-on, bundle and spotlight editors and the analytics dashboard. Pages are for users with
 * `manage_shop`: a guest gets the login form (401), a logged-in user without the capability a refusal (403). The
 * pages hold no data but their configuration and the REST nonce; the script reads and writes the settings through
 * the `svc/v1` admin routes.
 */
export const adminScreensPlugin = fp<AdminScreensOptions>(async (fastify, options) => {
  const shop = fastify.commerce
  const pro = options.edition === 'pro'
  const style = describeBundle(Buffer.from(ADMIN_CSS))
  const script = bundleLoader(options.bundlePath ?? join(packageRoot(), ADMIN_BUNDLE_FILE), () => bundleAdmin(), () => {
    fastify.log.warn('the admin script is not built (npm run build:client): bundling it in memory')
  })

  async function assets (): Promise<AdminAssets> {
    return { script: `${ADMIN_SCRIPT_PATH}?v=${(await script()).hash}`, style: `${ADMIN_STYLE_PATH}?v=${style.hash}` }
  }

  function config (screen: AdminScreen, nonce: string | null): AdminPageConfig {
    return {
      screen,
      edition: options.edition,
      restRoot: shop.restRoot,
      nonce,
      nonceUrl: shop.urls.restNonce,
      loginUrl: shop.urls.login,
      logoutUrl: shop.urls.logout,
      schema: screen === 'settings' ? SETTINGS_JSON_SCHEMA : null,
      urls: { settings: ADMIN_PATHS.settings, analytics: pro ? ADMIN_PATHS.analytics : null, preview: ADMIN_PATHS.preview, storefront: `${shop.homeUrl}/` },
      checkoutUrl: shop.urls.checkout,
      cartUrl: platformCartUrl(shop.homeUrl),
      currency: currencyBlock(shop.currency)
    }
  }

  /**
   * An admin page for a shop manager; the login form (401) for a guest; a refusal (403) for anyone else. Never
   * cached, never framed by another site.
   */
  async function page (request: FastifyRequest, reply: FastifyReply, screen: 'settings' | 'analytics' | 'preview', main: string): Promise<string> {
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store, private')
      .header('X-Frame-Options', 'SAMEORIGIN')
      .header('Referrer-Policy', 'same-origin')
    const authenticated: Login | null = await shop.login(request)
    const files = await assets()
    if (authenticated === null) {
      reply.code(401)
      return renderAdminPage({ title: 'Log in', config: config('login', null), assets: files, userName: null, main: LOGIN_MAIN })
    }
    const userName = authenticated.user.displayName
    if (!shop.canManageShop(authenticated.user)) {
      reply.code(403)
      return renderAdminPage({ title: 'Not allowed', config: config('refused', null), assets: files, userName, main: refusedMain(userName) })
    }
    return renderAdminPage({
      title: PAGE_TITLES[screen],
      config: config(screen, shop.restNonce(authenticated)),
      assets: files,
      userName,
      main,
      bodyClass: screen === 'preview' ? 'svc-preview-frame' : undefined
    })
  }

  const pageSchema = (operationId: string, summary: string) => ({
    tags: ['admin'],
    operationId,
    summary,
    description: 'HTML for a user with `manage_shop`; the login form (401) for a guest; a refusal (403) without the capability.',
    security: SESSION_SECURITY,
    produces: ['text/html'],
    response: {
      200: { description: 'The page (`text/html`).', type: 'string' },
      401: { description: 'The login form (`text/html`): no one is logged in.', type: 'string' },
      403: { description: 'A refusal (`text/html`): the user lacks `manage_shop`.', type: 'string' }
    }
  })

  fastify.get(ADMIN_PATHS.settings, { schema: pageSchema('getAdminSettingsPage', 'The settings screen (HTML)') },
    (request, reply) => page(request, reply, 'settings', SETTINGS_MAIN))
  fastify.get(ADMIN_BASE.slice(0, -1), {
    schema: {
      tags: ['admin'],
      operationId: 'redirectToAdminSettings',
      summary: 'To the settings screen',
      security: PUBLIC_SECURITY,
      response: { 302: { description: 'Redirect to `/admin/cart-drawer/`.', type: 'null' } }
    }
  }, (_request, reply) => reply.redirect(ADMIN_BASE))
  fastify.get(ADMIN_PATHS.preview, { schema: pageSchema('getAdminPreviewPage', 'The settings screen\'s live preview frame (HTML)') },
    (request, reply) => page(request, reply, 'preview', PREVIEW_MAIN))
  if (pro) {
    fastify.get(ADMIN_PATHS.analytics, { schema: pageSchema('getAdminAnalyticsPage', 'The analytics dashboard (HTML, Pro)') },
      (request, reply) => page(request, reply, 'analytics', ANALYTICS_MAIN))
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

  fastify.get<{ Querystring: { v?: string } }>(ADMIN_STYLE_PATH, {
    schema: assetSchema('getAdminStylesheet', 'The admin screens\' stylesheet', 'The stylesheet (`text/css`).')
  }, async (request, reply) => sendStaticAsset(request, reply, style, 'text/css; charset=utf-8'))
}, { name: 'svc-admin-screens', fastify: '5.x', dependencies: ['commerce', 'settings'] })

export { ADMIN_CONFIG_ID, type AdminPageConfig, type AdminScreen } from './page-config.ts'
export { ADMIN_BUNDLE_FILE, bundleAdmin } from './bundle.ts'
