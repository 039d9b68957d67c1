import en from 'svc-i18n:en'
import { resolveLocale, supportedLocale } from '../../kernel/i18n/locales.ts'
import { DRAWER_CONFIG_ID, type DrawerPageConfig } from '../schemas/drawer-page-config.ts'
import { Drawer } from './drawer.ts'
import { I18n } from './i18n.ts'

declare global {
  interface Window {
    /**
     * The drawer, for the shop's own code (docs/drawer-events.md): `open()`, `close()`, and `refresh()` after the
     * shop's own UI changed the cart (resolves once the drawer shows the server's cart).
     */
    svcDrawer?: { open (): void, close (): void, refresh (): Promise<void> }
  }
}

/** The page's configuration (restRoot, edition, login, nonce, settings), or null on a page without one. */
function readConfig (): DrawerPageConfig | null {
  const element = document.getElementById(DRAWER_CONFIG_ID)
  if (element === null) return null
  try {
    return JSON.parse(element.textContent ?? '') as DrawerPageConfig
  } catch {
    return null
  }
}

/**
 * The drawer's words: the page's `<html lang>` chooses among the supported locales (its base language), else the
 * shop's locale, else English. English is in this script; another locale's catalog is one small JSON file from the
 * drawer-assets plugin (fetched, so no script is injected: CSP-safe), cached for a year under its hashed URL. Should
 * it fail to load, the drawer speaks English.
 */
async function loadI18n (config: DrawerPageConfig, lang = document.documentElement.lang): Promise<I18n> {
  const { locale: shopLocale, catalogs, texts } = config.i18n ?? { locale: 'en', catalogs: '', texts: {} }
  const locale = resolveLocale(lang, shopLocale)
  const tag = supportedLocale(lang) === locale ? lang : locale
  if (locale !== 'en' && catalogs) {
    try {
      const response = await fetch(catalogs.replace('{locale}', locale), { credentials: 'same-origin' })
      if (response.ok) return new I18n(locale, tag, texts[locale], await response.json(), en)
    } catch {}
  }
  return new I18n('en', locale === 'en' ? tag : 'en', texts.en, en)
}

async function start (): Promise<void> {
  const config = readConfig()
  if (config === null || window.svcDrawer) return
  const drawer = new Drawer(config, { i18n: await loadI18n(config) })
  if (window.svcDrawer) return
  drawer.mount()
  window.svcDrawer = { open: () => { drawer.open('api') }, close: () => { drawer.close() }, refresh: () => drawer.refresh() }
  drawer.init().catch(() => {})
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => { start().catch(() => {}) })
else start().catch(() => {})
