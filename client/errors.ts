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

/** What the shopper reads for an error: always words, never a status code alone. */
export function describe (error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.'
  if (error.status === 0) return 'The shop could not be reached. Check your connection and try again.'
  if (error.status === 429) {
    const wait = error.retryAfter
    return wait === null
      ? 'Too many requests. Please wait a moment and try again.'
      : `Too many requests. Please wait ${wait} ${wait === 1 ? 'second' : 'seconds'} and try again.`
  }
  if (error.status === 503) {
    const text = error.message || 'The shop is temporarily unavailable.'
    return /try again/i.test(text) ? text : `${text} Please try again in a moment.`
  }
  if (error.status >= 500) return 'The shop ran into a problem. Please try again.'
  return error.message || 'This could not be done. Please try again.'
}
