import type { DrawerConfig, LauncherSettings } from './settings.ts'
import type { BehaviourSettings } from './settings-behaviour.ts'
import type { Edition } from './edition.ts'
import type { CompiledCatalog, Locale } from '../../kernel/i18n/locales.ts'

/**
 * What a storefront page tells the drawer script, as JSON in `<script type="application/json" id="svc-drawer-config">`.
 * Types only (no runtime code): the browser bundle imports it too.
 */
export interface DrawerPageConfig {
  /** The REST root, e.g. `/wp-json/`: the Store API and `svc/v1` are below it. */
  restRoot: string
  edition: Edition
  loggedIn: boolean
  /** The REST nonce for `X-WP-Nonce`; null for a guest (a guest must not send one). */
  nonce: string | null
  /** Where a fresh nonce comes from when the server refuses one (`GET`, 401 when no longer logged in). */
  nonceUrl: string
  /** The checkout page (the `urls.checkout` option, else the shop's). */
  checkoutUrl: string
  /** The settings' `drawer_config` and `launcher` when the page was made (the Store API cart repeats them). */
  drawerConfig: DrawerConfig
  launcher: LauncherSettings
  /** The drawer's languages (settings `language`). Absent from an older page: English. */
  i18n?: DrawerPageI18n
  /**
   * The settings' `behaviour`; its empty links mean the platform's pages: `checkoutUrl`, `cartUrl` and
   * `shopUrl`. Absent from an older page: the drawer behaves as before these settings (no undo).
   */
  behaviour?: BehaviourSettings
  /** The cart page (the `urls.cart` option, else the platform's `{homeUrl}/cart/`). */
  cartUrl?: string
  /** The shop's home page ("Continue shopping"). */
  shopUrl?: string
  /**
   * `drawer`: the cart routes are the drawer's own (`{restRoot}svc/v1/store/cart`…, with the nonce rules of `svc/v1`)
   * instead of the host's Store API (`{restRoot}wc/store/v1/cart`…). Absent: the Store API's.
   */
  storeApi?: 'drawer'
}

export interface DrawerPageI18n {
  /** The shop's locale: the drawer's language when the page's `lang` is not a supported one. */
  locale: Locale
  /** Where a catalog other than English is: a URL with `{locale}` to replace (hashed: cacheable for a year). */
  catalogs: string
  /** The shop's own texts, compiled, by locale and message id (they win over the catalog). */
  texts: Partial<Record<Locale, CompiledCatalog>>
}

export const DRAWER_CONFIG_ID = 'svc-drawer-config'
