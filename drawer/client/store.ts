import type { Bundle, BundleCompanions, CartState, Product, SmartAddon, Spotlight } from './types.ts'

export interface DrawerState {
  cart: CartState | null
  recommendations: Product[]
  addons: SmartAddon[]
  spotlight: Spotlight
  bundles: Bundle[]
  /** Bundles completed around a product in the cart (`bundle-builder/companions`). */
  companions: { productId: number, name: string, bundles: BundleCompanions } | null
  /** What the drawer says went wrong (shown in words), '' for nothing. */
  error: string
  /** The coupon form's own message (a refusal), '' for nothing. */
  couponMessage: string
  busy: boolean
}

type Listener = (state: DrawerState, previous: DrawerState) => void

/**
 * The drawer's state, one object replaced on every change. Cart states are versioned: an answer to a request that
 * started before the last cart change (say the page-load fetch, overtaken by an add-to-cart fragment) is dropped, so
 * an older cart never overwrites a newer one.
 */
export class Store {
  #state: DrawerState = {
    cart: null,
    recommendations: [],
    addons: [],
    spotlight: null,
    bundles: [],
    companions: null,
    error: '',
    couponMessage: '',
    busy: false
  }

  #listeners: Listener[] = []
  #cartVersion = 0

  get state (): DrawerState {
    return this.#state
  }

  /** The cart version now: pass it back to `setCart` with the answer of a request started now. */
  get cartVersion (): number {
    return this.#cartVersion
  }

  subscribe (listener: Listener): void {
    this.#listeners.push(listener)
  }

  set (patch: Partial<DrawerState>): void {
    const previous = this.#state
    this.#state = { ...previous, ...patch }
    for (const listener of this.#listeners) listener(this.#state, previous)
  }

  /** A new cart state; with `since`, only when no other cart change landed after that version. */
  setCart (cart: CartState, patch: Partial<DrawerState> = {}, since?: number): boolean {
    if (since !== undefined && since !== this.#cartVersion) {
      this.set(patch)
      return false
    }
    this.#cartVersion++
    this.set({ ...patch, cart })
    return true
  }
}
