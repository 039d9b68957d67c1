import type { I18n } from './i18n.ts'

/** A refused or failed request, with the server's error body (`{code, message, data}`) when there was one. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly data: Record<string, unknown>
  /** Seconds from `Retry-After` (429), else null. */
  readonly retryAfter: number | null

  constructor (status: number, code: string, message: string, data: Record<string, unknown> = {}, retryAfter: number | null = null) {
    super(message)
    this.status = status
    this.code = code
    this.data = data
    this.retryAfter = retryAfter
  }
}

export async function errorFrom (response: Response): Promise<ApiError> {
  let body: { code?: unknown, message?: unknown, data?: unknown } = {}
  try {
    body = await response.json()
  } catch {}
  const retry = Number(response.headers.get('Retry-After'))
  return new ApiError(
    response.status,
    typeof body.code === 'string' ? body.code : `http_${response.status}`,
    typeof body.message === 'string' ? body.message : '',
    body.data !== null && typeof body.data === 'object' ? body.data as Record<string, unknown> : {},
    Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null
  )
}

/**
 * What the shopper reads for an error: always words, never a status code alone, in the drawer's language. A refusal's
 * own message (a coupon that does not exist, a quantity rule) is the server's text, shown as it came: the shop's
 * platform writes it (in English in the reference platform; WooCommerce translates it into the site's language).
 */
export function describe (error: unknown, i18n: I18n): string {
  if (!(error instanceof ApiError)) return i18n.t('errorGeneric')
  if (error.status === 0) return i18n.t('errorOffline')
  if (error.status === 429) {
    const wait = error.retryAfter
    return wait === null ? i18n.t('errorBusy') : i18n.t('errorBusyWait', { seconds: wait })
  }
  if (error.status === 503) {
    // The server's reason (English) is kept on an English drawer; another language says it in its own words.
    const text = error.message
    if (!text || i18n.locale !== 'en') return i18n.t('errorUnavailable')
    return /try again/i.test(text) ? text : `${text} Please try again in a moment.`
  }
  if (error.status >= 500) return i18n.t('errorServer')
  return error.message || i18n.t('errorRefused')
}
