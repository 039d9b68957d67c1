import type { AnalyticsDayCount, AnalyticsEvent, AnalyticsFunnel, AnalyticsStore, AnalyticsSummaryData } from '../../../storage/contract/index.ts'
import type { SqlSource } from './source.ts'

/** `AnalyticsStore` on SQL: events stored in batches, summed and followed by the database. */
export class SqlAnalyticsStore implements AnalyticsStore {
  readonly #sql: SqlSource

  constructor (sql: SqlSource) {
    this.#sql = sql
  }

  async insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> {
    if (events.length === 0) return 0
    // One statement for the whole batch: the events travel as one JSON array.
    const { rowCount } = await this.#sql.db.query(
      `INSERT INTO svc_analytics_events (type, visitor, product_id, drawer_add, occurred_at, data)
       SELECT e->>'type', e->>'visitor', (e->>'productId')::int, (e->>'drawerAdd')::boolean,
              (e->>'occurredAt')::timestamptz, coalesce(e->'data', '{}'::jsonb)
       FROM jsonb_array_elements($1::jsonb) AS e`, [JSON.stringify(events)])
    return rowCount
  }

  async analyticsSummary (from: string, to: string, notVisits: readonly string[] = []): Promise<AnalyticsSummaryData> {
    // One statement, so one snapshot: a row per (day, type) from a hash aggregate, then one row with the distinct
    // visitors of the whole range. Counts travel as text (bigints; the same on both drivers).
    const { rows } = await this.#sql.db.query<{ total: boolean, day: string | null, type: string | null, count: string, adds: string, visitors: string }>(
      `WITH e AS (
         SELECT (occurred_at AT TIME ZONE 'UTC')::date AS day, type, drawer_add, visitor
         FROM svc_analytics_events
         WHERE occurred_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'
           AND occurred_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
       ), grouped AS (
         SELECT day, type, count(*) AS count, count(*) FILTER (WHERE drawer_add) AS adds
         FROM e GROUP BY day, type
       )
       SELECT false AS total, to_char(day, 'YYYY-MM-DD') AS day, type, count::text, adds::text, '0' AS visitors
       FROM grouped
       UNION ALL
       SELECT true, NULL, NULL, '0', '0',
              (SELECT count(*) FROM (SELECT DISTINCT visitor FROM e WHERE visitor IS NOT NULL AND type <> ALL($3::text[])) AS v)::text
       ORDER BY total, day, type`, [from, to, [...notVisits]])
    const days: AnalyticsDayCount[] = []
    let visitors = 0
    for (const row of rows) {
      if (row.total) visitors = Number(row.visitors)
      else days.push({ day: row.day!, type: row.type!, count: Number(row.count), adds: Number(row.adds) })
    }
    return { days, visitors }
  }

  async analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    const { rows } = await this.#sql.db.query<{ started: string, converted: string }>(
      `SELECT count(*) FILTER (WHERE started_at IS NOT NULL)::text AS started,
              count(*) FILTER (WHERE ended_at >= started_at)::text AS converted
       FROM (
         SELECT visitor, min(occurred_at) FILTER (WHERE type = $3) AS started_at, max(occurred_at) FILTER (WHERE type = $4) AS ended_at
         FROM svc_analytics_events
         WHERE occurred_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'
           AND occurred_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
           AND visitor IS NOT NULL AND type IN ($3, $4)
         GROUP BY visitor
       ) AS v`, [from, to, start, end])
    return { started: Number(rows[0]?.started ?? 0), converted: Number(rows[0]?.converted ?? 0) }
  }

  async deleteAnalyticsBefore (before: string, limit?: number): Promise<number> {
    const { rowCount } = limit === undefined
      ? await this.#sql.db.query('DELETE FROM svc_analytics_events WHERE occurred_at < $1::timestamptz', [before])
      : await this.#sql.db.query(
        // `= ANY(ARRAY(…))` finds the rows by primary key; `IN (…)` would scan the whole table to join them.
        `DELETE FROM svc_analytics_events WHERE id = ANY(ARRAY(
           SELECT id FROM svc_analytics_events WHERE occurred_at < $1::timestamptz ORDER BY occurred_at LIMIT $2
         ))`, [before, limit])
    return rowCount
  }

  async resetAnalytics (): Promise<number> {
    const { rowCount } = await this.#sql.db.query('DELETE FROM svc_analytics_events')
    return rowCount
  }
}
