import type { ErrorCode } from '../../../kernel/errors/index.ts'

const OVERRIDE_HEADERS = ['x-http-method-override', 'x-method-override'] as const

/** JSONP (`_jsonp`) and HTTP method override (headers or `_method`) are refused on `svc/v1` (specification §4.4). */
export function refusedRequest (headers: Record<string, unknown>, query: URLSearchParams): ErrorCode | null {
  if (query.has('_jsonp')) return 'svc_jsonp_disabled'
  if (query.has('_method') || OVERRIDE_HEADERS.some((name) => headers[name] !== undefined)) return 'svc_method_override_disabled'
  return null
}
