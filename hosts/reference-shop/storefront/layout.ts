import { escapeHtml } from '../../../kernel/domain/html.ts'
import { jsonForScript } from '../../../kernel/domain/json-script.ts'
import { CLASSIC_SCRIPT_PATH } from './classic-script.ts'
import type { StorefrontLink, StorefrontScript } from './hooks.ts'

export interface LayoutView {
  title: string
  /** The page's main content (already escaped). */
  main: string
  /** The mini cart's full outer HTML (already escaped); null on the cart and checkout pages, which show the cart. */
  miniCart: string | null
  /** The cookie cart as the page shows it: its item count (the header's) and its hash (the mini cart's). */
  cart: { itemsCount: number, hash: string }
  /** The logged-in user's display name, or null for a guest. */
  userName: string | null
  /** Scripts from the `storefront_scripts` filter. */
  scripts: readonly StorefrontScript[]
  /** Header links from the `storefront_header_links` filter. */
  links?: readonly StorefrontLink[]
  /** The platform's own script of this page (a site-relative path), loaded after the classic script. */
  pageScript?: string
}

/**
 * The platform's own header links: the cart page with the cart's item count (kept up to date in the browser by the
 * classic script and the cart page's script), and the shopper's orders when logged in.
 */
function shopLinks (loggedIn: boolean, itemsCount: number): string {
  return `<nav class="shop-links" aria-label="Shop"><a href="/cart/">Cart <span class="cart-count">(${itemsCount})</span></a>` +
    (loggedIn ? ' <a href="/account/orders/">My orders</a>' : '') + '</nav>\n'
}

/** The filter's links that are links: a site-relative path or an http(s) URL, with a label; escaped. */
function headerLinks (links: readonly StorefrontLink[]): string {
  const safe = links.filter((link) => link !== null && typeof link === 'object' && typeof link.label === 'string' && link.label !== '' &&
    typeof link.href === 'string' && /^(\/(?!\/)|https?:\/\/)/i.test(link.href))
  if (safe.length === 0) return ''
  return `<nav class="site-links" aria-label="Site">${safe.map((link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`).join(' ')}</nav>\n`
}

function accountBox (userName: string | null): string {
  if (userName !== null) {
    return `<div class="account">Logged in as <strong>${escapeHtml(userName)}</strong>
<button type="button" id="logout">Log out</button></div>`
  }
  return `<form id="login" class="account" autocomplete="on">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button> <span id="login-message" role="alert"></span>
