import type { AdminPageConfig } from '../../plugins/admin-screens/page-config.ts'
import type { DrawerConfig, LauncherSettings } from '../../schemas/settings.ts'
import { h } from '../dom.ts'
import { Drawer } from '../drawer.ts'

/** Messages between the settings screen and its preview frame (same origin only). */
interface PreviewSettings {
  type: 'svc-preview-settings'
  drawer_config: DrawerConfig
  launcher: LauncherSettings
}
interface PreviewReady {
  type: 'svc-preview-ready'
}
/** The frame's drawer is open: it has taken the focus (a modal dialog does), which the screen takes back. */
interface PreviewOpened {
  type: 'svc-preview-opened'
}

/**
 * The settings screen's side of the live preview: a same-origin frame showing the real drawer (the storefront's own
 * script), sent the edited, unsaved `drawer_config` and `launcher` on every change.
 */
export class PreviewFrame {
  readonly element: HTMLElement
  readonly #frame: HTMLIFrameElement
  #latest: PreviewSettings | null = null
  #ready = false

  constructor (url: string) {
    // For looking only (inert, and the focus taken back when its drawer opens): the drawer in it is a modal dialog that
    // takes the focus and keeps Tab inside, which would pull a keyboard user off the settings and hold them there.
    this.#frame = h('iframe', { src: url, title: 'Live preview of the drawer', 'data-role': 'preview', loading: 'eager', inert: true })
    const width = h('select', { 'data-role': 'preview-width' },
      h('option', { value: '' }, 'Fit this space'),
      h('option', { value: '390' }, 'Phone (390 px)'),
      h('option', { value: '1024' }, 'Desktop (1024 px)'))
    width.addEventListener('change', () => { this.#frame.style.width = width.value === '' ? '' : `${width.value}px` })
    this.element = h('aside', { class: 'admin-preview', 'aria-labelledby': 'preview-title' },
      h('div', { class: 'admin-preview-tools' }, h('h2', { id: 'preview-title' }, 'Live preview'), h('label', {}, 'Preview width', width)),
      h('div', { class: 'admin-preview-scroll' }, this.#frame),
      h('p', { class: 'admin-help' }, 'Your own cart, with the settings as they are on this page (not yet saved). Add-ons, bundles and the spotlight show as saved. The preview is for looking only: clicks and the keyboard stay on the settings.'))
    let before: Element | null = null
    document.addEventListener('focusin', (event) => { if (event.target !== this.#frame) before = event.target as Element })
    window.addEventListener('message', (event: MessageEvent<PreviewReady | PreviewOpened>) => {
      if (event.origin !== location.origin || event.source !== this.#frame.contentWindow) return
      if (event.data?.type === 'svc-preview-opened') {
        if (document.activeElement !== this.#frame) return
        this.#frame.blur()
        if (before instanceof HTMLElement && before.isConnected) before.focus()
        return
      }
      if (event.data?.type !== 'svc-preview-ready') return
      this.#ready = true
      this.#send()
    })
  }

  update (drawer: DrawerConfig, launcher: LauncherSettings): void {
    this.#latest = { type: 'svc-preview-settings', drawer_config: drawer, launcher }
    this.#send()
  }

  #send (): void {
    if (this.#ready && this.#latest !== null) this.#frame.contentWindow?.postMessage(this.#latest, location.origin)
  }
}

/**
 * The frame's side: the real `Drawer` (no analytics: a preview is not a shopper), drawn with the settings the screen
 * sends; its data comes from the manager's own cart.
 */
export function startPreviewFrame (config: AdminPageConfig): void {
  let drawer: Drawer | null = null
  let latest: PreviewSettings | null = null
  window.addEventListener('message', (event: MessageEvent<PreviewSettings>) => {
    if (event.origin !== location.origin || event.source !== window.parent || event.data?.type !== 'svc-preview-settings') return
    latest = event.data
    if (drawer !== null) {
      // Before the drawer's first load the Store API's (saved) settings would overwrite these: applied again after it.
      drawer.applySettings(latest.drawer_config, latest.launcher)
      return
    }
    drawer = new Drawer({
      restRoot: config.restRoot,
      edition: config.edition,
      loggedIn: config.nonce !== null,
      nonce: config.nonce,
      nonceUrl: config.nonceUrl,
      checkoutUrl: config.checkoutUrl,
      drawerConfig: latest.drawer_config,
      launcher: latest.launcher
    }, { analytics: false })
    drawer.mount()
    const started = drawer
    started.init().catch(() => {}).finally(() => {
      if (latest !== null) started.applySettings(latest.drawer_config, latest.launcher)
      started.open('api')
      // The dialog took the focus: the frame lets it go, and the screen takes it back.
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur()
      window.parent.postMessage({ type: 'svc-preview-opened' } satisfies PreviewOpened, location.origin)
      document.body.dataset.preview = 'ready'
    })
  })
  window.parent.postMessage({ type: 'svc-preview-ready' } satisfies PreviewReady, location.origin)
}
