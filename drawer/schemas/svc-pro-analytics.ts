import { Type, type Static, type TInteger } from 'typebox'
import { LINE_ORIGINS } from '../domain/analytics-report.ts'
import { CurrencyBlockSchema } from '../../kernel/schemas/store-api-common.ts'

/** Request and response schemas of the Pro edition's analytics routes (specification §4.2, design §3.7). */

/** The drawer events the service records, in the order summaries list them. */
export const ANALYTICS_EVENT_TYPES = [
  'drawer_open', 'drawer_close', 'recommendation_view', 'recommendation_add', 'addon_toggle', 'bundle_add',
  'spotlight_add', 'coupon_apply', 'checkout_click'
] as const
export type AnalyticsEventType = typeof ANALYTICS_EVENT_TYPES[number]

export const MAX_EVENTS_PER_BATCH = 50
/** Largest `value` of an event (still checked, then ignored: see `AnalyticsEventBody`). */
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
    description: 'Accepted for compatibility with earlier drawer scripts, checked, and ignored: nothing of it is stored or counted ' +
      '(attributed revenue comes from placed orders).'
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

/** Minor units as a string of a whole number. */
const Money = (description: string) => Type.String({ pattern: '^[0-9]+$', description: `${description} Minor units, as a string of an integer.` })
const Count = (description: string) => Type.Integer({ minimum: 0, description })

/** The drawer lines of one control, or of one product, in the counted orders. */
const ShareProperties = {
  units: Count('Units of the drawer lines.'),
  orders: Count('Orders holding such a line.'),
  revenue: Money('The drawer lines\' totals (after discounts, before tax).')
}

export const AnalyticsSummarySchema = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  totals: CountsSchema,
  daily: Type.Array(Type.Object({
    day: Type.String({ format: 'date' }),
    counts: CountsSchema,
    orders: Count('Counted orders placed that day.'),
    drawer_orders: Count('Of them, the orders holding a line the drawer added.'),
    attributed_revenue: Money('The totals of that day\'s drawer lines.')
  }), { description: 'Every day of the range, in order, days without events or orders included.' }),
  drawer_adds: Count('Events: recommendation_add, addon_toggle with `active: true`, bundle_add and spotlight_add.'),
  add_to_cart_rate: Type.Number({ minimum: 0, description: 'Drawer adds per drawer_open; 0 without opens.' }),
  attributed_revenue: Money('Computed from placed orders, never from events: the totals (after discounts, before tax; no shipping or fees) of the order lines the drawer\'s own routes added (recommendations/add, spotlight/add, smart-addons/toggle, bundle-builder/add), in the counted orders.'),
  attributed_units: Count('Units of those lines.'),
  orders: Type.Object({
    placed: Count('Orders placed in the range whose status is processing, on-hold or completed (pending, failed, cancelled and refunded orders are not counted).'),
    with_drawer_items: Count('Of them, the orders holding at least one line the drawer added.'),
    net_sales: Money('The counted orders\' lines: after discounts, before tax; no shipping or fees.'),
    average_order_value: Money('`net_sales` per counted order, halves rounded up; 0 without orders.'),
    drawer_average_order_value: Money('The same over the orders with drawer items (all their lines).')
  }, { description: 'Placed orders, by their UTC day; not subject to the events\' retention.' }),
  conversion: Type.Object({
    carts_opened: Count('Carts (visitors) that opened the drawer in the range.'),
    carts_ordered: Count('Of them, the carts that placed an order afterwards in the range.'),
    rate: Type.Number({ minimum: 0, maximum: 1, description: '`carts_ordered / carts_opened`; 0 without opens.' })
  }, { description: 'Drawer-to-order conversion, from the events: a cart counts as ordered when the checkout placed its order (recorded by the service, never by the browser).' }),
  sources: Type.Array(Type.Object({ source: Type.Enum(LINE_ORIGINS), ...ShareProperties }),
    { description: 'Attributed revenue by the drawer control that added the lines: every control, in a fixed order.' }),
  top_products: Type.Array(Type.Object({ product_id: Type.Integer({ minimum: 1 }), name: Type.String(), ...ShareProperties }),
    { maxItems: 10, description: 'The products of drawer lines (a variation counts for its product): most attributed revenue first, then most units; at most 10.' }),
  currency: CurrencyBlockSchema,
  visitors: Count('Distinct visitors (carts) with drawer events in the range.'),
  retention_days: Type.Integer({ minimum: 1, description: 'Events older than this many days are deleted (`analytics.retention_days`); orders are kept.' })
}, { title: 'SvcAnalyticsSummary' })
export type AnalyticsSummary = Static<typeof AnalyticsSummarySchema>

/** The reports `analytics/export` writes. */
export const ANALYTICS_EXPORTS = ['days', 'products'] as const
export type AnalyticsExport = typeof ANALYTICS_EXPORTS[number]

export const AnalyticsExportQuery = Type.Object({
  from: Type.Optional(Day('First day (YYYY-MM-DD, UTC, inclusive); default 29 days before `to`.')),
  to: Type.Optional(Day('Last day (YYYY-MM-DD, UTC, inclusive); default today.')),
  report: Type.Optional(Type.Enum(ANALYTICS_EXPORTS, {
    default: 'days',
    description: '`days` (default): a row per day of the range with the events, orders and attributed revenue; `products`: a row per product of drawer lines (at most 100).'
  }))
})

export const AnalyticsCsvSchema = Type.String({
  title: 'SvcAnalyticsCsv',
  description: 'UTF-8 CSV (RFC 4180: comma-separated, CRLF, a byte-order mark for spreadsheets), a header row first; amounts in major units with a dot (`12.50`); a text cell starting with = + - @ is prefixed with an apostrophe.'
})

export const AnalyticsResetSchema = Type.Object({
  deleted: Type.Integer({ minimum: 0, description: 'Events deleted.' })
}, { title: 'SvcAnalyticsReset' })
