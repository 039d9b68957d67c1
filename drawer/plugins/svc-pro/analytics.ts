import { repeatWhileOpen } from '../../../kernel/lib/index.ts'
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { averageOf, csvTable, decimalAmount, isLineOrigin, LINE_ORIGINS, rateOf } from '../../domain/analytics-report.ts'
import type { Product } from '../../../kernel/domain/types.ts'
import { restError } from '../../../kernel/errors/index.ts'
import {
  ANALYTICS_EVENT_TYPES, type AnalyticsEventInput, type AnalyticsEventType, type AnalyticsExport, type AnalyticsSummary
} from '../../schemas/svc-pro-analytics.ts'
import type { AnalyticsEvent, OrderAttribution, OrderAttributionShare } from '../../../storage/contract/index.ts'
import { currencyBlock } from '../../../kernel/domain/money.ts'

const DAY_MS = 86_400_000
/** A summary spans at most this many days (a leap year). */
export const MAX_SUMMARY_DAYS = 366
/** The default summary: the last 30 days, today included. */
export const DEFAULT_SUMMARY_DAYS = 30
/** Retention on insert: at most one delete per instance in this time, of at most this many events. */
export const PRUNE_INTERVAL_MS = 60_000
export const PRUNE_BATCH = 10_000

/** The products the summary lists, and the products export's rows at most. */
export const TOP_PRODUCTS = 10
export const EXPORT_PRODUCTS = 100
/**
 * The event the service records when the checkout places a cart's order (never sent by the browser: not one of
 * `ANALYTICS_EVENT_TYPES`). It makes no one a visitor; `drawer_open` followed by it is a converted cart.
 */
export const ORDER_EVENT = 'order_placed'

const NO_ORDERS: OrderAttribution = { days: [], origins: [], products: [] }

/** The export's words for the event types (the admin screen's). */
const EVENT_COLUMNS: Record<AnalyticsEventType, string> = {
  drawer_open: 'Drawer opens',
  drawer_close: 'Drawer closes',
  recommendation_view: 'Recommendations seen',
  recommendation_add: 'Recommendations added',
  addon_toggle: 'Add-on toggles',
  bundle_add: 'Bundles added',
  spotlight_add: 'Spotlight adds',
  coupon_apply: 'Coupons applied',
  checkout_click: 'Checkout clicks'
}

/** Keyed-hash label: the visitor key is the signing secret's HMAC of it (see `visitorKey`). */
const VISITOR_KEY_LABEL = 'svc-analytics-visitor-key:v1'

const ADD_TYPES: ReadonlySet<AnalyticsEventType> = new Set(['recommendation_add', 'bundle_add', 'spotlight_add'])

/** Whether an event is an add to the cart from the drawer: counted by the add-to-cart rate and attributed revenue. */
export function isDrawerAdd (event: Pick<AnalyticsEventInput, 'type' | 'data'>): boolean {
  return ADD_TYPES.has(event.type) || (event.type === 'addon_toggle' && event.data?.active === true)
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay (date: Date): string {
  return date.toISOString().slice(0, 10)
}

function dayNumber (day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) / DAY_MS
}

function dayOf (number: number): string {
  return utcDay(new Date(number * DAY_MS))
}

function zeroCounts (): Record<AnalyticsEventType, number> {
  return Object.fromEntries(ANALYTICS_EVENT_TYPES.map((type) => [type, 0])) as Record<AnalyticsEventType, number>
}

function isKnownType (type: string): type is AnalyticsEventType {
  return (ANALYTICS_EVENT_TYPES as readonly string[]).includes(type)
}

/** A share of the drawer lines as the report writes it (none: zeros). */
function share (row: OrderAttributionShare | undefined): { units: number, orders: number, revenue: string } {
  return { units: row?.units ?? 0, orders: row?.orders ?? 0, revenue: row?.revenue ?? '0' }
}

/**
 * The summary's days: `to` defaults to today (UTC), `from` to 29 days before `to`. `from` after `to`, or more than
 * 366 days, is a 400 naming the parameter.
 */
