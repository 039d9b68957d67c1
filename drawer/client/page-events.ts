import type { CartState } from './types.ts'

/** What opened the drawer (`svc:open`'s `source`). */
export type OpenSource = 'add_to_cart' | 'launcher' | 'link' | 'api'
/** What closed it (`svc:close`'s `source`). */
export type CloseSource = 'close_button' | 'escape' | 'overlay' | 'api'

/** `svc:cart-updated`'s detail: the figures the drawer shows, money in minor units as strings (docs/drawer-events.md). */
export interface CartUpdatedDetail {
  /** The sum of the lines' quantities. */
  itemCount: number
  /** The classic cart hash ('' for an empty cart): the `cart_hash` of the platform's fragments. */
  cartHash: string
  totals: {
    subtotal: string
    discount: string
    /** As the drawer lists them: `key`, `name`, `total`, `totalTax`. */
    fees: CartState['cartFees']
    /** Null while no shipping is needed. */
    shipping: string | null
    tax: string
    total: string
  }
  /** The Store API's currency block (`currency_code`, `currency_minor_unit`, separators, prefix, suffix). */
  currency: CartState['currency']
}

export interface PageEventDetails {
  'svc:cart-updated': CartUpdatedDetail
  'svc:open': { source: OpenSource }
  'svc:close': { source: CloseSource }
}

/**
 * The page's events: a bubbling `CustomEvent` on `document`, for the host's own UI (a header count, a mini cart). The
 * admin screens' live preview sends none: its cart is a sample, and no shop page listens in its frame.
 */
export function emit<K extends keyof PageEventDetails> (name: K, detail: PageEventDetails[K]): void {
  if (!SVC_PREVIEW) document.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }))
}

/** The detail, a copy (a listener that changes it changes nothing of the drawer's). */
export function cartUpdated (cart: CartState): CartUpdatedDetail {
  return structuredClone({
    itemCount: cart.cartCount,
    cartHash: cart.cartHash,
    totals: {
      subtotal: cart.cartSubtotal,
      discount: cart.cartDiscount,
      fees: cart.cartFees,
      shipping: cart.cartShipping,
      tax: cart.cartTax,
      total: cart.cartTotal
    },
    currency: cart.currency
  })
}
