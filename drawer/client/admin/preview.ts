import type { AdminPageConfig } from '../../schemas/admin-page-config.ts'
import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { compileCatalog, compileMessage } from '../../../kernel/i18n/compile.ts'
import type { CompiledCatalog, Locale } from '../../../kernel/i18n/locales.ts'
import type { DrawerConfig, LauncherSettings } from '../../schemas/settings.ts'
import type { LanguageSettings } from '../../schemas/settings-language.ts'
import type { BehaviourSettings } from '../../schemas/settings-behaviour.ts'
import type { CartState } from '../types.ts'
import { h } from '../dom.ts'
import { Drawer } from '../drawer.ts'
import { I18n } from '../i18n.ts'
import { t } from './i18n.ts'

/** Messages between the settings screen and its preview frame (same origin only). */
interface PreviewSettings {
  type: 'svc-preview-settings'
  drawer_config: DrawerConfig
  launcher: LauncherSettings
  language: LanguageSettings
  /** The language shown (the texts editor's). */
  locale: Locale
  behaviour: BehaviourSettings
  /** The sample state shown: the cart as it is, just after a remove (the undo row), or emptied. */
  sample: PreviewSample
}
type PreviewSample = '' | 'undo' | 'empty'
interface PreviewReady {
  type: 'svc-preview-ready'
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
  #sample: PreviewSample = ''

  constructor (url: string) {
    // For looking only (inert, and its drawer opened without taking the focus): the drawer in it is a modal dialog that
    // would otherwise take the focus from wherever the manager is on the screen, at whatever moment the frame loads.
    this.#frame = h('iframe', { src: url, title: t('preview.frame'), 'data-role': 'preview', loading: 'eager', inert: true })
    const width = h('select', { 'data-role': 'preview-width' },
      h('option', { value: '' }, t('preview.fit')),
      h('option', { value: '390' }, t('preview.phone', { width: 390 })),
      h('option', { value: '1024' }, t('preview.desktop', { width: 1024 })))
    width.addEventListener('change', () => { this.#frame.style.width = width.value === '' ? '' : `${width.value}px` })
    const sample = h('select', { 'data-role': 'preview-sample' },
      h('option', { value: '' }, t('preview.cart')),
      h('option', { value: 'undo' }, t('preview.undo')),
      h('option', { value: 'empty' }, t('preview.empty')))
    sample.addEventListener('change', () => {
      this.#sample = sample.value as PreviewSample
      if (this.#latest !== null) this.#latest = { ...this.#latest, sample: this.#sample }
      this.#send()
    })
    this.element = h('aside', { class: 'admin-preview', 'aria-labelledby': 'preview-title' },
      h('div', { class: 'admin-preview-tools' },
        h('h2', { id: 'preview-title' }, t('preview.title')), h('label', {}, t('preview.width'), width), h('label', {}, t('preview.show'), sample)),
      h('div', { class: 'admin-preview-scroll' }, this.#frame),
      h('p', { class: 'admin-help' }, t('preview.help')))
    window.addEventListener('message', (event: MessageEvent<PreviewReady>) => {
      if (event.origin !== location.origin || event.source !== this.#frame.contentWindow) return
      if (event.data?.type !== 'svc-preview-ready') return
      this.#ready = true
      this.#send()
    })
  }

  update (drawer: DrawerConfig, launcher: LauncherSettings, language: LanguageSettings, locale: Locale, behaviour: BehaviourSettings): void {
    this.#latest = { type: 'svc-preview-settings', drawer_config: drawer, launcher, language, locale, behaviour, sample: this.#sample }
    this.#send()
  }

  #send (): void {
    if (this.#ready && this.#latest !== null) this.#frame.contentWindow?.postMessage(this.#latest, location.origin)
  }
}

/** The preview's words: the locale's catalog with the shop's texts as typed (one that does not compile yet is left out). */
function previewI18n (language: LanguageSettings, locale: Locale): I18n {
  const texts: CompiledCatalog = {}
  for (const [id, source] of Object.entries(language.texts[locale] ?? {})) {
    if (source === '') continue
    try {
      texts[id] = compileMessage(source, locale)
    } catch {}
  }
  return new I18n(locale, locale, texts, compileCatalog(CATALOGS[locale], locale), compileCatalog(CATALOGS.en, 'en'))
}

/** The sample's cart: no lines, nothing to pay. */
const emptied = (cart: CartState): CartState => ({
  ...cart, cartItems: [], cartCount: 0, cartTotal: '0', cartSubtotal: '0', cartTax: '0', cartDiscount: '0', cartFees: [], coupons: [], cartShipping: null
})

/** The sample drawn: the undo row of the cart's first line, or the cart emptied (nothing is sent to the server). */
function showSample (drawer: Drawer, sample: PreviewSample): void {
  drawer.sample(sample === 'empty' ? emptied : null, sample === 'undo')
}

/**
 * The frame's side: the real `Drawer` (no analytics: a preview is not a shopper), drawn with the settings the screen
 * sends; its data comes from the manager's own cart. Another language or other texts draw a new drawer (its words
 * are set when it is built), a quarter of a second after the last keystroke; so does leaving the empty sample (the
 * cart is read again).
 */
export function startPreviewFrame (config: AdminPageConfig): void {
  let drawer: Drawer | null = null
  let latest: PreviewSettings | null = null
  let words = ''
  let timer = 0
  const build = (settings: PreviewSettings) => {
    drawer?.unmount()
    words = JSON.stringify([settings.locale, settings.language.texts[settings.locale], settings.sample === 'empty'])
    const started = drawer = new Drawer({
      restRoot: config.restRoot,
      edition: config.edition,
      loggedIn: config.nonce !== null,
      nonce: config.nonce,
      nonceUrl: config.nonceUrl,
      checkoutUrl: config.checkoutUrl,
      cartUrl: config.cartUrl,
      shopUrl: config.urls.storefront,
      drawerConfig: settings.drawer_config,
      launcher: settings.launcher,
      behaviour: settings.behaviour
    }, { analytics: false, i18n: previewI18n(settings.language, settings.locale) })
    started.mount()
    started.init().catch(() => {}).finally(() => {
      if (drawer !== started) return
      if (latest !== null) {
        started.applySettings(latest.drawer_config, latest.launcher, latest.behaviour)
        showSample(started, latest.sample)
      }
      // Shown, not focused: the manager's keyboard focus stays where it is on the settings screen.
      started.open('api', true)
      document.body.dataset.preview = 'ready'
      document.body.dataset.previewLocale = settings.locale
    })
  }
  window.addEventListener('message', (event: MessageEvent<PreviewSettings>) => {
    if (event.origin !== location.origin || event.source !== window.parent || event.data?.type !== 'svc-preview-settings') return
    const settings = latest = event.data
    if (drawer === null) return build(settings)
    if (JSON.stringify([settings.locale, settings.language.texts[settings.locale], settings.sample === 'empty']) !== words) {
      clearTimeout(timer)
      timer = window.setTimeout(() => { if (latest !== null) build(latest) }, 250)
      return
    }
    // Before the drawer's first load the Store API's (saved) settings would overwrite these: applied again after it.
    drawer.applySettings(settings.drawer_config, settings.launcher, settings.behaviour)
    showSample(drawer, settings.sample)
  })
  window.parent.postMessage({ type: 'svc-preview-ready' } satisfies PreviewReady, location.origin)
}
