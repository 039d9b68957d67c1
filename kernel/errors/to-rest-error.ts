import type { FastifyError } from 'fastify'
import { isStorageUnavailable } from '../../storage/contract/index.ts'
import { restError } from './codes.ts'
import { RestError } from './rest-error.ts'

interface ValidationIssue {
  instancePath?: string
  message?: string
  params?: Record<string, unknown>
}

/** `{field: message}` for every failed rule, so a client sees all problems at once. */
function paramsFromValidation (issues: ValidationIssue[], context: string | undefined): Record<string, string> {
  const params: Record<string, string> = {}
  for (const issue of issues) {
    const missing = issue.params?.missingProperty
    const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.')
    const field = typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : (path || context || 'body')
    params[field] ??= issue.message ?? 'is invalid'
  }
  return params
}

/** Maps anything a handler, hook or Fastify itself throws onto the one error shape. */
export function toRestError (error: unknown): { error: RestError, unexpected: boolean } {
  if (error instanceof RestError) return { error, unexpected: false }
  if (isStorageUnavailable(error)) return { error: restError('svc_storage_unavailable'), unexpected: false }
  // SQLSTATE class 22 (data exception): a value from the request the database cannot hold, such as an id past the
  // integer range that a schema let through. The client's mistake, not a server error.
  const sqlState = (error as { code?: unknown } | null)?.code
  if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState)) {
    return { error: restError('svc_invalid_params', 'A value in the request is out of range.'), unexpected: false }
  }

  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] }
  if (Array.isArray(fastifyError.validation)) {
    const params = paramsFromValidation(fastifyError.validation, fastifyError.validationContext)
    const fields = Object.keys(params).join(', ')
    return { error: restError('svc_invalid_params', `Invalid parameter(s): ${fields}`, { params }), unexpected: false }
  }

  const status = fastifyError.statusCode ?? 500
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { error: restError('svc_body_too_large'), unexpected: false }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { error: restError('svc_unsupported_media_type'), unexpected: false }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { error: restError('svc_invalid_json'), unexpected: false }
  }
  if (status === 413) return { error: restError('svc_body_too_large'), unexpected: false }
  if (status === 404) return { error: restError('svc_not_found'), unexpected: false }
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, bad content length…) carry messages meant for the client.
    const code = status === 400 && fastifyError instanceof SyntaxError ? 'svc_invalid_json' : 'svc_invalid_params'
    return { error: new RestError(code, fastifyError.message ?? 'Bad request.', status), unexpected: false }
  }
  return { error: restError('svc_internal_error'), unexpected: true }
}
