import { escapeHtml } from '../../../kernel/domain/html.ts'
import { jsonForScript } from '../../../kernel/domain/json-script.ts'
import type { PageWords } from './i18n.ts'
import { ADMIN_CONFIG_ID, type AdminPageConfig } from '../../schemas/admin-page-config.ts'

export interface AdminAssets {
  script: string
  style: string
}

interface PageView {
  /** The page's title, as HTML (escaped). */
  title: string
  config: AdminPageConfig
  assets: AdminAssets
  /** The logged-in manager's name (the header), or null. */
  userName: string | null
  /** The page's content (already escaped). */
  main: string
  /** The page's words, in the admin language (`<html lang dir>`). */
  words: PageWords
  /**
   * The page's own language when it is not its words' (the live preview's frame stands for a page of the shop: the
   * shop's language and direction, which a drawer in a left-to-right language follows).
   */
  document?: { lang: string, dir: 'ltr' | 'rtl' }
  bodyClass?: string
}

/** A value inside a sentence: its own direction whatever the sentence's (a name in Latin letters in Arabic). */
const value = (html: string): string => `<bdi>${html}</bdi>`

function nav (config: AdminPageConfig, userName: string | null, words: PageWords): string {
  const current = (screen: AdminPageConfig['screen']) => config.screen === screen ? ' aria-current="page"' : ''
  // The screens' links only for a manager (the login and refusal pages link the storefront alone).
  const manager = config.screen === 'settings' || config.screen === 'analytics'
  const links = [
    `<a href="${escapeHtml(config.urls.storefront)}">${words.html('page.storefront')}</a>`,
    manager ? `<a href="${escapeHtml(config.urls.settings)}"${current('settings')}>${words.html('page.settings')}</a>` : '',
    manager && config.urls.analytics !== null ? `<a href="${escapeHtml(config.urls.analytics)}"${current('analytics')}>${words.html('page.analytics')}</a>` : ''
  ].filter(Boolean).join('\n')
  // On a phone only the name shows: the words around it are for screen readers (`.admin-user-words`).
  const account = userName === null
    ? ''
    : `<span class="admin-user"><span>${words.html('page.loggedIn', { name: value(`<strong>${escapeHtml(userName)}</strong>`) },
      (text) => `<span class="admin-user-words">${text}</span>`)}</span>
<button type="button" id="admin-logout">${words.html('page.logout')}</button></span>`
  return `<header class="admin-header"><strong class="admin-brand">${words.html('page.brand')}</strong>
<nav aria-label="${words.html('page.nav')}">${links}</nav>${account}</header>`
}

/**
 * An admin page: no inline script, style or event handler (the page's data is JSON in a `type="application/json"`
 * element, the script and the styles are files), every value escaped. Its `lang` and `dir` are the admin language's.
 */
export function renderAdminPage ({ title, config, assets, userName, main, words, document, bodyClass }: PageView): string {
  return `<!doctype html>
<html lang="${escapeHtml(document?.lang ?? words.locale)}" dir="${document?.dir ?? words.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${escapeHtml(assets.style)}">
</head>
<body class="${escapeHtml(bodyClass ?? 'svc-admin')}" data-screen="${escapeHtml(config.screen)}">
${config.screen === 'preview' ? '' : nav(config, userName, words)}
<main id="admin-main">
${main}
</main>
<script type="application/json" id="${ADMIN_CONFIG_ID}">${jsonForScript(config)}</script>
<script src="${escapeHtml(assets.script)}" defer></script>
</body>
</html>`
}

export const settingsMain = (words: PageWords): string => `<h1>${words.html('page.settingsTitle')}</h1>
<noscript><p class="admin-note">${words.html('page.settingsNoscript')}</p></noscript>
<div id="admin-app" class="admin-app" aria-busy="true"><p class="admin-note">${words.html('page.settingsLoading')}</p></div>`

export const analyticsMain = (words: PageWords): string => `<h1>${words.html('page.analyticsTitle')}</h1>
<noscript><p class="admin-note">${words.html('page.analyticsNoscript')}</p></noscript>
<div id="admin-app" class="admin-app" aria-busy="true"><p class="admin-note">${words.html('page.analyticsLoading')}</p></div>`

/**
 * The live preview's frame: a bare page behind the drawer, which the admin script draws with unsaved settings. The
 * page is in the shop's language; its one sentence for the manager says its own.
 */
export const previewMain = (words: PageWords): string => `<div class="preview-page" aria-hidden="true">
<div class="preview-bar"></div><div class="preview-grid"><div></div><div></div><div></div><div></div><div></div><div></div></div>
</div>
<p class="preview-hint" lang="${words.locale}" dir="${words.dir}">${words.html('page.previewHint')}</p>`

export const loginMain = (words: PageWords): string => `<h1>${words.html('page.loginHeading')}</h1>
<form id="admin-login" class="admin-login" autocomplete="on" novalidate>
<label>${words.html('page.email')} <input name="email" type="email" autocomplete="username" required></label>
<label>${words.html('page.password')} <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit" class="admin-primary">${words.html('page.login')}</button>
<p id="admin-login-message" class="admin-error" role="alert"></p>
</form>`

export function refusedMain (userName: string, words: PageWords): string {
  return `<h1>${words.html('page.refusedTitle')}</h1>
<p class="admin-note" role="alert">${words.html('page.refused', { name: value(`<strong>${escapeHtml(userName)}</strong>`) })}</p>`
}
