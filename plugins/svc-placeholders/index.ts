import fp from 'fastify-plugin'
import { restError } from '../../errors/index.ts'
import { routesOfEdition, svcRouteOptions, type Edition } from '../security/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD url` of every route that still answers 501 (kept out of the OpenAPI document). */
    svcPlaceholders: readonly string[]
  }
}

export interface SvcPlaceholdersOptions {
  edition: Edition
}

/**
 * Every row of the route table that no route plugin has declared yet answers 501 `svc_not_implemented`, behind
 * the same security rules as a real route. Register it after the route plugins.
 */
export const svcPlaceholdersPlugin = fp<SvcPlaceholdersOptions>(async (fastify, { edition }) => {
  const prefix = `${fastify.shop.restRoot}svc/v1`
  const placeholders: string[] = []
  fastify.decorate('svcPlaceholders', placeholders)
  for (const spec of routesOfEdition(edition)) {
    const url = `${prefix}${spec.path}`
    if (fastify.hasRoute({ method: spec.method, url })) continue
    placeholders.push(`${spec.method} ${url}`)
    fastify.route({
      method: spec.method,
      url,
      ...svcRouteOptions(spec),
      schema: { hide: true },
      handler: async () => {
        throw restError('svc_not_implemented')
      }
    })
  }
}, { name: 'svc-placeholders', fastify: '5.x', dependencies: ['security'] })
