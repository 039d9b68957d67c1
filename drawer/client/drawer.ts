import type { DrawerPageConfig } from '../schemas/drawer-page-config.ts'
import type { DrawerConfig, LauncherSettings } from '../schemas/settings.ts'
import type { BehaviourSettings } from '../schemas/settings-behaviour.ts'
// The stylesheet first: it shares little with the code, and placed before it in the bundle it leaves the code's
// modules within gzip's 32 KiB window of each other (the script is some 130 bytes smaller gzipped).
import { applyTheme, injectStyles } from './styles.ts'
import { Analytics } from './analytics.ts'
import { createAnnouncer } from './announce.ts'
import { Api } from './api.ts'
import { Dialog } from './dialog.ts'
import { logicalSide, prefersReducedMotion } from './direction.ts'
import { h, replaceKeepingFocus, safeUrl } from './dom.ts'
import { ApiError, describe } from './errors.ts'
import { onAddedToCart } from './events.ts'
import { cartFromFragments } from './fragment.ts'
import type { I18n } from './i18n.ts'
import { Launcher } from './launcher.ts'
import { renderBundles } from './render/bundles.ts'
import { createCouponForm, renderAppliedCoupons, type CouponForm } from './render/coupons.ts'
import { lineName, renderLines } from './render/lines.ts'
import { renderRecommendations } from './render/products.ts'
import { renderAddons, renderSpotlight } from './render/pro.ts'
import { renderRewards } from './render/rewards.ts'
import { renderTotals } from './render/totals.ts'
import { cartUpdated, emit, type CloseSource, type OpenSource } from './page-events.ts'
import { Store, type DrawerState } from './store.ts'
import type { Bundle, BundleCompanions, CartItem, CartState, DrawerData, Product, SmartAddon } from './types.ts'

const DRAWER_ID = 'svc-drawer'

export interface DrawerOptions {
  /** The drawer's words and number formats (the locale chosen, its catalog, the shop's overrides). */
  i18n: I18n
  /** Record drawer events (Pro). Default true; the admin screens' live preview turns it off. */
  analytics?: boolean
}

function section (name: string, label?: string): HTMLElement {
  return h('section', { class: 'svc-section', 'data-svc': name, 'aria-label': label, hidden: true })
}

/**
 * The drawer: builds the launcher and the dialog, keeps the state (`Store`), talks to the server (`Api`) and draws
 * each part again when its data changes. After an `added_to_cart` event it works from the fragment alone; the other
 * parts (recommendations, Pro widgets) are brought up to date at the shopper's next step in the drawer.
 */
export class Drawer {
  readonly #config: DrawerPageConfig
  readonly #pro: boolean
  readonly #api: Api
  readonly #store = new Store()
  readonly #analytics: Analytics
  readonly #announcer = createAnnouncer()
  readonly #i18n: I18n
  #drawerConfig: DrawerConfig
  #launcherSettings: LauncherSettings
  /** The settings' `behaviour` (absent from an older page: as before it, without undo). */
  #behaviour: BehaviourSettings | undefined
  #undoTimer = 0
  #duration = 0
  /** Sections older than the cart (after a fragment): refreshed at the shopper's next step. */
  #stale = false
  /** Requests under way that load or change the cart: while there is one, the drawer is busy and its cart actions are off. */
  #pending = 0
  readonly #viewed = new Set<number>()

  readonly #root = h('div', { class: 'svc-root', 'data-svc': 'root', 'data-state': 'loading' })
  readonly #overlay = h('div', { class: 'svc-overlay', hidden: true })
  readonly #close: HTMLButtonElement
  /** Words and a number: isolated (`<bdi>`), so that a right-to-left page does not turn "(3 items)" into "(items 3)". */
  readonly #count = h('bdi', { class: 'svc-meta', 'data-svc': 'count' })
  readonly #alert = h('div', { class: 'svc-alert', role: 'alert', 'data-svc': 'error', dir: 'auto' })
  readonly #lines: HTMLElement
  readonly #meter: HTMLElement
  readonly #addons: HTMLElement | null
  readonly #spotlight: HTMLElement | null
  readonly #bundles: HTMLElement | null
  readonly #recs = section('recommendations')
  readonly #coupon: CouponForm
  readonly #totals = h('div', { 'data-svc': 'totals' })
  readonly #checkout: HTMLAnchorElement
  /** After a remove: the line's name and an Undo button, for `behaviour.undo_seconds` (a status: it is read out). */
  readonly #undo = h('div', { class: 'svc-undo', role: 'status', 'data-svc': 'undo' })
  readonly #clear: HTMLButtonElement
  /** Clear cart's question, in the button's place: "Remove every item from your cart? Remove all · Keep the items". */
  readonly #ask: HTMLElement
  readonly #cartLink: HTMLAnchorElement
  readonly #body: HTMLElement
  readonly #drawer: HTMLElement
  readonly #launcher: Launcher
  readonly #dialog: Dialog

