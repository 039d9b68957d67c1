import type { DrawerConfig, LauncherSettings } from '../../schemas/settings.ts'
import type { Edition } from '../security/index.ts'

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
  checkoutUrl: string
  /** The settings' `drawer_config` and `launcher` when the page was made (the Store API cart repeats them). */
  drawerConfig: DrawerConfig
  launcher: LauncherSettings
}

export const DRAWER_CONFIG_ID = 'svc-drawer-config'
