import type { CartState } from './types.ts'

/** The key and class of the service's fragment (specification §2.2). */
const FRAGMENT_KEY = '.svc-cart-json'

/**
 * The cart state inside the `.svc-cart-json` fragment of an `added_to_cart` event, or null when there is none.
 * The element's HTML is parsed by `DOMParser` into a detached, inert document (nothing is inserted into the page,
 * no script runs) and its text is read as JSON.
 */
export function cartFromFragments (fragments: unknown): CartState | null {
  if (fragments === null || typeof fragments !== 'object') return null
  const html = (fragments as Record<string, unknown>)[FRAGMENT_KEY]
  if (typeof html !== 'string') return null
  const element = new DOMParser().parseFromString(html, 'text/html').querySelector('script.svc-cart-json')
  if (element === null) return null
  try {
    const state = JSON.parse(element.textContent ?? '') as CartState
    return Array.isArray(state?.cartItems) ? state : null
  } catch {
    return null
  }
}
