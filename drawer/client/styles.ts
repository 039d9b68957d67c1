import type { DrawerConfig } from '../schemas/settings.ts'

/** The dark palette (`.svc-dark`, or `.svc-auto` under a dark system preference), native controls included. */
const DARK = 'color-scheme:dark;--svc-bg:#111827;--svc-text:#f3f4f6;--svc-primary:#f3f4f6;--svc-on-primary:#111827;--svc-line:#374151;--svc-muted:#9ca3af;--svc-soft:#1f2937;' +
  '--svc-danger:#fca5a5;--svc-alert-bg:#450a0a;--svc-alert:#fecaca;--svc-warn-bg:#422006;--svc-warn:#fde68a'

/**
 * The drawer's styles. Every setting of `drawer_config` reaches them through custom properties set on the root
 * (`applyTheme`), so a settings change needs no new CSS. The configured colours are `--svc-c-*`; the palette in use
 * is `--svc-*`, which the dark mode replaces (`.svc-dark`, or `.svc-auto` under a dark system preference).
 */
const CSS = `
.svc-root{--svc-bg:var(--svc-c-bg);--svc-text:var(--svc-c-text);--svc-primary:var(--svc-c-primary);--svc-accent:var(--svc-c-accent);--svc-on-primary:#fff;--svc-line:#e5e7eb;--svc-muted:#4b5563;--svc-soft:#f3f4f6;--svc-danger:#b91c1c;--svc-alert-bg:#fef2f2;--svc-alert:#991b1b;--svc-warn-bg:#fffbeb;--svc-warn:#92400e;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
.svc-dark{${DARK}}
@media (prefers-color-scheme:dark){.svc-auto{${DARK}}}
.svc-root *,.svc-root *::before,.svc-root *::after{box-sizing:border-box}
.svc-root [hidden]{display:none!important}
.svc-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.svc-launcher{position:fixed;z-index:2147483000;display:flex;align-items:center;justify-content:center;gap:.45em;height:var(--svc-ls);min-width:var(--svc-ls);padding:0 1.05em;border:0;border-radius:999px;background:var(--svc-c-primary);color:#fff;box-shadow:0 6px 18px rgba(0,0,0,.25);cursor:pointer;font:inherit;font-size:calc(var(--svc-ls)*.34);font-weight:600}
.svc-launcher-total{order:1}
.svc-square{border-radius:0}.svc-circle{padding:0}.svc-circle .svc-badge{position:absolute;top:-4px;inset-inline-end:-4px}
@media (max-width:640px){.svc-no-mobile{display:none}}
@media (min-width:640.1px) and (max-width:1023.9px){.svc-no-tablet{display:none}}
@media (min-width:1024px){.svc-no-desktop{display:none}}
.svc-launcher svg{width:1.35em;height:1.35em;fill:currentColor}
.svc-launcher[data-v=top]{top:20px}.svc-launcher[data-v=bottom]{bottom:20px}.svc-launcher[data-side=end]{inset-inline-end:20px}.svc-launcher[data-side=start]{inset-inline-start:20px}
.svc-badge{min-width:1.6em;padding:.05em .4em;border-radius:999px;background:var(--svc-c-accent);color:#fff;font-size:.8em;text-align:center}
.svc-overlay{position:fixed;inset:0;z-index:2147483001;background:rgba(17,24,39,.5);opacity:0;transition:opacity var(--svc-d) ease}
.svc-drawer{position:fixed;top:0;bottom:0;z-index:2147483002;width:min(var(--svc-w),100vw);display:flex;flex-direction:column;background:var(--svc-bg);color:var(--svc-text);box-shadow:0 0 28px rgba(0,0,0,.3);transition:transform var(--svc-d) ease,opacity var(--svc-d) ease;outline:0}
.svc-drawer[data-side=end]{inset-inline-end:0;border-start-start-radius:var(--svc-r);border-end-start-radius:var(--svc-r)}
.svc-drawer[data-side=start]{inset-inline-start:0;border-start-end-radius:var(--svc-r);border-end-end-radius:var(--svc-r)}
.svc-slide[data-side=end],.svc-slide[data-side=start]:dir(rtl){transform:translateX(100%)}
.svc-slide[data-side=start],.svc-slide[data-side=end]:dir(rtl){transform:translateX(-100%)}
.svc-fade{opacity:0}
.svc-root.svc-open .svc-drawer[data-side]{transform:none;opacity:1}.svc-open .svc-overlay{opacity:1}
@media (max-width:640px){.svc-drawer{width:var(--svc-wm)}}
@media (prefers-reduced-motion:reduce){.svc-drawer,.svc-overlay{transition:none}}
.svc-head{display:flex;align-items:center;gap:.5em;padding:1em 1.25em;border-bottom:1px solid var(--svc-line)}
.svc-head h2{margin:0;font-size:1.2em;flex:1}
.svc-body{flex:1;overflow-y:auto;padding:0 1.25em}
.svc-foot{padding:1em 1.25em 1.25em;border-top:1px solid var(--svc-line)}
:where(.svc-root button){font:inherit;color:inherit;cursor:pointer}
.svc-root button:focus-visible,.svc-root a:focus-visible,.svc-root input:focus-visible,.svc-root select:focus-visible,.svc-drawer:focus-visible{outline:3px solid var(--svc-accent);outline-offset:2px}
.svc-btn{border:0;border-radius:6px;padding:.55em 1em;background:var(--svc-primary);color:var(--svc-on-primary);font-weight:600;text-decoration:none;display:inline-block;text-align:center;min-width:44px;min-height:44px}
.svc-btn-wide{display:block;width:100%;margin-top:.75em;padding:.8em}
.svc-link{background:none;border:0;padding:0 .3em;min-width:44px;min-height:44px;text-decoration:underline;color:var(--svc-muted);font-size:.87em}
.svc-close{background:none;border:0;font-size:1.6em;line-height:1;padding:0;min-width:44px;min-height:44px;border-radius:6px}
.svc-alert{margin:.75em 1.25em 0;padding:.6em .8em;border-radius:6px;background:var(--svc-alert-bg);color:var(--svc-alert)}
.svc-alert:empty,.svc-note:empty{display:none}
.svc-note{margin:.4em 0 0;color:var(--svc-danger);font-size:.9em}
.svc-lines{list-style:none;margin:0;padding:0}
.svc-line{display:grid;grid-template-columns:56px minmax(0,1fr) auto;gap:.75em;padding:1em 0}
.svc-line+.svc-line{border-top:1px solid var(--svc-line)}
.svc-thumb{width:56px;height:56px;border-radius:6px;object-fit:cover;background:var(--svc-soft)}
.svc-name{display:flex;align-items:center;width:fit-content;min-width:44px;min-height:44px;font-weight:600;color:inherit;text-decoration:none}
.svc-meta{margin:.15em 0 0;color:var(--svc-muted);font-size:.87em}
.svc-extra{list-style:none;margin:.15em 0 0;padding:0;color:var(--svc-muted);font-size:.87em}
.svc-backorder{margin:.35em 0 0;color:var(--svc-warn);background:var(--svc-warn-bg);border-radius:4px;padding:.15em .4em;font-size:.85em}
.svc-tag{display:inline-block;margin-top:.35em;padding:0 .45em;border-radius:4px;background:var(--svc-soft);font-size:.8em}
.svc-controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5em;margin-top:.45em}
.svc-qty{display:inline-flex;align-items:center;border:1px solid var(--svc-line);border-radius:6px}
.svc-qty button{width:44px;height:44px;border:0;background:none;font-size:1.05em}
.svc-qty button:disabled{opacity:.35;cursor:not-allowed}
.svc-qty input{width:3em;min-width:44px;height:44px;border:0;border-inline:1px solid var(--svc-line);text-align:center;background:transparent;color:inherit;font:inherit;-moz-appearance:textfield;appearance:textfield}
.svc-qty input::-webkit-inner-spin-button{-webkit-appearance:none}
.svc-price{padding-top:calc(22px - .725em);font-weight:600;white-space:nowrap;text-align:end}
.svc-price s{display:block;color:var(--svc-muted);font-weight:400;font-size:.85em}
.svc-empty{padding:2.5em 0;text-align:center;color:var(--svc-muted)}
.svc-go{display:table;margin:-1.5em auto 1.5em}
.svc-undo:not(:empty),.svc-acts{display:flex;align-items:center;justify-content:space-between}
.svc-ask{flex:1;text-align:center}.svc-ask b{display:block}
.svc-undo:not(:empty){margin-top:.75em;padding-inline-start:.8em;border-radius:6px;background:var(--svc-soft)}
a.svc-link{line-height:44px}
.svc-section{padding:1em 0;border-top:1px solid var(--svc-line)}
.svc-body>.svc-section:first-child{border-top:0}
.svc-section h3{margin:0 0 .6em;font-size:.95em}
.svc-row{display:flex;justify-content:space-between;gap:1em;margin:.2em 0}
.svc-grand{font-weight:700;font-size:1.1em;margin-top:.4em}
.svc-coupon-form{display:flex;gap:.5em}
.svc-coupon-form input,.svc-root select{flex:1;min-width:0;min-height:44px;padding:.5em .6em;border:1px solid var(--svc-line);border-radius:6px;background:var(--svc-bg);color:inherit;font:inherit}
.svc-chips{display:flex;flex-wrap:wrap;gap:.4em;margin:.6em 0 0;padding:0;list-style:none}
.svc-chip{display:inline-flex;align-items:center;gap:.1em;padding-inline-start:.7em;border-radius:999px;background:var(--svc-soft);font-size:.87em}
.svc-chip button{border:0;border-radius:999px;background:none;padding:0;min-width:44px;min-height:44px;font-size:1.1em;line-height:1}
.svc-cards{list-style:none;margin:0;padding:0;display:grid;gap:.65em}
.svc-card{display:flex;gap:.75em;align-items:center}
.svc-card img{width:44px;height:44px;border-radius:6px;flex:none;background:var(--svc-soft)}
.svc-card>div{flex:1;min-width:0}
.svc-card .svc-btn{padding:.4em .8em;font-size:.9em}
.svc-meter-bar{position:relative;height:8px;margin-top:.4em;border-radius:4px;background:var(--svc-soft);overflow:hidden}
.svc-meter-bar span{display:block;height:100%;background:var(--svc-accent);transition:width var(--svc-d) ease}
.svc-tick{position:absolute;top:0;width:2px;height:100%;margin-inline-start:-2px;background:currentColor;opacity:.3}.svc-tick.svc-on{opacity:.8}
.svc-unlocked{margin:.4em 0 0;padding:0;list-style:none;font-size:.85em}.svc-unlocked li::before{content:'\\2713\\a0'}
.svc-addon{display:flex;gap:.6em;align-items:flex-start;min-height:44px}
.svc-addon input{margin-top:.3em;width:1.1em;height:1.1em;accent-color:var(--svc-accent)}
.svc-spotlight{padding:.9em;border-radius:8px;border:1px solid var(--svc-accent);background:var(--svc-soft)}
.svc-bundle{padding:.75em;border:1px solid var(--svc-line);border-radius:8px;margin-bottom:.6em}
.svc-bundle label{display:grid;gap:.2em;margin:.5em 0;font-size:.9em}
.svc-root [aria-disabled=true]{opacity:.5;cursor:not-allowed}
`

let injected = false

export function injectStyles (): void {
  if (injected) return
  injected = true
  const style = document.createElement('style')
  style.id = 'svc-drawer-styles'
  style.textContent = CSS
  document.head.appendChild(style)
}

/** The settings as custom properties and classes on the drawer's root. */
export function applyTheme (root: HTMLElement, config: DrawerConfig, reducedMotion: boolean): number {
  const duration = config.animation === 'none' || reducedMotion ? 0 : config.animation_duration
  const properties: Record<string, string> = {
    '--svc-c-bg': config.colors.background,
    '--svc-c-text': config.colors.text,
    '--svc-c-primary': config.colors.primary,
    '--svc-c-accent': config.colors.accent,
    '--svc-w': `${config.width_desktop}px`,
    '--svc-wm': `${config.width_mobile}vw`,
    '--svc-r': `${config.border_radius}px`,
    '--svc-d': `${duration}ms`
  }
  for (const [name, value] of Object.entries(properties)) root.style.setProperty(name, value)
  root.classList.toggle('svc-dark', config.dark_mode === 'dark')
  root.classList.toggle('svc-auto', config.dark_mode === 'auto')
  return duration
}
