import type { FastifyReply, FastifyRequest } from 'fastify'
import { RestError, toRestError } from '../../../kernel/errors/index.ts'

/** The codes WordPress's REST server answers with where the service's own vocabulary has its `svc_` names. */
const WORDPRESS_CODES: Readonly<Record<string, string>> = {
  svc_invalid_params: 'rest_invalid_param',
  svc_invalid_json: 'rest_invalid_json',
  svc_not_found: 'rest_no_route'
}

/**
 * The Store API's error handler: the one error shape, with the codes a WordPress REST client expects for invalid
 * parameters, invalid JSON and unknown routes (`rest_invalid_param`, `rest_invalid_json`, `rest_no_route`).
 */
export function storeApiErrorHandler (thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { error, unexpected } = toRestError(thrown)
  if (unexpected) request.log.error({ err: thrown }, 'unexpected error')
  else if (error.status >= 500) request.log.warn({ err: thrown }, error.code)
  const code = WORDPRESS_CODES[error.code]
  const answer = code === undefined ? error : new RestError(code, error.message, error.status, error.data, error.headers)
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value)
  return reply.code(answer.status).send(answer.toBody())
}
