import { join } from 'node:path'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import { restError } from '../../../kernel/errors/index.ts'
import { ErrorBody } from '../../../kernel/schemas/error.ts'
import { PUBLIC_SECURITY } from '../openapi/index.ts'
import type { Edition } from '../security/index.ts'
import type { StorefrontContext, StorefrontScript } from '../../port/index.ts'
import { bundleLoader, describeBundle, packageRoot, sendStaticAsset, type ClientBundle } from '../../../kernel/lib/index.ts'
import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { compileCatalog, compileMessage } from '../../../kernel/i18n/compile.ts'
import { DEFAULT_LOCALE, LOCALES, type CompiledCatalog, type Locale } from '../../../kernel/i18n/locales.ts'
import type { LanguageSettings } from '../../schemas/settings-language.ts'
import { BUNDLE_FILE, bundleClient } from './bundle.ts'
import { DRAWER_CONFIG_ID, type DrawerPageConfig, type DrawerPageI18n } from '../../schemas/drawer-page-config.ts'
import { checkDrawerUrls, drawerUrls, type DrawerUrls } from './urls.ts'

export interface DrawerAssetsOptions {
  edition: Edition
  /** The cart and checkout pages the drawer links to (default the shop's: `{homeUrl}/cart/`, the port's `urls.checkout`). */
  urls?: DrawerUrls
  /** `drawer`: the script calls the drawer's own cart routes (`svc/v1/store/`) instead of the host's Store API. */
  storeApi?: 'host' | 'drawer'
  /** The built script (default `dist/client/svc-drawer.js` of the package, written by `npm run build:client`). */
  bundlePath?: string
}

export const DRAWER_SCRIPT_PATH = '/assets/svc-drawer.js'
/** The catalogs other than English (which is in the script): `/assets/svc-drawer-i18n/<locale>.json`. */
export const DRAWER_CATALOG_PATH = '/assets/svc-drawer-i18n/'

/** Each catalog but the default one, compiled to the drawer's JSON once; one hash for them all (the `?v=` of their URLs). */
function compiledCatalogs (): { files: Map<string, ClientBundle>, hash: string } {
  const files = new Map<string, ClientBundle>()
  for (const locale of LOCALES) {
    if (locale === DEFAULT_LOCALE) continue
    files.set(`${locale}.json`, describeBundle(Buffer.from(JSON.stringify(compileCatalog(CATALOGS[locale], locale)))))
  }
  const hash = describeBundle(Buffer.from([...files.values()].map((file) => file.hash).join())).hash
  for (const [name, file] of files) files.set(name, { ...file, hash })
  return { files, hash }
}

/** The shop's own texts compiled for the page (settings are validated: a text that would not compile is left out). */
export function compiledTexts (language: LanguageSettings): DrawerPageI18n['texts'] {
  const texts: DrawerPageI18n['texts'] = {}
  for (const locale of LOCALES) {
    const compiled: CompiledCatalog = {}
    for (const [id, source] of Object.entries(language.texts[locale] ?? {})) {
      if (source === '') continue
      try {
        compiled[id] = compileMessage(source, locale)
      } catch {}
    }
    if (Object.keys(compiled).length > 0) texts[locale as Locale] = compiled
  }
  return texts
}

/**
 * The drawer and launcher in the browser: serves the bundled script (cacheable: an ETag, gzip, and a year for the
 * hashed URL) and adds it to every storefront page through `storefront_scripts`, with the page's configuration.
 * The built file is read once; without one (no `npm run build:client` yet) the script is bundled in memory.
 */
export const drawerAssetsPlugin = fp<DrawerAssetsOptions>(async (fastify, options) => {
  const { commerce: shop, settings } = fastify
  checkDrawerUrls(options.urls)
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

  const catalogs = compiledCatalogs()
  fastify.get<{ Params: { file: string }, Querystring: { v?: string } }>(`${DRAWER_CATALOG_PATH}:file`, {
    schema: {
      tags: ['drawer'],
      operationId: 'getDrawerCatalog',
      summary: 'The drawer\'s words in one language',
      description: 'The catalog of one supported locale other than English (`de.json`, `fr.json`, `es.json`, `ar.json`, `ja.json`): its ICU messages compiled to the JSON the drawer formats. Fetched by the drawer when the page\'s language (or the shop\'s) is that locale; gzipped when accepted, with an ETag, cached for a year under the hashed URL (`?v=<hash>`).',
      params: Type.Object({ file: Type.String({ pattern: '^[a-z]{2}\\.json$', description: '`<locale>.json`' }) }),
      querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'The content hash.' })) }),
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
    if (file === undefined) throw restError('svc_not_found', 'There is no catalog for this locale.')
    return sendStaticAsset(request, reply, file, 'application/json; charset=utf-8')
  })

  /** The compiled texts of the settings version last seen (settings change rarely; pages are many). */
  let texts: { version: number, value: DrawerPageI18n['texts'] } | null = null
  const remove = shop.filters.add('storefront_scripts', async (scripts: StorefrontScript[], context: StorefrontContext) => {
    const { settings: current, version } = await settings.get()
    if (!current.enabled) return scripts
    if (texts?.version !== version) texts = { version, value: compiledTexts(current.language) }
    const script = await bundle()
    const urls = drawerUrls(shop, options.urls)
    const config: DrawerPageConfig = {
      restRoot: shop.restRoot,
      edition: options.edition,
      loggedIn: context.user !== null,
      nonce: context.restNonce,
      nonceUrl: shop.urls.restNonce,
      checkoutUrl: urls.checkout,
      drawerConfig: current.drawer_config,
      launcher: current.launcher,
      behaviour: current.behaviour,
      cartUrl: urls.cart,
      shopUrl: `${shop.homeUrl}/`,
      i18n: {
        locale: current.language.locale,
        catalogs: `${DRAWER_CATALOG_PATH}{locale}.json?v=${catalogs.hash}`,
        texts: texts.value
      },
      ...(options.storeApi === 'drawer' ? { storeApi: 'drawer' as const } : {})
    }
    return [...scripts, { src: `${DRAWER_SCRIPT_PATH}?v=${script.hash}`, data: { id: DRAWER_CONFIG_ID, value: config } }]
  })
  fastify.addHook('onClose', async () => { remove() })
}, { name: 'svc-drawer-assets', fastify: '5.x', dependencies: ['commerce', 'settings'] })

export { DRAWER_CONFIG_ID, type DrawerPageConfig } from '../../schemas/drawer-page-config.ts'
export { checkDrawerUrls, drawerUrls, platformCartUrl, type DrawerUrls } from './urls.ts'
export { BUNDLE_FILE, MAX_GZIPPED_BYTES, bundleClient } from './bundle.ts'