export function summaryRange (query: { from?: string, to?: string }, now: Date): { from: string, to: string } {
  for (const name of ['from', 'to'] as const) {
    const day = query[name]
    // The schema's `date` format already refuses 2025-02-30; this keeps the arithmetic safe without it.
    if (day !== undefined && !(Number.isFinite(dayNumber(day)) && dayOf(dayNumber(day)) === day)) {
      throw restError('svc_invalid_params', `Invalid parameter(s): ${name}`, { params: { [name]: 'must be a date written YYYY-MM-DD' } })
    }
  }
  const to = query.to ?? utcDay(now)
  const from = query.from ?? dayOf(dayNumber(to) - (DEFAULT_SUMMARY_DAYS - 1))
  const days = dayNumber(to) - dayNumber(from) + 1
  if (days < 1) {
    throw restError('svc_invalid_params', 'Invalid parameter(s): from', { params: { from: 'must not be after to' } })
  }
  if (days > MAX_SUMMARY_DAYS) {
    throw restError('svc_invalid_params', 'Invalid parameter(s): to', { params: { to: `must be at most ${MAX_SUMMARY_DAYS} days from from (both included)` } })
  }
  return { from, to }
}

/**
 * The drawer's analytics: events recorded with a pseudonymous visitor, retention, and the summary, all through
 * storage (the counting is done by the database).
 *
 * The visitor is an HMAC-SHA256 of the cart key under a key derived from the shop's first signing secret, so
 * events of one cart share a visitor while neither the cart key nor an IP address is stored, and someone holding
 * only the database cannot link events to stored carts (unless the secret itself lives there, as the embedded
 * default's generated secret does). The key is an HMAC-SHA256 of a fixed label under the drawer's first secret
 * (`cartDrawer`'s `secrets`), in the signed-cookie form the platform's cookie signer gives the same label, so hashes
 * stored before the drawer held its own secrets stay valid; it is computed once and never sent anywhere. Rotating
 * the first secret starts new visitor hashes.
 */
/** `label.` + the label's HMAC-SHA256 in unpadded base64, under `secret`. */
function visitorKey (secret: string): string {
  return `${VISITOR_KEY_LABEL}.${createHmac('sha256', secret).update(VISITOR_KEY_LABEL).digest('base64').replace(/=+$/, '')}`
}

export class DrawerAnalytics {
  readonly #fastify: FastifyInstance
  readonly #visitorKey: string
  #lastPrune = Number.NEGATIVE_INFINITY

  constructor (fastify: FastifyInstance) {
    this.#fastify = fastify
    this.#visitorKey = visitorKey(fastify.drawerSecrets[0]!)
  }

