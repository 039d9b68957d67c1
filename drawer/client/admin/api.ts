import type { AdminPageConfig } from '../../schemas/admin-page-config.ts'
import { h } from '../dom.ts'
import { ApiError, errorFrom } from '../errors.ts'
import { t } from './i18n.ts'

type Method = 'GET' | 'POST' | 'DELETE'

/**
 * The admin screens' client for the `svc/v1` admin routes: the login cookie goes with every request, and the REST
 * nonce in `X-WP-Nonce`. A refused nonce (403 `svc_invalid_nonce`, say after 24 hours on the page) is renewed once
 * from `GET /account/rest-nonce`.
 */
export class AdminApi {
  readonly #config: AdminPageConfig
  #nonce: string | null

  constructor (config: AdminPageConfig) {
    this.#config = config
    this.#nonce = config.nonce
  }

  /** The raw answer of an admin route (the caller reads the body: JSON, or a file). */
  async response (method: Method, path: string, body?: unknown, retry = true): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (this.#nonce !== null) headers['X-WP-Nonce'] = this.#nonce
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(`${this.#config.restRoot}svc/v1/${path}`, {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    } catch {
      throw new ApiError(0, 'network', '')
    }
    if (response.ok) return response
    const error = await errorFrom(response)
    if (retry && error.status === 403 && error.code === 'svc_invalid_nonce' && await this.#renewNonce()) {
      return this.response(method, path, body, false)
    }
    throw error
  }

  async json<T> (method: Method, path: string, body?: unknown): Promise<T> {
    return await (await this.response(method, path, body)).json() as T
  }

  async #renewNonce (): Promise<boolean> {
    try {
      const response = await fetch(this.#config.nonceUrl, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      if (!response.ok) return false
      this.#nonce = ((await response.json()) as { nonce: string }).nonce
      return true
    } catch {
      return false
    }
  }
}

/**
 * What the manager reads for a refusal: words for a lost connection, a lost login or a busy server, else the server's
 * own message. The service writes its messages in English: they are marked `lang="en"` inside a page of another
 * language (screen readers read them as English, and nothing takes them for the page's language).
 */
export function explain (error: unknown): Node {
  const words = (text: string) => document.createTextNode(text)
  if (!(error instanceof ApiError)) return words(t('error.generic'))
  if (error.status === 0) return words(t('error.offline'))
  if (error.status === 401) return words(t('error.loggedOut'))
  if (error.status === 429) return words(error.retryAfter === null ? t('error.busy') : t('error.busyWait', { seconds: error.retryAfter }))
  return error.message ? serverText(error.message) : words(t('error.http', { status: error.status }))
}

/** A message the server wrote (in English): marked as such, with its own direction. */
export function serverText (message: string): HTMLElement {
  return h('span', { lang: 'en', dir: 'auto' }, message)
}
