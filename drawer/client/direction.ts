/**
 * The drawer's and the launcher's sides are logical: `right` is the inline end and `left` the inline start, so on a
 * right-to-left page (`dir="rtl"`) they are mirrored by the browser itself (CSS `inset-inline-*`, `:dir(rtl)`).
 */
export function logicalSide (side: 'left' | 'right'): 'start' | 'end' {
  return side === 'right' ? 'end' : 'start'
}

export function prefersReducedMotion (): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false
}
