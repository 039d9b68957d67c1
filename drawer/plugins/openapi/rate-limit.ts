import type { RateLimit } from '../security/index.ts'

/**
 * The rate limits of the `svc/v1` routes in the document. The security plugin counts a limited route's requests
 * per client IP and per visitor and, once a request is counted, answers with `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining`, whatever the status; a refusal is a 429 with `Retry-After`. A request refused before it
 * is counted (a forbidden origin, a bad Cart-Token, nonce or login, a counter store that does not answer) carries
 * neither header.
 */

/** The operation extension that carries a route's limit from its declared rules into the document. */
export const RATE_LIMIT_EXTENSION = 'x-rate-limit'

export interface RateLimitExtension {
  /** Requests allowed in one window, per client IP and per visitor. */
  limit: number
  window_seconds: number
}

type Json = Record<string, unknown>

export function rateLimitExtension (rateLimit: RateLimit): RateLimitExtension {
  return { limit: rateLimit.max, window_seconds: rateLimit.windowMs / 1000 }
}

function windowName (seconds: number): string {
  if (seconds === 60) return 'a minute'
  if (seconds === 3600) return 'an hour'
  return `${seconds} seconds`
}

/** The sentence an operation's description gets for its limit. */
export function rateLimitSentence ({ limit, window_seconds: seconds }: RateLimitExtension): string {
  return `Rate limited: ${limit} requests ${windowName(seconds)} per client IP and per visitor ` +
    '(`X-RateLimit-Limit`, `X-RateLimit-Remaining`); past that, 429 `svc_rate_limit_exhausted` with `Retry-After`.'
}

const integer = { type: 'integer', minimum: 0 }

export function retryAfterHeader (required: boolean, description: string): Json {
  return { description, required, schema: integer }
}

/** The rate-limit headers of one response of a limited route. */
export function rateLimitHeaders (status: string): Record<string, Json> {
  // A success and the refusal itself are always counted; any other answer only when it came after the count.
  const counted = /^2/.test(status) || status === '429'
  const when = counted ? '' : ' Sent when the request was counted before it failed; absent when it was refused before (origin, access, counter store).'
  const headers: Record<string, Json> = {
    'X-RateLimit-Limit': { description: `Requests allowed in the window.${when}`, required: counted, schema: integer },
    'X-RateLimit-Remaining': { description: `Requests left in the window (the smaller of the per-IP and per-visitor counts).${when}`, required: counted, schema: integer }
  }
  if (status === '503') {
    headers['Retry-After'] = retryAfterHeader(false, 'Seconds to wait, when the rate counter store does not answer (`svc_rate_limit_unavailable`).')
  }
  return headers
}

/** Every answer of an operation with an `x-rate-limit` gets the headers its status carries. */
export function addRateLimitHeaders (operation: Json): void {
  const responses = operation.responses as Record<string, Json> | undefined
  if (operation[RATE_LIMIT_EXTENSION] === undefined || responses === undefined) return
  for (const [status, response] of Object.entries(responses)) {
    response.headers = { ...rateLimitHeaders(status), ...(response.headers as Json | undefined) }
  }
}

/** Every 429 of the app (a route's limit or the login's) is `svc_rate_limit_exhausted` with `Retry-After`. */
export function addRetryAfterToRefusals (operation: Json): void {
  const refusal = (operation.responses as Record<string, Json> | undefined)?.['429']
  if (refusal === undefined) return
  refusal.headers = {
    ...(refusal.headers as Json | undefined),
    'Retry-After': retryAfterHeader(true, 'Seconds until the exhausted window ends.')
  }
}
