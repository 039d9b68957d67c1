import { h } from '../dom.ts'
import { t } from './i18n.ts'

/**
 * Asks before something that cannot be undone: a modal `<dialog>` (focus stays inside, Escape cancels) resolving to
 * true only when the confirming button is chosen.
 */
export function confirmAction (question: string, detail: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', 'data-dialog': 'cancel' }, t('dialog.cancel'))
    const confirm = h('button', { type: 'button', class: 'admin-primary', 'data-dialog': 'confirm' }, confirmLabel)
    const dialog = h('dialog', { class: 'admin-dialog', 'aria-labelledby': 'admin-dialog-title' },
      h('h2', { id: 'admin-dialog-title' }, question),
      h('p', {}, detail),
      h('div', { class: 'admin-dialog-actions' }, cancel, confirm))
    let answer = false
    cancel.addEventListener('click', () => { dialog.close() })
    confirm.addEventListener('click', () => {
      answer = true
      dialog.close()
    })
    dialog.addEventListener('close', () => {
      dialog.remove()
      resolve(answer)
    })
    document.body.appendChild(dialog)
    dialog.showModal()
    cancel.focus()
  })
}
