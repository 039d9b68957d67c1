import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { restError } from './codes.ts'

/**
 * Fastify's router answers a few requests before any hook or error handler runs: a URL it cannot decode, a path
 * parameter over its length limit, a failed async constraint. This keeps those answers in the one error shape.
 */
export function frameworkErrors (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const rest = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? restError('svc_uri_too_long')
    : error.code === 'FST_ERR_BAD_URL'
      ? restError('svc_invalid_params', 'The URL could not be understood.')
      : restError('svc_internal_error')
  reply.code(rest.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(rest.toBody()))
}
