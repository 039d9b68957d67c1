import { logicalSide } from './direction.ts'
import type { CloseSource, OpenSource } from './page-events.ts'

const FOCUSABLE = 'a[href],button:not(:disabled),input:not(:disabled):not([type=hidden]),select:not(:disabled),textarea:not(:disabled),[tabindex]:not([tabindex="-1"])'

export interface DialogParts {
  root: HTMLElement
  drawer: HTMLElement
  overlay: HTMLElement
  /** Where focus goes on opening. */
  initialFocus: () => HTMLElement
  /** Where focus goes on closing (the launcher when shown, else the element that had focus before). */
  returnFocus: (opener: HTMLElement | null) => HTMLElement | null
  side: () => 'left' | 'right'
  duration: () => number
  /** Opened or closed, and by what. */
  onChange: (open: boolean, source: OpenSource | CloseSource) => void
}

/**
 * The drawer as a modal dialog: focus moves in on opening and is trapped inside (Tab and Shift+Tab cycle; focus that
 * lands outside is brought back), Escape or a click on the overlay closes it, and focus then goes back where the
 * shopper was. The page does not scroll behind it.
 */
export class Dialog {
  readonly #parts: DialogParts
  #open = false
  #opener: HTMLElement | null = null
  #timer = 0
  #overflow = ''

  constructor (parts: DialogParts) {
    this.#parts = parts
    parts.overlay.addEventListener('click', () => { this.close('overlay') })
    parts.drawer.addEventListener('keydown', (event) => this.#trapTab(event))
    document.addEventListener('keydown', (event) => {
      if (this.#open && event.key === 'Escape') {
        event.preventDefault()
        this.close('escape')
      }
    })
    document.addEventListener('focusin', (event) => {
      if (this.#open && event.target instanceof Node && !parts.drawer.contains(event.target)) this.#focusables()[0]?.focus()
    })
  }

  get isOpen (): boolean {
    return this.#open
  }

  /**
   * Opens the dialog and moves the focus in. In the admin screens' script (`SVC_PREVIEW`), `quiet` only shows it: the
   * preview, drawn for looking at in a frame, must not take the settings screen's focus, nor give it back on closing.
   */
  open (quiet: boolean, source: OpenSource): void {
    const { root, drawer, overlay } = this.#parts
    if (this.#open) {
      if (!SVC_PREVIEW || !quiet) this.#parts.initialFocus().focus()
      return
    }
    this.#open = true
    clearTimeout(this.#timer)
    const active = document.activeElement
    this.#opener = active instanceof HTMLElement && active !== document.body ? active : null
    drawer.dataset.side = logicalSide(this.#parts.side())
    drawer.hidden = false
    overlay.hidden = false
    drawer.getBoundingClientRect() // lays out the closed position first, so the transition runs
    root.classList.add('svc-open')
    this.#overflow = document.documentElement.style.overflow
    document.documentElement.style.overflow = 'hidden'
    if (!SVC_PREVIEW || !quiet) this.#parts.initialFocus().focus()
    this.#parts.onChange(true, source)
  }

  close (source: CloseSource = 'api'): void {
    if (!this.#open) return
    const { root, drawer, overlay } = this.#parts
    this.#open = false
    root.classList.remove('svc-open')
    document.documentElement.style.overflow = this.#overflow
    const hide = () => {
      drawer.hidden = true
      overlay.hidden = true
    }
    const duration = this.#parts.duration()
    if (duration > 0) this.#timer = window.setTimeout(hide, duration)
    else hide()
    // A quiet preview never had the focus: it gives back only what it holds.
    if (!SVC_PREVIEW || drawer.contains(document.activeElement)) this.#parts.returnFocus(this.#opener)?.focus()
    this.#opener = null
    this.#parts.onChange(false, source)
  }

  #focusables (): HTMLElement[] {
    return [...this.#parts.drawer.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0)
  }

  #trapTab (event: KeyboardEvent): void {
    if (event.key !== 'Tab') return
    const focusables = this.#focusables()
    const first = focusables[0]
    const last = focusables[focusables.length - 1]
    if (first === undefined || last === undefined) {
      event.preventDefault()
      return
    }
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === this.#parts.drawer)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }
}
