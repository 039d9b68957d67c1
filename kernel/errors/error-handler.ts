import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { restError } from './codes.ts'
import { toRestError } from './to-rest-error.ts'

/** Answers anything thrown in the WordPress REST shape; a 5xx never shows internals (it is logged instead). */
export function restErrorHandler (thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { error, unexpected } = toRestError(thrown)
  if (unexpected) request.log.error({ err: thrown }, 'unexpected error')
  else if (error.status >= 500) request.log.warn({ err: thrown }, error.code)
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
  return reply.code(error.status).send(error.toBody())
}

/** Every error and every unknown route answers in the WordPress REST shape; a 5xx never shows internals. */
export function installErrorHandling (app: FastifyInstance): void {
  app.setErrorHandler(restErrorHandler)
  app.setNotFoundHandler((_request, reply) => {
    const error = restError('svc_not_found')
    return reply.code(error.status).send(error.toBody())
  })
}
