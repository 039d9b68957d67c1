import { escapeHtml } from '../../domain/html.ts'
import { jsonForScript } from '../../domain/json-script.ts'
import { ADMIN_CONFIG_ID, type AdminPageConfig } from './page-config.ts'

export interface AdminAssets {
  script: string
  style: string
}

interface PageView {
  title: string
  config: AdminPageConfig
  assets: AdminAssets
  /** The logged-in manager's name (the header), or null. */
  userName: string | null
  /** The page's content (already escaped). */
  main: string
  bodyClass?: string
}

function nav (config: AdminPageConfig, userName: string | null): string {
  const current = (screen: AdminPageConfig['screen']) => config.screen === screen ? ' aria-current="page"' : ''
  // The screens' links only for a manager (the login and refusal pages link the storefront alone).
  const manager = config.screen === 'settings' || config.screen === 'analytics'
  const links = [
    `<a href="${escapeHtml(config.urls.storefront)}">← Storefront</a>`,
    manager ? `<a href="${escapeHtml(config.urls.settings)}"${current('settings')}>Settings</a>` : '',
    manager && config.urls.analytics !== null ? `<a href="${escapeHtml(config.urls.analytics)}"${current('analytics')}>Analytics</a>` : ''
  ].filter(Boolean).join('\n')
  const account = userName === null
    ? ''
    : `<span class="admin-user"><span><span class="admin-user-words">Logged in as </span><strong>${escapeHtml(userName)}</strong></span>
<button type="button" id="admin-logout">Log out</button></span>`
  return `<header class="admin-header"><strong class="admin-brand">Cart drawer</strong>
<nav aria-label="Admin">${links}</nav>${account}</header>`
}

/**
 * An admin page: no inline script, style or event handler (the page's data is JSON in a `type="application/json"`
 * element, the script and the styles are files), every value escaped.
 */
export function renderAdminPage ({ title, config, assets, userName, main, bodyClass }: PageView): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(assets.style)}">
</head>
<body class="${escapeHtml(bodyClass ?? 'svc-admin')}" data-screen="${escapeHtml(config.screen)}">
${config.screen === 'preview' ? '' : nav(config, userName)}
<main id="admin-main">
${main}
</main>
<script type="application/json" id="${ADMIN_CONFIG_ID}">${jsonForScript(config)}</script>
<script src="${escapeHtml(assets.script)}" defer></script>
</body>
</html>`
}

export const SETTINGS_MAIN = `<h1>Cart drawer settings</h1>
<noscript><p class="admin-note">The settings screen needs JavaScript.</p></noscript>
<div id="admin-app" class="admin-app" aria-busy="true"><p class="admin-note">Loading the settings…</p></div>`

export const ANALYTICS_MAIN = `<h1>Cart drawer analytics</h1>
<noscript><p class="admin-note">The analytics screen needs JavaScript.</p></noscript>
<div id="admin-app" class="admin-app" aria-busy="true"><p class="admin-note">Loading…</p></div>`

/** The live preview's frame: a bare page behind the drawer, which the admin script draws with unsaved settings. */
export const PREVIEW_MAIN = `<div class="preview-page" aria-hidden="true">
<div class="preview-bar"></div><div class="preview-grid"><div></div><div></div><div></div><div></div><div></div><div></div></div>
</div>
<p class="preview-hint">Preview: the drawer with the settings being edited.</p>`

export const LOGIN_MAIN = `<h1>Log in to manage the cart drawer</h1>
<form id="admin-login" class="admin-login" autocomplete="on" novalidate>
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit" class="admin-primary">Log in</button>
<p id="admin-login-message" class="admin-error" role="alert"></p>
</form>`

export function refusedMain (userName: string): string {
  return `<h1>Not allowed</h1>
<p class="admin-note" role="alert">You are logged in as <strong>${escapeHtml(userName)}</strong>, who may not manage the shop.
Log in as a shop manager to change the cart drawer.</p>`
}
