import { join } from 'node:path'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { restError } from '../../errors/index.ts'
import { ErrorBody } from '../../schemas/error.ts'
import { PUBLIC_SECURITY } from '../openapi/index.ts'
import type { Edition } from '../security/index.ts'
import type { StorefrontContext, StorefrontScript } from '../cart-drawer/index.ts'
import { bundleLoader, packageRoot, sendStaticAsset, type ClientBundle } from '../../lib/index.ts'
import { BUNDLE_FILE, bundleClient } from './bundle.ts'
import { DRAWER_CONFIG_ID, type DrawerPageConfig } from './page-config.ts'

export interface DrawerAssetsOptions {
  edition: Edition
  /** The built script (default `dist/client/svc-drawer.js` of the package, written by `npm run build:client`). */
  bundlePath?: string
}

export const DRAWER_SCRIPT_PATH = '/assets/svc-drawer.js'

/**
 * The drawer and launcher in the browser: serves the bundled script (cacheable: an ETag, gzip, and a year for the
 * hashed URL) and adds it to every storefront page through `storefront_scripts`, with the page's configuration.
 * The built file is read once; without one (no `npm run build:client` yet) the script is bundled in memory.
 */
export const drawerAssetsPlugin = fp<DrawerAssetsOptions>(async (fastify, options) => {
  const { commerce: shop, settings } = fastify
  const bundle = bundleLoader(options.bundlePath ?? join(packageRoot(), BUNDLE_FILE), () => bundleClient(), () => {
    fastify.log.warn('the drawer script is not built (npm run build:client): bundling it in memory')
  })

  fastify.get<{ Querystring: { v?: string } }>(DRAWER_SCRIPT_PATH, {
    schema: {
      tags: ['drawer'],
      operationId: 'getDrawerScript',
      summary: 'The drawer and launcher script',
      description: 'One minified script (gzipped when accepted), with an ETag; cached for a year under the hashed URL the storefront uses (`?v=<hash>`), for five minutes otherwise.',
      querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'The content hash.' })) }),
      security: PUBLIC_SECURITY,
      response: {
        200: { description: 'The script (`text/javascript`).', type: 'string' },
        304: { description: 'Not modified (`If-None-Match` names the current ETag).', type: 'null' },
        400: ErrorBody,
        404: { ...ErrorBody, 'x-response-description': 'The script cannot be built (`svc_not_found`).' }
      }
    }
  }, async (request, reply) => {
    let script: ClientBundle
    try {
      script = await bundle()
    } catch (error) {
      request.log.error({ err: error }, 'the drawer script cannot be built')
      throw restError('svc_not_found', 'The drawer script is not available.')
    }
    return sendStaticAsset(request, reply, script, 'text/javascript; charset=utf-8')
  })

  const remove = shop.filters.add('storefront_scripts', async (scripts: StorefrontScript[], context: StorefrontContext) => {
    const { settings: current } = await settings.get()
    if (!current.enabled) return scripts
    const script = await bundle()
    const config: DrawerPageConfig = {
      restRoot: shop.restRoot,
      edition: options.edition,
      loggedIn: context.user !== null,
      nonce: context.restNonce,
      nonceUrl: shop.urls.restNonce,
      checkoutUrl: shop.urls.checkout,
      drawerConfig: current.drawer_config,
      launcher: current.launcher
    }
    return [...scripts, { src: `${DRAWER_SCRIPT_PATH}?v=${script.hash}`, data: { id: DRAWER_CONFIG_ID, value: config } }]
  })
  fastify.addHook('onClose', async () => { remove() })
}, { name: 'svc-drawer-assets', fastify: '5.x', dependencies: ['commerce', 'settings'] })

export { DRAWER_CONFIG_ID, type DrawerPageConfig } from './page-config.ts'
export { BUNDLE_FILE, MAX_GZIPPED_BYTES, bundleClient } from './bundle.ts'
