import type { FastifyInstance } from 'fastify'
import { restError } from '../errors/index.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts'

/**
 * Replaces the instance's (or the scope's) JSON body parser with Fastify's own parser (prototype poisoning refused)
 * followed by a depth bound: a body nested deeper than `MAX_JSON_DEPTH` is answered 400 (`svc_invalid_json`, which
 * the Store API's scope answers as `rest_invalid_json`) before any route, validator, merge or copy walks it.
 */
export function boundJsonDepth (fastify: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = fastify.getDefaultJsonParser('error', 'error')
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json')
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, typeof body === 'string' ? body : body.toString('utf8'), (error, value) => {
      if (error) {
        done(error, undefined)
        return
      }
      if (nestsDeeperThan(value, maxDepth)) {
        done(restError('svc_invalid_json', `The request body nests more than ${maxDepth} levels deep.`), undefined)
        return
      }
      done(null, value)
    })
  })
}
