import { h } from './dom.ts'

/** A polite live region: cart changes are read out by screen readers without moving focus. */
export function createAnnouncer (): { element: HTMLElement, say: (text: string) => void } {
  const element = h('div', { class: 'svc-sr', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-svc': 'live' })
  let timer = 0
  return {
    element,
    say (text) {
      // Cleared first, so the same sentence twice is announced twice.
      element.textContent = ''
      clearTimeout(timer)
      timer = window.setTimeout(() => { element.textContent = text }, 50)
    }
  }
}
