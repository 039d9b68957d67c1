/** The minimum of jQuery the drawer uses, when a page has it. */
interface JQueryLike {
  (element: Element): { on (event: string, handler: (event: unknown, ...args: unknown[]) => void): unknown }
}

declare global {
  interface Window {
    jQuery?: JQueryLike
  }
}

export type AddedToCart = (fragments: unknown, button: Element | null) => void

/**
 * Specification §4.1.4 and §6.1: the `added_to_cart` event, as a DOM `CustomEvent` on `document.body` (detail
 * `{fragments, cartHash, button}`) and as the jQuery event of the same name (`fragments, cart_hash, $button`) when
 * jQuery is on the page, now or once the page has loaded. A page that fires both for one add is handled once: both
 * carry the same fragments object.
 */
export function onAddedToCart (handler: AddedToCart): void {
  const seen = new WeakSet<object>()
  const handle = (fragments: unknown, button: Element | null) => {
    if (fragments !== null && typeof fragments === 'object') {
      if (seen.has(fragments)) return
      seen.add(fragments)
    }
    handler(fragments, button)
  }
  document.body.addEventListener('added_to_cart', (event) => {
    const detail = (event as CustomEvent<{ fragments?: unknown, button?: unknown } | null>).detail
    handle(detail?.fragments, detail?.button instanceof Element ? detail.button : null)
  })
  let hooked = false
  const hookJQuery = () => {
    const jQuery = window.jQuery
    if (hooked || typeof jQuery !== 'function') return
    hooked = true
    jQuery(document.body).on('added_to_cart', (_event, fragments, _hash, $button) => {
      const button = ($button as ArrayLike<unknown> | undefined)?.[0]
      handle(fragments, button instanceof Element ? button : null)
    })
  }
  hookJQuery()
  if (!hooked) window.addEventListener('load', hookJQuery, { once: true })
}