</form>`
}

/** A script from the filter, or '' when a callback returned something that is not one. */
function scriptTags (script: StorefrontScript): string {
  if (script === null || typeof script !== 'object' || typeof script.src !== 'string' || script.src === '') return ''
  let data = ''
  if (script.data && typeof script.data.id === 'string') {
    try {
      data = `<script type="application/json" id="${escapeHtml(script.data.id)}">${jsonForScript(script.data.value)}</script>\n`
    } catch {
      return ''
    }
  }
  return `${data}<script src="${escapeHtml(script.src)}" defer></script>\n`
}

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0; color: #1f2937; background: #f9fafb; }
.site-header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .75rem 2rem; background: #fff; border-bottom: 1px solid #e5e7eb; }
.site-header a.home { display: inline-flex; align-items: center; min-height: 44px; font-weight: 700; font-size: 1.25rem; color: inherit; text-decoration: none; }
.account { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; font-size: .9rem; }
.account input { width: 11rem; }
.site-links a, li.product h2 a, a.choose-options, main > p > a, .mini-cart a { display: inline-flex; align-items: center; min-width: 44px; min-height: 44px; }
main { padding: 1rem 2rem 6rem; max-width: 72rem; }
ul.products { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 1rem; }
li.product { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; }
li.product h2 { font-size: 1.05rem; margin: .5rem 0; }
li.product h2 a { color: inherit; }
.price { font-weight: 600; }
button { cursor: pointer; }
header :is(button, input, select), main :is(button, input, select, summary) { min-height: 44px; font: inherit; }
header button, main button { min-width: 44px; }
summary { line-height: 44px; cursor: pointer; }
button.add-to-cart, form.cart button { background: #1f2937; color: #fff; border: 0; border-radius: 6px; padding: .5rem .9rem; }
button:disabled { opacity: .5; cursor: not-allowed; }
.unavailable { color: #6b7280; font-size: .9rem; }
form.cart { display: grid; gap: .75rem; max-width: 20rem; }
form.cart label { display: grid; gap: .25rem; }
details.mini-cart { margin: 1rem 0; }
#shop-message { min-height: 1.5em; margin: 0; }
.shop-links a { display: inline-flex; align-items: center; min-width: 44px; min-height: 44px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
table { border-collapse: collapse; }
:is(.cart-lines, .cart-totals, .order-lines, .account-orders) :is(th, td) { padding: .5rem .75rem; text-align: start; border-bottom: 1px solid #e5e7eb; vertical-align: middle; }
.cart-lines, .account-orders, .order-lines { width: 100%; background: #fff; }
.cart-totals { min-width: 18rem; margin: 1rem 0; background: #fff; }
.cart-totals caption { text-align: start; font-weight: 600; padding: .5rem 0; }
.cart-lines input.quantity { width: 5rem; }
.cart-lines a, .account-orders a, .return-to-shop a, .pagination a, .checkout-error a { display: inline-flex; align-items: center; min-height: 44px; }
dl.variation { margin: .25rem 0 0; font-size: .9rem; color: #4b5563; }
dl.variation dt, dl.variation dd { display: inline; margin: 0 .25rem 0 0; }
form.coupon { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 1rem 0; }
ul.applied-coupons { list-style: none; padding: 0; }
.cart-errors, .checkout-error:not(:empty), #cart-notice:not(:empty) { color: #991b1b; background: #fef2f2; border: 1px solid #fecaca; border-radius: 6px; padding: .5rem 1rem; }
a.button, #place-order { display: inline-flex; align-items: center; min-height: 44px; padding: .5rem 1.25rem; background: #1f2937; color: #fff; border: 0; border-radius: 6px; text-decoration: none; font: inherit; }
.checkout-columns { display: grid; gap: 2rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); align-items: start; }
form.checkout fieldset { border: 1px solid #e5e7eb; border-radius: 8px; padding: 1rem; margin: 0 0 1rem; background: #fff; }
form.checkout .form-row { display: grid; gap: .25rem; margin: 0 0 .75rem; }
form.checkout .form-row:has(input[type="checkbox"]) { display: flex; align-items: center; gap: .5rem; }
form.checkout :is(input:not([type="checkbox"], [type="radio"]), select, textarea) { width: 100%; min-height: 44px; font: inherit; padding: .25rem .5rem; }
form.checkout input[type="checkbox"], form.checkout input[type="radio"] { width: 24px; height: 24px; margin: 10px; }
form.checkout [aria-invalid="true"] { border: 2px solid #b91c1c; }
ul.payment-methods, ul.summary-lines { list-style: none; padding: 0; margin: 0; }
ul.payment-methods li { display: flex; flex-wrap: wrap; align-items: center; }
ul.payment-methods label { min-height: 44px; display: inline-flex; align-items: center; }
.payment-description { flex-basis: 100%; margin: 0 0 .5rem 44px; color: #4b5563; font-size: .9rem; }
ul.summary-lines li { display: flex; flex-wrap: wrap; gap: .25rem; padding: .25rem 0; }
.summary-total { margin-inline-start: auto; }
.required { color: #b91c1c; }
ul.order-overview { display: flex; flex-wrap: wrap; gap: 1rem 2rem; padding: 0; list-style: none; }
.order-addresses { display: flex; flex-wrap: wrap; gap: 2rem; }
`

/** The page shell shared by every storefront page: header with the login box, the mini cart, the scripts. */
export function renderLayout ({ title, main, miniCart, cart, userName, scripts, links = [], pageScript }: LayoutView): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="site-header"><a class="home" href="/">Demo shop</a>
${accountBox(userName)}
${shopLinks(userName !== null, cart.itemsCount)}${headerLinks(links)}</header>
<main>
<p id="shop-message" role="status"></p>
${main}
${miniCart === null ? '' : `<details class="mini-cart" data-cart-hash="${escapeHtml(cart.hash)}"><summary>Classic mini cart</summary>${miniCart}</details>\n`}</main>
<script type="module" src="${CLASSIC_SCRIPT_PATH}"></script>
${pageScript === undefined ? '' : `<script type="module" src="${escapeHtml(pageScript)}"></script>\n`}${scripts.map(scriptTags).join('')}</body>
</html>`
}
