import type { LauncherSettings } from '../schemas/settings.ts'
import { logicalSide } from './direction.ts'
import { h, icon } from './dom.ts'
import type { I18n } from './i18n.ts'
import type { CartState } from './types.ts'

const BAG = 'M7 7V6a5 5 0 0 1 10 0v1h3l-1 14H5L4 7h3zm2 0h6V6a3 3 0 0 0-6 0v1z'

/** The floating button that opens the drawer (settings `launcher`: enabled, corner, count badge, total). */
export class Launcher {
  readonly element: HTMLButtonElement
  readonly #badge = h('span', { class: 'svc-badge', 'aria-hidden': 'true' })
  readonly #total = h('span', { class: 'svc-launcher-total', 'aria-hidden': 'true' })
  #settings: LauncherSettings
  readonly #i18n: I18n

  constructor (settings: LauncherSettings, i18n: I18n, controls: string, onOpen: () => void) {
    this.#settings = settings
    this.#i18n = i18n
    this.element = h('button', {
      type: 'button',
      class: 'svc-launcher',
      'aria-haspopup': 'dialog',
      'aria-expanded': 'false',
      'aria-controls': controls,
      'data-svc': 'launcher',
      onclick: onOpen
    }, icon(BAG), this.#total, ' ', this.#badge)
    this.update(settings, null)
  }

  get visible (): boolean {
    return this.#settings.enabled
  }

  update (settings: LauncherSettings, cart: CartState | null): void {
    this.#settings = settings
    const [vertical, side] = settings.position.split('-') as ['top' | 'bottom', 'left' | 'right']
    this.element.hidden = !settings.enabled
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
