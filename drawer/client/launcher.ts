import type { LauncherSettings } from '../schemas/settings.ts'
import { logicalSide } from './direction.ts'
import { h, icon } from './dom.ts'
import type { I18n } from './i18n.ts'
import type { CartState } from './types.ts'

/** The launcher's icons (settings `launcher.icon`): path data in a 24 × 24 box, drawn in the button's colour. */
const ICONS: Record<string, string> = {
  bag: 'M7 7V6a5 5 0 0 1 10 0v1h3l-1 14H5L4 7h3zm2 0h6V6a3 3 0 0 0-6 0v1z',
  cart: 'M1 3h4l1 3h16l-3 9H8l1 2h11v2H7L4 5H1zm8 16h3v3H9zm7 0h3v3h-3z',
  basket: 'M2 8h20v3h-1l-2 10H5L3 11H2zm5-1 4-5 2 1-3 4zm10 0h-3l-3-4 2-1z'
}

/** Whether the page's path is one of `launcher.hide_on_paths`: exactly, or from its start for a pattern ending in `*`. */
const onPath = (pattern: string): boolean => pattern.endsWith('*') ? location.pathname.startsWith(pattern.slice(0, -1)) : location.pathname === pattern

/**
 * The floating button that opens the drawer (settings `launcher`: enabled, corner, count badge, total, icon, shape,
 * size; hidden on listed paths, and per device class by the styles' media queries).
 */
export class Launcher {
  readonly element: HTMLButtonElement
  readonly #badge = h('span', { class: 'svc-badge', 'aria-hidden': 'true' })
  readonly #total = h('span', { class: 'svc-launcher-total', 'aria-hidden': 'true' })
  #icon = ''
  readonly #i18n: I18n

  constructor (settings: LauncherSettings, i18n: I18n, controls: string, onOpen: () => void) {
    this.#i18n = i18n
    this.element = h('button', {
      type: 'button',
      class: 'svc-launcher',
      'aria-haspopup': 'dialog',
      'aria-expanded': 'false',
      'aria-controls': controls,
      'data-svc': 'launcher',
      onclick: onOpen
    }, icon(''), this.#total, ' ', this.#badge)
    this.update(settings, null)
  }

  /** Shown on this page and screen (focus comes back to it when the drawer closes). */
  get visible (): boolean {
    return this.element.getClientRects().length > 0
  }

  update (settings: LauncherSettings, cart: CartState | null): void {
    const [vertical, side] = settings.position.split('-') as ['top' | 'bottom', 'left' | 'right']
    const { element } = this
    element.hidden = !settings.enabled || (settings.hide_on_paths ?? []).some(onPath)
    // Shape and device classes as classes (`svc-circle`, `svc-no-mobile`): the styles' media queries hide it.
    element.className = ['svc-launcher', `svc-${settings.shape}`, ...(settings.hide_on_devices ?? []).map((device) => `svc-no-${device}`)].join(' ')
    element.style.setProperty('--svc-ls', `${settings.size ?? 44}px`)
    if (this.#icon !== settings.icon) element.firstChild?.replaceWith(icon(ICONS[this.#icon = settings.icon] ?? ICONS.bag!))
    this.element.dataset.v = vertical
    this.element.dataset.side = logicalSide(side)
    const count = cart?.cartCount ?? 0
    const total = cart ? this.#i18n.money(cart.cartTotal, cart.currency) : ''
    this.#badge.textContent = this.#i18n.number(count)
    this.#badge.hidden = !settings.show_count
    this.#total.textContent = total
    this.#total.hidden = !settings.show_total || total === ''
    // The name holds the visible text (the total, then the count: their order in the markup; CSS shows the count
    // first), so that a shopper who says what they see reaches the button (WCAG 2.5.3).
    this.element.setAttribute('aria-label', total ? this.#i18n.t('launcherTotal', { total, count }) : this.#i18n.t('launcher', { count }))
  }

  expanded (open: boolean): void {
    this.element.setAttribute('aria-expanded', String(open))
  }
}