  /** The stored name of the visitor holding `cartKey`. */
  visitorOf (cartKey: string): string {
    return createHmac('sha256', this.#visitorKey).update(cartKey).digest('hex')
  }

  /**
   * Stores a batch in one insert and returns how many were stored: 0, storing nothing, while analytics are off.
   * Times in the future or before the retention period become now. At most once a minute per instance, events
   * past the retention period are deleted (a bounded delete; a failure is logged, the events stay accepted).
   */
  async record (cartKey: string, events: readonly AnalyticsEventInput[]): Promise<number> {
    const { settings } = await this.#fastify.settings.get()
    if (!settings.analytics.enabled) return 0
    const now = this.#fastify.commerce.now()
    const oldest = now.getTime() - settings.analytics.retention_days * DAY_MS
    const visitor = this.visitorOf(cartKey)
    const rows: AnalyticsEvent[] = events.map((event) => {
      const at = event.occurred_at === undefined ? Number.NaN : Date.parse(event.occurred_at)
      const inRange = at >= oldest && at <= now.getTime()
      return {
        type: event.type,
        visitor,
        productId: event.product_id ?? null,
        // `event.value` is not read: what the browser says an add was worth counts for nothing.
        drawerAdd: isDrawerAdd(event),
        occurredAt: (inRange ? new Date(at) : now).toISOString(),
        data: event.data ?? {}
      }
    })
    const accepted = await this.#fastify.drawerStores.analytics.insertAnalyticsEvents(rows)
    await this.#pruneNowAndThen(now, oldest)
    return accepted
  }

  /**
   * The order a cart placed (the checkout's `woocommerce_store_api_checkout_order_processed`): an `order_placed`
   * event of the cart's visitor, now, while analytics are on. What it holds is the visitor and the time: no order id,
   * amount or product, so the events stay unlinked to the orders' customers.
   */
  async recordOrder (cartKey: string): Promise<void> {
    const { settings } = await this.#fastify.settings.get()
    if (!settings.analytics.enabled) return
    await this.#fastify.drawerStores.analytics.insertAnalyticsEvents([{
      type: ORDER_EVENT,
      visitor: this.visitorOf(cartKey),
      productId: null,
      drawerAdd: false,
      occurredAt: this.#fastify.commerce.now().toISOString(),
      data: {}
    }])
  }

  /**
   * A range of UTC days: from the events, the totals, the daily series (every day, zeros included), the add-to-cart
   * rate, distinct visitors and the drawer-to-order conversion; from the placed orders (the commerce port's
   * `orderAttribution`), attributed revenue, the orders, average order values, the drawer's controls and top
   * products. Expired events are deleted first, so none is counted.
   */
  async summary (range: { from: string, to: string }): Promise<AnalyticsSummary> {
    return (await this.#report(range)).summary
  }

  /** The summary, and the order figures it was made from. */
  async #report (range: { from: string, to: string }): Promise<{ summary: AnalyticsSummary, orders: OrderAttribution }> {
    const { retentionDays } = await this.deleteExpired()
    const store = this.#fastify.drawerStores.analytics
    const [data, funnel, orders] = await Promise.all([
      store.analyticsSummary(range.from, range.to, [ORDER_EVENT]),
      store.analyticsFunnel(range.from, range.to, 'drawer_open', ORDER_EVENT),
      this.#orders(range, TOP_PRODUCTS)
    ])

    const first = dayNumber(range.from)
    const daily = Array.from({ length: dayNumber(range.to) - first + 1 }, (_, index) => ({
      day: dayOf(first + index), counts: zeroCounts(), orders: 0, drawer_orders: 0, attributed_revenue: '0'
    }))
    const totals = zeroCounts()
    let adds = 0
    for (const row of data.days) {
      if (!isKnownType(row.type)) continue
      const day = daily[dayNumber(row.day) - first]
      if (day !== undefined) day.counts[row.type] += row.count
      totals[row.type] += row.count
      adds += row.adds
    }
    const sums = { orders: 0, drawerOrders: 0, sales: 0n, drawerOrderSales: 0n, attributed: 0n }
    for (const row of orders.days) {
      const day = daily[dayNumber(row.day) - first]
      if (day !== undefined) Object.assign(day, { orders: row.orders, drawer_orders: row.drawerOrders, attributed_revenue: row.attributed })
      sums.orders += row.orders
      sums.drawerOrders += row.drawerOrders
      sums.sales += BigInt(row.sales)
      sums.drawerOrderSales += BigInt(row.drawerOrderSales)
      sums.attributed += BigInt(row.attributed)
    }
    const sources = LINE_ORIGINS.map((source) => ({ source, ...share(orders.origins.find((row) => row.origin === source)) }))
    const summary: AnalyticsSummary = {
      from: range.from,
      to: range.to,
      totals,
      daily,
      drawer_adds: adds,
      add_to_cart_rate: rateOf(adds, totals.drawer_open),
      attributed_revenue: sums.attributed.toString(),
      attributed_units: orders.origins.filter((row) => isLineOrigin(row.origin)).reduce((units, row) => units + row.units, 0),
      orders: {
        placed: sums.orders,
        with_drawer_items: sums.drawerOrders,
        net_sales: sums.sales.toString(),
        average_order_value: averageOf(sums.sales, sums.orders).toString(),
        drawer_average_order_value: averageOf(sums.drawerOrderSales, sums.drawerOrders).toString()
      },
      conversion: { carts_opened: funnel.started, carts_ordered: funnel.converted, rate: rateOf(funnel.converted, funnel.started) },
      sources,
      top_products: await this.#named(orders.products),
      currency: currencyBlock(this.#fastify.commerce.currency),
      visitors: data.visitors,
      retention_days: retentionDays
    }
    return { summary, orders }
  }

  /**
   * The range as CSV (`analytics/export`): `days`, a row per day with every event type, the orders and the
   * attributed revenue; `products`, a row per product of drawer lines (at most `EXPORT_PRODUCTS`). A header row
   * first; amounts as decimals in the shop's currency, named in the header.
   */
  async exportCsv (range: { from: string, to: string }, report: AnalyticsExport): Promise<string> {
    const { currency } = this.#fastify.commerce
    const amount = (minor: string) => decimalAmount(BigInt(minor), currency.minorUnit)
    if (report === 'products') {
      await this.deleteExpired()
      const products = await this.#named((await this.#orders(range, EXPORT_PRODUCTS)).products)
      return csvTable([
        ['Product ID', 'Product', 'Units added from the drawer', 'Orders', `Attributed revenue (${currency.code})`],
        ...products.map((row) => [row.product_id, row.name, row.units, row.orders, amount(row.revenue)])
      ])
    }
    const { summary, orders } = await this.#report(range)
    const sales = new Map(orders.days.map((day) => [day.day, day.sales]))
    return csvTable([
      ['Date', ...ANALYTICS_EVENT_TYPES.map((type) => EVENT_COLUMNS[type]), 'Orders', 'Orders with drawer items',
        `Net sales (${currency.code})`, `Attributed revenue (${currency.code})`],
      ...summary.daily.map((day) => [day.day, ...ANALYTICS_EVENT_TYPES.map((type) => day.counts[type]), day.orders, day.drawer_orders,
        amount(sales.get(day.day) ?? '0'), amount(day.attributed_revenue)])
    ])
  }

  /**
   * Deletes every event past the retention period (`analytics.retention_days`, on the shop's clock), analytics on or
   * off; answers how many went and the period in days.
   */
  async deleteExpired (): Promise<{ deleted: number, retentionDays: number }> {
    const { settings } = await this.#fastify.settings.get()
    const now = this.#fastify.commerce.now()
    const deleted = await this.#fastify.drawerStores.analytics.deleteAnalyticsBefore(new Date(now.getTime() - settings.analytics.retention_days * DAY_MS).toISOString())
    return { deleted, retentionDays: settings.analytics.retention_days }
  }

  /** The placed orders' figures, or none when the shop does not tell them (the port's `orderAttribution` is optional). */
  async #orders (range: { from: string, to: string }, topProducts: number): Promise<OrderAttribution> {
    const shop = this.#fastify.commerce
    return shop.orderAttribution === undefined ? NO_ORDERS : shop.orderAttribution(range.from, range.to, topProducts)
  }

  /** Products with their name in the catalog now (a variation's line counts for its product), else the order line's. */
  async #named (rows: OrderAttribution['products']) {
    const products: Map<number, Product> = rows.length === 0 ? new Map() : await this.#fastify.commerce.getProducts(rows.map((row) => row.productId))
    return rows.map((row) => ({ product_id: row.productId, name: products.get(row.productId)?.name ?? row.name, ...share(row) }))
  }

  /** Deletes every event. */
  async reset (): Promise<number> {
    return this.#fastify.drawerStores.analytics.resetAnalytics()
  }

  async #pruneNowAndThen (now: Date, oldest: number): Promise<void> {
    // A clock that went back (tests reset theirs) counts as time passed.
    if (Math.abs(now.getTime() - this.#lastPrune) < PRUNE_INTERVAL_MS) return
    this.#lastPrune = now.getTime()
    try {
      await this.#fastify.drawerStores.analytics.deleteAnalyticsBefore(new Date(oldest).toISOString(), PRUNE_BATCH)
    } catch (error) {
      this.#fastify.log.warn({ err: error }, 'deleting expired analytics events failed; the next batch tries again')
      this.#lastPrune = Number.NEGATIVE_INFINITY
    }
  }
}

/** The retention sweep's timing: a minute after start, then every hour. */
export const RETENTION_SWEEP = { firstRunAfterMs: 60_000, everyMs: 3_600_000 } as const

/**
 * Deletes expired events on a timer (`RETENTION_SWEEP`), so the retention period holds while no batch arrives and no
 * one reads the summary (analytics switched off, a quiet shop). Timers never keep the process alive; closing the
 * instance stops them and waits for a sweep under way. A failed sweep is logged; the next one tries again.
 */
export function scheduleRetentionSweep (fastify: FastifyInstance, analytics: DrawerAnalytics, timing: { firstRunAfterMs: number, everyMs: number } = RETENTION_SWEEP): void {
  repeatWhileOpen(fastify, () => analytics.deleteExpired()
    .then(({ deleted }) => { if (deleted > 0) fastify.log.info({ deleted }, 'analytics: expired events deleted') })
    .catch((error: unknown) => { fastify.log.warn({ err: error }, 'analytics: deleting expired events failed; the next sweep tries again') }), timing)
}
