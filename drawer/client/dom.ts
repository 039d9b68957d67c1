/**
 * Building elements with DOM APIs only: text goes in through text nodes and attributes through `setAttribute`, so a
 * server string (a product name, a coupon label, a message) is never parsed as HTML.
 */

type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | null | undefined | EventListener>

export function h<K extends keyof HTMLElementTagNameMap> (tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  append(element, children)
  return element
}

/** A link or picture address from the server, only when it is http(s) (never `javascript:` or `data:`). */
export function safeUrl (value: string | null | undefined): string | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value, location.href)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

export function append (parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/** An inline SVG icon from path data (our own constants, never server data). */
export function icon (path: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg'
  const svg = document.createElementNS(ns, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  svg.setAttribute('focusable', 'false')
  const shape = document.createElementNS(ns, 'path')
  shape.setAttribute('d', path)
  svg.appendChild(shape)
  return svg
}

/**
 * Replaces a container's children and keeps the keyboard where it was: the element that had focus is found again by
 * its `data-fk` key among the new children, else `fallback(key)` chooses, so a redraw never drops focus to the page.
 */
export function replaceKeepingFocus (container: Element, children: Child[], fallback: (key: string | undefined) => HTMLElement | null): void {
  const active = document.activeElement
  const inside = active instanceof HTMLElement && container.contains(active)
  const key = inside ? active.dataset.fk : undefined
  container.replaceChildren()
  append(container, children)
  if (!inside) return
  const again = key === undefined ? null : container.querySelector<HTMLElement>(`[data-fk="${CSS.escape(key)}"]`)
  const target = again !== null && !again.matches(':disabled') ? again : fallback(key)
  target?.focus()
}
