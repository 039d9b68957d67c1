import { t } from './i18n.ts'

/** The login form of the admin pages (for a guest) and the header's logout button. */
export function wireLogin (urls: { loginUrl: string, logoutUrl: string }): void {
  const form = document.getElementById('admin-login')
  if (form instanceof HTMLFormElement) {
    const message = document.getElementById('admin-login-message')
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const fields = new FormData(form)
      const button = form.querySelector('button')
      if (button) button.disabled = true
      fetch(urls.loginUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email: String(fields.get('email') ?? ''), password: String(fields.get('password') ?? '') })
      }).then(async (response) => {
        if (response.ok) {
          location.reload()
          return
        }
        const body = await response.json().catch(() => ({})) as { message?: string }
        if (message) message.textContent = body.message ?? t('login.failed')
      }).catch(() => {
        if (message) message.textContent = t('login.offline')
      }).finally(() => {
        if (button) button.disabled = false
      })
    })
  }
  document.getElementById('admin-logout')?.addEventListener('click', () => {
    fetch(urls.logoutUrl, { method: 'POST', credentials: 'same-origin' }).finally(() => { location.reload() })
  })
}