  constructor (config: DrawerPageConfig, options: DrawerOptions) {
    const i18n = this.#i18n = options.i18n
    this.#config = config
    // The drawer's language and direction: a right-to-left locale reads right to left on any page; a left-to-right one
    // follows the page (an English drawer on a right-to-left page is mirrored, as before).
    this.#root.lang = i18n.tag
    if (i18n.dir === 'rtl') this.#root.dir = 'rtl'
    this.#close = h('button', { type: 'button', class: 'svc-close', 'aria-label': i18n.t('close'), 'data-fk': 'close' }, '×')
    this.#lines = h('div', { 'data-svc': 'cart' }, h('p', { class: 'svc-empty' }, i18n.t('loading')))
    this.#coupon = createCouponForm(i18n, (code) => { this.applyCoupon(code) })
    this.#pro = config.edition === 'pro'
    this.#api = new Api(config)
    this.#analytics = new Analytics(this.#api, this.#pro && (!SVC_PREVIEW || options.analytics !== false))
    this.#drawerConfig = config.drawerConfig
    this.#launcherSettings = config.launcher
    this.#behaviour = config.behaviour
    this.#meter = section('meter', i18n.t('rewardsTitle'))
    this.#addons = this.#pro ? section('addons') : null
    this.#spotlight = this.#pro ? section('spotlight') : null
    this.#bundles = this.#pro ? section('bundles') : null
    this.#checkout = h('a', { class: 'svc-btn svc-btn-wide', href: this.#checkoutUrl, 'data-svc': 'checkout' }, i18n.t('checkout'))
    this.#cartLink = h('a', { class: 'svc-link', hidden: true }, i18n.t('viewCart'))
    const ask = i18n.t('clearAsk')
    const keep = h('button', { type: 'button', class: 'svc-link', onclick: () => { this.#asking(false, this.#clear) } }, i18n.t('clearNo'))
    this.#ask = h('div', { class: 'svc-ask', role: 'group', 'aria-label': ask, hidden: true }, h('b', {}, ask), h('button', {
      type: 'button',
      class: 'svc-link',
      onclick: () => {
        this.#asking(false, this.#close)
        this.clearCart()
      }
    }, i18n.t('clearYes')), keep)
    this.#clear = h('button', { type: 'button', class: 'svc-link', hidden: true, onclick: () => { this.#asking(true, keep) } }, i18n.t('clearCart'))
    this.#checkout.addEventListener('click', () => {
      const cart = this.#store.state.cart
      this.#analytics.track('checkout_click', cart ? { value: Number(cart.cartTotal) } : {})
    })
    this.#close.addEventListener('click', () => { this.close('close_button') })
    this.#drawer = h('div', {
      id: DRAWER_ID,
      class: 'svc-drawer',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'svc-drawer-title',
      tabindex: '-1',
      hidden: true,
      'data-svc': 'drawer'
    },
    h('div', { class: 'svc-head' }, h('h2', { id: 'svc-drawer-title' }, i18n.t('title')), this.#count, this.#close),
    this.#alert,
    this.#body = h('div', { class: 'svc-body' }, this.#meter, this.#undo, this.#lines, this.#addons, this.#spotlight, this.#coupon.element, this.#recs, this.#bundles),
    h('div', { class: 'svc-foot' }, this.#totals, h('div', { class: 'svc-acts' }, this.#cartLink, this.#clear, this.#ask), this.#checkout))
    // A control switched off while the cart loads does nothing: no handler runs, no link is followed, no box ticks.
    this.#drawer.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('[aria-disabled="true"]')) {
        event.preventDefault()
        event.stopPropagation()
      }
    }, true)
    this.#launcher = new Launcher(config.launcher, i18n, DRAWER_ID, () => { this.open('launcher') })
    this.#dialog = new Dialog({
      root: this.#root,
      drawer: this.#drawer,
      overlay: this.#overlay,
      initialFocus: () => this.#close,
      returnFocus: (opener) => this.#launcher.visible ? this.#launcher.element : opener?.isConnected ? opener : null,
      side: () => this.#drawerConfig.position,
      duration: () => this.#duration,
      onChange: (open, source) => {
        this.#launcher.expanded(open)
        emit(open ? 'svc:open' : 'svc:close', { source })
        if (!open) {
          this.#analytics.track('drawer_close')
          if (this.#stale) this.#quietly(() => this.#refreshSections())
        }
      }
    })
    this.#store.subscribe((state, previous) => {
      this.#render(state, previous)
      this.#lock(state.busy)
    })
    this.#applySettings(config.drawerConfig, config.launcher)
  }

  /** Puts the launcher and the dialog into the page and listens for adds. */
  mount (): void {
    injectStyles()
    this.#root.append(this.#launcher.element, this.#overlay, this.#drawer, this.#announcer.element)
    document.body.appendChild(this.#root)
    onAddedToCart((fragments) => { this.#onAdded(fragments) })
    document.addEventListener('click', (event) => {
      const opener = event.target instanceof Element ? event.target.closest('[data-svc-drawer-open]') : null
      if (opener === null) return
      event.preventDefault()
      this.open('link')
    })
  }

  /** Page load: the Cart-Token (and settings) from the Store API cart, then the drawer's data. */
  async init (): Promise<void> {
    try {
      await this.#loading(async () => {
        const cart = await this.#api.loadToken()
        const svc = cart.extensions?.svc
        if (svc?.drawer_config && svc.launcher) this.#applySettings(svc.drawer_config, svc.launcher)
        await Promise.all([this.#refreshAll(false), this.#pro ? this.#loadBundles() : null])
      })
      await this.#loadCompanions()
    } catch (error) {
      this.#store.set({ error: describe(error, this.#i18n) })
    } finally {
      this.#root.dataset.state = 'ready'
    }
  }

  /** Opens the drawer; `quiet` shows it without taking the keyboard focus (honoured in the admin screens' preview only). */
  open (source: OpenSource = 'api', quiet = false): void {
    if (!this.#dialog.isOpen) this.#analytics.track('drawer_open', { data: { source } })
    this.#dialog.open(quiet, source)
    if (this.#stale && source !== 'add_to_cart') this.#quietly(() => this.#refreshSections())
    this.#trackViews()
  }

  close (source: CloseSource = 'api'): void {
    this.#dialog.close(source)
  }

  /**
   * The cart and every section read from the server again and drawn (`window.svcDrawer.refresh()`: the host's own UI
   * changed the cart); done when the promise resolves. A failure is shown in the drawer, as a page load's is.
   */
  refresh (): Promise<void> {
    return this.#quietly(() => this.#loading(() => this.#refreshAll(this.#dialog.isOpen)))
  }

  // ---- the admin screens' live preview: in the admin script only (`SVC_PREVIEW`) -------------------------------------

  /** Takes the drawer out of the page (the admin screens' preview draws a new one in another language). */
  unmount (): void {
    if (SVC_PREVIEW) {
      this.#dialog.close()
      this.#root.remove()
    }
  }

  /** Draws the drawer and the launcher with other settings (the admin screens' live preview). */
  applySettings (drawer: DrawerConfig, launcher: LauncherSettings, behaviour = this.#behaviour): void {
    if (SVC_PREVIEW) {
      this.#behaviour = behaviour
      this.#applySettings(drawer, launcher)
      this.sample(null, false)
    }
  }

  /**
   * The admin preview's samples (nothing is sent): the cart drawn again, or one made from it by `edit`; the undo row
   * of its first line, or none.
   */
  sample (edit: ((cart: CartState) => CartState) | null, undo: boolean): void {
    if (SVC_PREVIEW) {
      const { cart } = this.#store.state
      if (cart) this.#store.setCart(edit?.(cart) ?? { ...cart })
      this.#offerUndo(undo ? cart?.cartItems[0] ?? null : null, false)
    }
  }

  // ---- cart changes ----------------------------------------------------------------------------------------------

  setQuantity (item: CartItem, quantity: number): void {
    this.#run(async () => {
      try {
        await this.#api.store('POST', 'cart/update-item', { key: item.key, quantity })
      } finally {
        await this.#refreshAll(false)
      }
      this.#say(this.#i18n.t('quantityChanged', { name: lineName(item), quantity }))
    })
  }

  remove (item: CartItem): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'cart/remove-items', { keys: [item.key] })
      this.#offerUndo(item)
      await this.#changed(cart, this.#i18n.t('removed', { name: lineName(item) }))
    })
  }

  /** Undo: the removed line's product (its variation and attributes) in its quantity, through the Store API's add-item. */
  #restore (item: CartItem): void {
    this.#run(async () => {
      try {
        await this.#api.store('POST', 'cart/add-item', { id: item.variation_id || item.product_id, quantity: item.quantity, variation: item.variation })
      } finally {
        await this.#refreshAll(false)
      }
      this.#offerUndo(null)
      this.#say(this.#i18n.t('added', { name: lineName(item) }))
    })
  }

  /**
   * "X removed from the cart. Undo" for `undo_seconds`: focus, which was on the line's remove button, moves to Undo
   * (its `data-fk` names the line), and the row stays while a keyboard user is on it (`:focus-visible`). Null takes
   * it away, focus going to the restored line's controls, else to the close button. Untimed: the admin preview's sample.
   */
  #offerUndo (item: CartItem | null, timed = true): void {
    const seconds = this.#behaviour?.undo_seconds ?? 0
    const name = item === null ? '' : lineName(item)
    const row = item !== null && seconds > 0 && [
      this.#i18n.t('removed', { name }),
      h('button', { type: 'button', class: 'svc-link', 'data-fk': `undo:${item.key}`, onclick: () => { this.#restore(item) } }, this.#i18n.t('undo'))
    ]
    clearTimeout(this.#undoTimer)
    replaceKeepingFocus(this.#undo, row || [], this.#fallback)
    const expire = () => {
      if (this.#undo.querySelector(':focus-visible')) this.#undoTimer = window.setTimeout(expire, 1000)
      else this.#offerUndo(null)
    }
    if (this.#undo.firstChild && (!SVC_PREVIEW || timed)) this.#undoTimer = window.setTimeout(expire, seconds * 1000)
  }

  /**
   * Clear cart asks first, in the button's place, focus on keeping the items; an answer puts the button back (a cart
   * change does too). After "Remove all" focus waits on the close button: the button goes with the lines.
   */
  #asking (on: boolean, focus: HTMLElement): void {
    this.#ask.hidden = !on
    this.#clear.hidden = on
    focus.focus()
  }

  /** Removes every removable line in one `cart/remove-items` (locked lines stay). */
  clearCart (): void {
    this.#run(async () => {
      const keys = this.#store.state.cart?.cartItems.filter((item) => item.removable).map((item) => item.key) ?? []
      this.#offerUndo(null)
      await this.#changed(await this.#api.svc('POST', 'cart/remove-items', { keys: keys.slice(0, 100) }), this.#i18n.t('cleared'))
    })
  }

  applyCoupon (code: string): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'coupon', { code })
      this.#coupon.input.value = ''
      this.#analytics.track('coupon_apply', { data: { code: code.slice(0, 200) } })
      this.#store.set({ couponMessage: '' })
      await this.#changed(cart, this.#i18n.t('couponApplied', { code }))
      this.#reveal(this.#coupon.element)
    }, (message) => {
      this.#store.set({ couponMessage: message })
      this.#reveal(this.#coupon.element)
      return true
    })
  }

  removeCoupon (code: string): void {
    this.#run(async () => {
      await this.#changed(await this.#api.svc('DELETE', 'coupon', { code }), this.#i18n.t('couponRemoved', { code }))
    })
  }

  addRecommendation (product: Product): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'recommendations/add', { product_id: product.id })
      this.#analytics.track('recommendation_add', { product_id: product.id, value: Number(product.prices.price) })
      await this.#changed(cart, this.#i18n.t('added', { name: product.name }))
    })
  }

  toggleAddon (addon: SmartAddon, active: boolean): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'smart-addons/toggle', { addon_id: addon.id, active })
      this.#analytics.track('addon_toggle', {
        product_id: addon.product.id,
        ...(active ? { value: Number(addon.product.prices.price) } : {}),
        data: { addon_id: addon.id, active }
      })
      await this.#changed(cart, this.#i18n.t(active ? 'added' : 'removed', { name: addon.label }))
    })
  }

  addBundle (bundleId: string, productIds: number[], title: string): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'bundle-builder/add', { bundle_id: bundleId, product_ids: productIds })
      this.#analytics.track('bundle_add', { data: { bundle_id: bundleId } })
      await this.#changed(cart, this.#i18n.t('bundleAdded', { title }))
    })
  }

  addSpotlight (product: Product): void {
    this.#run(async () => {
      const cart = await this.#api.svc<CartState>('POST', 'spotlight/add', { product_id: product.id })
      this.#analytics.track('spotlight_add', { product_id: product.id, value: Number(product.prices.price) })
      await this.#changed(cart, this.#i18n.t('added', { name: product.name }))
    })
  }

  // ---- internals -------------------------------------------------------------------------------------------------

  /** Specification §4.1.4: the cart from the fragment, the drawer opens, and nothing is requested. */
  #onAdded (fragments: unknown): void {
    const cart = cartFromFragments(fragments)
    if (cart === null) {
      // No `.svc-cart-json` (the service is off, or another extension broke the fragments): ask the server.
      if (this.#openOnAdd) this.open('add_to_cart')
      this.#quietly(() => this.#loading(() => this.#refreshAll(true)))
      return
    }
    const { state } = this.#store
    const before = new Map(state.cart?.cartItems.map((item) => [item.key, item.quantity]) ?? [])
    const added = cart.cartItems.find((item) => item.quantity > (before.get(item.key) ?? 0))
    const keys = new Set(cart.cartItems.map((item) => item.key))
    this.#store.setCart(cart, {
      error: '',
      addons: state.addons.map((addon) => ({ ...addon, active: addon.key !== null && keys.has(addon.key) }))
    })
    this.#stale = true
    if (this.#openOnAdd) this.open('add_to_cart')
    this.#say(added ? this.#i18n.t('added', { name: lineName(added) }) : this.#i18n.t('updated'))
  }

  /** Checkout: `behaviour.checkout_url`, else the platform's. */
  get #checkoutUrl (): string {
    return safeUrl(this.#behaviour?.checkout_url) ?? this.#config.checkoutUrl
  }

  /** `behaviour.open_on_add`: off, an add only updates the launcher and is announced. */
  get #openOnAdd (): boolean {
    return this.#behaviour?.open_on_add !== false
  }

  /** One drawer action at a time; a refusal is shown in words (a 409 brings the cart as it stands). */
  async #run (work: () => Promise<void>, onError?: (message: string) => boolean): Promise<void> {
    if (this.#pending > 0) return
    this.#store.set({ error: '' })
    await this.#loading(async () => {
      try {
        await work()
      } catch (error) {
        const cart = error instanceof ApiError ? error.data.cart as CartState | undefined : undefined
        if (cart && Array.isArray(cart.cartItems)) this.#store.setCart(cart)
        const message = describe(error, this.#i18n)
        if (!onError?.(message)) this.#store.set({ error: message })
        this.#announcer.say(message)
      }
    })
  }

  /** Work that loads or changes the cart: the drawer is busy (its cart actions off) until every such work has ended. */
  async #loading<T> (work: () => Promise<T>): Promise<T> {
    if (this.#pending++ === 0) this.#store.set({ busy: true })
    try {
      return await work()
    } finally {
      if (--this.#pending === 0) this.#store.set({ busy: false })
    }
  }

  /**
   * While busy, every action on the cart is off: buttons and boxes say so (`aria-disabled`, focus stays where it
   * is) and clicks on them are stopped, quantities are read-only, and Checkout is no link until the cart is known.
   */
  #lock (busy: boolean): void {
    for (const control of this.#drawer.querySelectorAll<HTMLElement>('.svc-body button, .svc-body input, .svc-foot a, .svc-foot button')) {
      if (control === this.#coupon.input) continue
      if (busy) control.setAttribute('aria-disabled', 'true')
      else control.removeAttribute('aria-disabled')
      if (control instanceof HTMLInputElement) control.readOnly = busy
    }
    if (busy) {
      this.#checkout.removeAttribute('href')
      this.#checkout.setAttribute('role', 'link')
    } else {
      this.#checkout.href = this.#checkoutUrl
      this.#checkout.removeAttribute('role')
    }
  }

  /** Scrolls the drawer's body to show the element (the coupon form's answer, which redrawn lines may push out of view). */
  #reveal (element: HTMLElement): void {
    const body = this.#body.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    if (box.bottom > body.bottom) this.#body.scrollTop += Math.min(box.bottom - body.bottom, box.top - body.top)
    else if (box.top < body.top) this.#body.scrollTop -= body.top - box.top
  }

  /** A background refresh: a failure is shown, never thrown. */
  async #quietly (work: () => Promise<void>): Promise<void> {
    try {
      await work()
    } catch (error) {
      this.#store.set({ error: describe(error, this.#i18n) })
    }
  }

  /** A cart state from a `svc/v1` change, then the sections that depend on the cart. */
  async #changed (cart: CartState, text: string): Promise<void> {
    this.#store.setCart(cart)
    this.#say(text)
    await this.#refreshSections()
  }

  #say (text: string): void {
    const cart = this.#store.state.cart
    this.#announcer.say(cart ? `${text} ${this.#i18n.t('summary', { count: cart.cartCount, total: this.#i18n.money(cart.cartTotal, cart.currency) })}` : text)
  }

  /** `GET drawer-data`: the cart and every section of the edition. An answer older than the cart is not used for it. */
  async #refreshAll (announce: boolean): Promise<void> {
    const since = this.#store.cartVersion
    const data = await this.#api.svc<DrawerData>('GET', 'drawer-data')
    const sections = this.#sections(data)
    if (data.cart) this.#store.setCart(data.cart, sections, since)
    else this.#store.set(sections)
    this.#stale = false
    if (announce) this.#say(this.#i18n.t('updated'))
  }

  async #refreshSections (): Promise<void> {
    const fields = this.#pro ? 'recommendations,smart_addons,spotlight' : 'recommendations'
    this.#stale = false
    this.#store.set(this.#sections(await this.#api.svc<DrawerData>('GET', `drawer-data?fields=${fields}`)))
    await this.#loadCompanions()
  }

  #sections (data: DrawerData): Partial<DrawerState> {
    const patch: Partial<DrawerState> = {}
    if (data.recommendations) patch.recommendations = data.recommendations.products
    if (data.smart_addons) patch.addons = data.smart_addons
    if ('spotlight' in data) patch.spotlight = data.spotlight ?? null
    return patch
  }

  /** Pro: the bundles on offer (public and cacheable). A server without the route leaves the builder out. */
  async #loadBundles (): Promise<void> {
    try {
      const bundles = await this.#api.publicGet<Bundle[]>('bundle-builder/configs')
      this.#store.set({ bundles: Array.isArray(bundles) ? bundles : [] })
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 501)) throw error
    }
  }

  /** Pro: the bundles around the newest cart line that can be part of one (`bundle-builder/companions`). */
  async #loadCompanions (): Promise<void> {
    const { bundles, cart, companions } = this.#store.state
    if (!this.#pro || bundles.length === 0 || cart === null) return
    const inBundles = new Set(bundles.flatMap((bundle) => bundle.slots.flatMap((slot) => slot.products.map((product) => product.id))))
    const line = [...cart.cartItems].reverse().find((item) => inBundles.has(item.product_id) && !cart.optionalLockedKeys.includes(item.key))
    if (line === undefined) {
      if (companions !== null) this.#store.set({ companions: null })
      return
    }
    if (companions?.productId === line.product_id) return
    try {
      const found = await this.#api.svc<BundleCompanions>('GET', `bundle-builder/companions?product_id=${line.product_id}`)
      this.#store.set({ companions: { productId: line.product_id, name: lineName(line), bundles: found } })
    } catch (error) {
      if (!(error instanceof ApiError) || error.status < 404 || error.status === 429) throw error
    }
  }

  #applySettings (drawer: DrawerConfig, launcher: LauncherSettings): void {
    this.#drawerConfig = drawer
    this.#launcherSettings = launcher
    this.#duration = applyTheme(this.#root, drawer, prefersReducedMotion())
    this.#drawer.classList.toggle('svc-slide', drawer.animation === 'slide')
    this.#drawer.classList.toggle('svc-fade', drawer.animation === 'fade')
    this.#drawer.dataset.side = logicalSide(drawer.position)
    this.#launcher.update(launcher, this.#store.state.cart)
  }

  #trackViews (): void {
    if (!this.#dialog.isOpen || this.#recs.hidden) return
    for (const card of this.#recs.querySelectorAll<HTMLElement>('[data-product-id]')) {
      const id = Number(card.dataset.productId)
      if (this.#viewed.has(id)) continue
      this.#viewed.add(id)
      this.#analytics.track('recommendation_view', { product_id: id })
    }
  }

  /** Where focus goes when the element that had it is gone: the same line's other control, else the close button. */
  #fallback = (key: string | undefined): HTMLElement => {
    const line = key?.split(':')[1]
    const same = line ? this.#drawer.querySelector<HTMLElement>(`[data-fk$=":${CSS.escape(line)}"]:not(:disabled)`) : null
    return same ?? this.#close
  }

  #fill (container: HTMLElement | null, nodes: Node[]): void {
    if (container === null) return
    replaceKeepingFocus(container, nodes, this.#fallback)
    container.hidden = nodes.length === 0
  }

  /**
   * A line whose presentation row carries `customPresentation` (set by a `svc_cart_item_data` filter) is handed to
   * the shop's own renderer: a `svc-drawer:custom-line` event on the line's element, with the item and that data.
   */
  #customLines (cart: CartState): void {
    for (const item of cart.cartItems) {
      const custom = item.presentation?.customPresentation
      if (!custom) continue
      const element = this.#lines.querySelector(`[data-key="${CSS.escape(item.key)}"]`)
      element?.dispatchEvent(new CustomEvent('svc-drawer:custom-line', { bubbles: true, detail: { item, customPresentation: custom } }))
    }
  }

  #render (state: DrawerState, previous: DrawerState): void {
    this.#drawer.setAttribute('aria-busy', String(state.busy))
    if (state.error !== previous.error) this.#alert.textContent = state.error
    if (state.couponMessage !== previous.couponMessage) this.#coupon.note.textContent = state.couponMessage
    const { cart } = state
    const cartChanged = cart !== previous.cart
    const behaviour = this.#behaviour
    const empty = !cart?.cartItems.some((item) => item.visible)
    if (cart !== null && cartChanged) {
      const more = behaviour?.empty_state
      replaceKeepingFocus(this.#lines, [...renderLines(cart, {
        setQuantity: (item, quantity) => { this.setQuantity(item, quantity) },
        remove: (item) => { this.remove(item) }
      }, this.#i18n), empty && more?.continue_shopping &&
        h('a', { class: 'svc-btn svc-go', href: safeUrl(more.continue_url) ?? this.#config.shopUrl ?? '/' }, this.#i18n.t('continueShopping'))], this.#fallback)
      this.#customLines(cart)
      this.#count.textContent = this.#i18n.t('count', { count: cart.cartCount })
      replaceKeepingFocus(this.#totals, renderTotals(cart, this.#i18n), this.#fallback)
      replaceKeepingFocus(this.#coupon.applied, renderAppliedCoupons(cart, this.#i18n, (code) => { this.removeCoupon(code) }), this.#fallback)
      this.#checkout.hidden = cart.cartItems.length === 0
      this.#cartLink.hidden = !behaviour?.cart_link || this.#checkout.hidden
      this.#cartLink.href = safeUrl(behaviour?.cart_url) ?? this.#config.cartUrl ?? ''
      this.#clear.hidden = !behaviour?.clear_cart || !cart.cartItems.some((item) => item.removable)
      this.#ask.hidden = true
      this.#launcher.update(this.#launcherSettings, cart)
      emit('svc:cart-updated', cartUpdated(cart))
    }
    const inCart = new Set(cart?.cartItems.map((item) => item.product_id) ?? [])
    if (cartChanged || state.recommendations !== previous.recommendations) {
      this.#fill(this.#recs, renderRecommendations(empty && behaviour?.empty_state.recommendations === false ? [] : state.recommendations, inCart, this.#i18n, (product) => { this.addRecommendation(product) }))
      this.#trackViews()
    }
    if (cartChanged) this.#fill(this.#meter, renderRewards(cart?.rewards, cart, this.#i18n))
    if (!this.#pro) return
    if (state.addons !== previous.addons) this.#fill(this.#addons, renderAddons(state.addons, this.#i18n, (addon, active) => { this.toggleAddon(addon, active) }))
    if (cartChanged || state.spotlight !== previous.spotlight) {
      const spotlight = state.spotlight
      this.#fill(this.#spotlight, renderSpotlight(spotlight, cart, this.#i18n, () => { if (spotlight) this.addSpotlight(spotlight.product) }))
    }
    if (state.bundles !== previous.bundles || state.companions !== previous.companions) {
      this.#fill(this.#bundles, renderBundles(state.bundles, state.companions, this.#i18n, (id, products, title) => { this.addBundle(id, products, title) }))
    }
  }
}
