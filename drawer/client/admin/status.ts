import { h } from '../dom.ts'
import { serverText } from './api.ts'
import { tNodes } from './i18n.ts'
import { placeOf } from './labels.ts'

export type StatusKind = 'ok' | 'error' | 'warning'

/**
 * A problem next to a setting: the screen's own words (`lang` unset), or a message of the server's validation, in
 * English (`lang: 'en'`): the service checks the settings and writes its messages in English.
 */
export interface Problem {
  text: string
  lang?: string
}
export type Problems = Record<string, Problem>

/** The server's `{path: message}` as problems (its messages are English). */
export const serverProblems = (params: Record<string, string>): Problems =>
  Object.fromEntries(Object.entries(params).map(([path, text]) => [path, { text: String(text), lang: 'en' }]))

/** A problem's text as a node: marked with its language when it is not the page's. */
export const problemNode = (problem: Problem): Node => problem.lang === undefined ? document.createTextNode(problem.text) : serverText(problem.text)

/** The screen's message area: one sentence, optional problem list and buttons; announced to screen readers. */
export class StatusArea {
  readonly element = h('div', { class: 'admin-status', role: 'status', 'aria-live': 'polite', 'data-role': 'status' })

  /** `text`: a sentence, or its parts (a message with the server's words in it, see `tNodes`). */
  show (kind: StatusKind, text: string | Node | Node[], extra: Array<HTMLElement | null> = []): void {
    this.element.dataset.kind = kind
    this.element.setAttribute('role', kind === 'error' ? 'alert' : 'status')
    this.element.replaceChildren(h('span', {}, ...(Array.isArray(text) ? text : [text])), ...extra.filter((node): node is HTMLElement => node !== null))
  }

  clear (): void {
    this.element.replaceChildren()
    delete this.element.dataset.kind
  }
}

/**
 * `{path: problem}` as a list. With `onPick` (problems of the form), each line names the setting as the screen does
 * (`Drawer › Button colour: …`) and is a button to its field; without (problems of an imported file), each line
 * names the key in the file (`settings.drawer_config.colors.primary: …`).
 */
export function problemList (problems: Problems, onPick?: (path: string) => void): HTMLElement {
  return h('ul', { class: 'admin-problems', 'data-role': 'problems' }, ...Object.entries(problems).map(([path, problem]) => {
    if (onPick === undefined) return h('li', {}, ...tNodes('problem.line', { place: h('code', { translate: 'no' }, path), problem: problemNode(problem) }))
    const link = h('button', { type: 'button', class: 'admin-link', 'data-problem': path }, ...tNodes('problem.line', { place: placeOf(path), problem: problemNode(problem) }))
    link.addEventListener('click', () => { onPick(path) })
    return h('li', {}, link)
  }))
}
