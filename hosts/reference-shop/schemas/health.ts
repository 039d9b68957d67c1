import { Type, type Static } from 'typebox'
import { ErrorBody } from '../../../kernel/schemas/error.ts'

/** Response schemas of `GET /healthz` and `GET /readyz`. */

export const HealthSchema = Type.Object({
  status: Type.Literal('ok')
}, { description: 'The process answers.' })
export type HealthBody = Static<typeof HealthSchema>

const CheckSchema = Type.Object({
  backend: Type.String({ description: 'Which implementation answered, e.g. `pglite`, `postgres`, `redis`, `memory`.' }),
  status: Type.Enum(['ok', 'unavailable'])
})

const RateCounterCheckSchema = Type.Object({
  backend: Type.String({ description: 'Which implementation counts, e.g. `redis`, `memory`.' }),
  status: Type.Enum(['ok', 'degraded', 'unavailable'], {
    description: '`degraded`: the shared store (Redis) does not answer and the limits are counted per instance, each allowing `ceil(limit / SVC_INSTANCES)`; the service is ready.'
  }),
  counting: Type.Optional(Type.Enum(['shared', 'per_instance'], {
    description: 'Where the counts are kept now, on a counter with a per-instance fallback (Redis): `shared` by every instance, or `per_instance` while Redis does not answer.'
  }))
})

const ViewCacheCheckSchema = Type.Object({
  backend: Type.String({ description: 'Where guest carts\' rendered views are kept, e.g. `redis`, `memory`.' }),
  status: Type.Enum(['ok', 'degraded'], {
    description: '`degraded`: the view cache does not answer and is bypassed: reads go to the database, writes go on and are told to the cache once it answers; the service is ready.'
  }),
  state: Type.Enum(['shared', 'bypassed'], {
    description: 'Whether this instance uses the view cache now (`shared`) or goes to the database while it does not answer (`bypassed`).'
  })
})

export const ReadinessSchema = Type.Object({
  status: Type.Enum(['ready', 'unavailable']),
  checks: Type.Object({
    storage: CheckSchema,
    rate_counter: RateCounterCheckSchema,
    view_cache: Type.Optional(ViewCacheCheckSchema)
  })
}, { title: 'Readiness', description: 'Whether storage and the rate counters answer: 200 when both do (the rate counters may be degraded: counting per instance; the view cache, present where one is kept, may be degraded: bypassed), else 503.' })
export type ReadinessBody = Static<typeof ReadinessSchema>

/** `/readyz` with 503: not ready, or an error of a hook (in the WordPress shape) that answered first. */
export const NotReadySchema = Type.Union([ReadinessSchema, ErrorBody], { description: 'Not ready.' })
