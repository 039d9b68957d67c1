import type { CurrencyBlock } from '../../kernel/domain/money.ts'
import type { Locale } from '../../kernel/i18n/locales.ts'
import type { Edition } from './edition.ts'

/**
 * What an admin page tells the admin script, as JSON in `<script type="application/json" id="svc-admin-config">`.
 * Types only (no runtime code): the browser bundle imports it too.
 */
export type AdminScreen = 'settings' | 'analytics' | 'preview' | 'login' | 'refused'

export interface AdminPageConfig {
  screen: AdminScreen
  edition: Edition
  /** The REST root, e.g. `/wp-json/`: `svc/v1` is below it. */
  restRoot: string
  /** The REST nonce of the logged-in manager for `X-WP-Nonce` (null on the login and refusal pages). */
  nonce: string | null
  /** Where a fresh nonce comes from (`GET`, 401 once logged out). */
  nonceUrl: string
  /** The shop's login (`POST {email, password}`) and logout (`POST`) addresses. */
  loginUrl: string
  logoutUrl: string
  /** The JSON schema of the settings document (the settings screen builds its controls from it). */
  schema: Record<string, unknown> | null
  /** The admin pages' addresses. */
  urls: { settings: string, analytics: string | null, preview: string, storefront: string }
  checkoutUrl: string
  /** The platform's cart page (the live preview's cart link while `behaviour.cart_url` is empty). */
  cartUrl: string
  /** The shop's currency: the settings screen shows and takes amounts in it (they are saved in its smallest unit). */
  currency: CurrencyBlock
  /** The screens' language (the page's `<html lang>`): where its words come from. */
  i18n: AdminPageI18n
}

export interface AdminPageI18n {
  /** The manager's `?lang=` when the screens speak it, else the shop's `language.locale`. */
  locale: Locale
  /** The locale's compiled admin catalog (`/assets/svc-admin-i18n/<locale>.json?v=<hash>`); null for English, in the script. */
  catalog: string | null
}

export const ADMIN_CONFIG_ID = 'svc-admin-config'
