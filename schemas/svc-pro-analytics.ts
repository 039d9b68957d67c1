import { Type, type Static, type TInteger } from 'typebox'
import { Amount, CurrencyBlockSchema } from './store-api-common.ts'

/** Request and response schemas of the Pro edition's analytics routes (specification §4.2, design §3.7). */

/** The drawer events the service records, in the order summaries list them. */
export const ANALYTICS_EVENT_TYPES = [
  'drawer_open', 'drawer_close', 'recommendation_view', 'recommendation_add', 'addon_toggle', 'bundle_add',
  'spotlight_add', 'coupon_apply', 'checkout_click'
] as const
export type AnalyticsEventType = typeof ANALYTICS_EVENT_TYPES[number]

export const MAX_EVENTS_PER_BATCH = 50
/** Largest `value` of an event (minor units): far above any single add, far below where sums lose exactness. */
export const MAX_EVENT_VALUE = 1_000_000_000_000
/** `data`: a few short, flat values. */
export const MAX_DATA_KEYS = 10
export const MAX_DATA_STRING = 200

/**
 * Unknown properties are refused (400), not dropped: see `closed` in `svc-free.ts`. The events body is checked by
 * TypeBox's compiler rather than Fastify's Ajv (see `analytics-routes.ts`), so it is checked exactly as written.
 */
const closed = { additionalProperties: Type.Never() }

/** A flat value of `data`. */
const DataValue = Type.Union([Type.String({ maxLength: MAX_DATA_STRING }), Type.Number(), Type.Boolean(), Type.Null()])

export const AnalyticsEventBody = Type.Object({
  type: Type.Enum(ANALYTICS_EVENT_TYPES, { description: 'The kind of event.' }),
  product_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The product the event is about.' })),
  value: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: MAX_EVENT_VALUE,
    description: 'Minor units. For an add: the value added to the cart (counted as attributed revenue).'
  })),
  occurred_at: Type.Optional(Type.String({
    format: 'date-time',
    maxLength: 40,
    description: 'When it happened (ISO 8601 with a time zone); default now. A time in the future or before the retention period is recorded as now.'
  })),
  data: Type.Optional(Type.Record(
    Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }),
    DataValue,
    {
      maxProperties: MAX_DATA_KEYS,
      ...closed,
      description: `Up to ${MAX_DATA_KEYS} flat values (snake_case keys; strings up to ${MAX_DATA_STRING} characters). ` +
        'For `addon_toggle`, `active: true` marks the add-on being added (a drawer add); anything else is a removal.'
    }
  ))
}, { ...closed, title: 'SvcAnalyticsEvent' })
export type AnalyticsEventInput = Static<typeof AnalyticsEventBody>

export const AnalyticsEventsBody = Type.Object({
  events: Type.Array(AnalyticsEventBody, { minItems: 1, maxItems: MAX_EVENTS_PER_BATCH, description: `1 to ${MAX_EVENTS_PER_BATCH} events.` })
}, closed)

export const AnalyticsAcceptedSchema = Type.Object({
  accepted: Type.Integer({ minimum: 0, description: 'Events recorded: all of the batch, or 0 while analytics are off.' })
}, { title: 'SvcAnalyticsAccepted' })

const Day = (description: string) => Type.String({ format: 'date', description })

export const AnalyticsSummaryQuery = Type.Object({
  from: Type.Optional(Day('First day (YYYY-MM-DD, UTC, inclusive); default 29 days before `to`.')),
  to: Type.Optional(Day('Last day (YYYY-MM-DD, UTC, inclusive); default today.'))
})

/** `{type: count}` for every event type, zeros included. */
const CountsSchema = Type.Object(
  Object.fromEntries(ANALYTICS_EVENT_TYPES.map((type) => [type, Type.Integer({ minimum: 0 })])) as Record<AnalyticsEventType, TInteger>,
  { description: 'Events per type, every type listed.' }
)

export const AnalyticsSummarySchema = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  totals: CountsSchema,
  daily: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), counts: CountsSchema }), { description: 'Every day of the range, in order, days without events included.' }),
  drawer_adds: Type.Integer({ minimum: 0, description: 'recommendation_add, addon_toggle with `active: true`, bundle_add and spotlight_add events.' }),
  add_to_cart_rate: Type.Number({ minimum: 0, description: 'Drawer adds per drawer_open; 0 without opens.' }),
  attributed_revenue: Amount,
  currency: CurrencyBlockSchema,
  visitors: Type.Integer({ minimum: 0, description: 'Distinct visitors (carts) with events in the range.' })
}, { title: 'SvcAnalyticsSummary' })
export type AnalyticsSummary = Static<typeof AnalyticsSummarySchema>

export const AnalyticsResetSchema = Type.Object({
  deleted: Type.Integer({ minimum: 0, description: 'Events deleted.' })
}, { title: 'SvcAnalyticsReset' })
