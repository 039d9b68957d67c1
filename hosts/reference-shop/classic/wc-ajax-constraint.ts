import type { FastifyInstance } from 'fastify'

type Strategy = Parameters<FastifyInstance['addConstraintStrategy']>[0]
type Handler = NonNullable<ReturnType<ReturnType<Strategy['storage']>['get']>>

export const WC_AJAX_CONSTRAINT = 'wcAjax'

/**
 * Routes requests by their `wc-ajax` query value, so each classic action is a route of its own (with its own
 * schema) on the same path. A request that names an action with no route gets the 404 of an unknown route.
 */
export function addWcAjaxConstraint (fastify: FastifyInstance): void {
  if (fastify.hasConstraintStrategy(WC_AJAX_CONSTRAINT)) return
  fastify.addConstraintStrategy({
    name: WC_AJAX_CONSTRAINT,
    storage () {
      const handlers = new Map<unknown, Handler>()
      return {
        get: (action: unknown) => handlers.get(action) ?? null,
        set: (action: unknown, handler: Handler) => { handlers.set(action, handler) }
      }
    },
    deriveConstraint (request: { url?: string }) {
      const url = request.url ?? ''
      const query = url.indexOf('?')
      if (query === -1 || !url.includes('wc-ajax=', query)) return undefined
      return new URLSearchParams(url.slice(query + 1)).get('wc-ajax') ?? undefined
    },
    mustMatchWhenDerived: true
  })
}
