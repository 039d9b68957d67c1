import { h } from '../dom.ts'
import { placeOf } from './labels.ts'

export type StatusKind = 'ok' | 'error' | 'warning'

/** The screen's message area: one sentence, optional problem list and buttons; announced to screen readers. */
export class StatusArea {
  readonly element = h('div', { class: 'admin-status', role: 'status', 'aria-live': 'polite', 'data-role': 'status' })

  show (kind: StatusKind, text: string, extra: Array<HTMLElement | null> = []): void {
    this.element.dataset.kind = kind
    this.element.setAttribute('role', kind === 'error' ? 'alert' : 'status')
    this.element.replaceChildren(h('span', {}, text), ...extra.filter((node): node is HTMLElement => node !== null))
  }

  clear (): void {
    this.element.replaceChildren()
    delete this.element.dataset.kind
  }
}

/**
 * `{path: message}` as a list. With `onPick` (problems of the form), each line names the setting as the screen does
 * (`Drawer › Button colour: …`) and is a button to its field; without (problems of an imported file), each line
 * names the key in the file (`settings.drawer_config.colors.primary: …`).
 */
export function problemList (problems: Record<string, string>, onPick?: (path: string) => void): HTMLElement {
  return h('ul', { class: 'admin-problems', 'data-role': 'problems' }, ...Object.entries(problems).map(([path, message]) => {
    if (onPick === undefined) return h('li', {}, h('code', {}, path), `: ${message}`)
    const link = h('button', { type: 'button', class: 'admin-link', 'data-problem': path }, `${placeOf(path)}: ${message}`)
    link.addEventListener('click', () => { onPick(path) })
    return h('li', {}, link)
  }))
}
