import type { NewOrder, Order, Product } from '../../kernel/domain/types.ts'
import { stockByProduct, takeStock } from '../../kernel/domain/stock.ts'
import { OrderConflictError } from '../contract/index.ts'
import type { BestSeller, OrderAttribution, OrderEffects, OrderQuery, OrderStore } from '../contract/index.ts'
import { BEST_SELLER_STATUSES, bestSellerLimit, orderPaging } from '../rules.ts'
import type { SqlContext } from './context.ts'
import { normaliseKey, toCoupon, type CouponRow } from './rows.ts'

interface AttributionRow {
  kind: 'day' | 'origin' | 'product'
  key: string
  n1: string
  n2: string
  m1: string
  m2: string
  m3: string
  name: string | null
}

/**
 * `orderAttribution`: the counted orders of the range ($1–$2, UTC days; $3 the statuses), their lines, one row per
 * order, then a row per day (orders, drawer orders; sales, drawer orders' sales, attributed), per origin and per
 * product (units, orders; revenue), the products cut to the first $4. A product's name is its first line's on the
 * newest order.
 */
const ORDER_ATTRIBUTION = `
  WITH o AS (
    SELECT id, (created_at AT TIME ZONE 'UTC')::date AS day, data->'lines' AS lines
    FROM svc_orders
    WHERE created_at >= ($1::date)::timestamp AT TIME ZONE 'UTC'
      AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
      AND status = ANY($3::text[])
  ), l AS (
    SELECT o.id, x.n, (x.line->>'productId')::int AS product_id, x.line->>'name' AS name, x.line->>'origin' AS origin,
           (x.line->>'quantity')::bigint AS quantity, (x.line->>'total')::bigint AS total
    FROM o, jsonb_array_elements(o.lines) WITH ORDINALITY AS x(line, n)
  ), per_order AS (
    SELECT o.id, o.day, coalesce(sum(l.total), 0) AS sales,
           coalesce(sum(l.total) FILTER (WHERE l.origin IS NOT NULL), 0) AS attributed,
           count(l.origin) > 0 AS drawer
    FROM o LEFT JOIN l ON l.id = o.id
    GROUP BY o.id, o.day
  ), products AS (
    SELECT product_id, sum(quantity) AS units, count(DISTINCT id) AS orders, sum(total) AS revenue,
           (array_agg(name ORDER BY id DESC, n))[1] AS name
    FROM l WHERE origin IS NOT NULL
    GROUP BY product_id
    ORDER BY revenue DESC, units DESC, product_id
    LIMIT $4
  )
  SELECT 'day' AS kind, 0::bigint AS rank, to_char(day, 'YYYY-MM-DD') AS key, count(*)::text AS n1,
         count(*) FILTER (WHERE drawer)::text AS n2, sum(sales)::text AS m1, coalesce(sum(sales) FILTER (WHERE drawer), 0)::text AS m2,
         sum(attributed)::text AS m3, NULL AS name
  FROM per_order GROUP BY day
  UNION ALL
  SELECT 'origin', 0, origin, sum(quantity)::text, count(DISTINCT id)::text, sum(total)::text, '0', '0', NULL
  FROM l WHERE origin IS NOT NULL GROUP BY origin
  UNION ALL
  SELECT 'product', row_number() OVER (ORDER BY revenue DESC, units DESC, product_id), product_id::text, units::text, orders::text,
         revenue::text, '0', '0', name
  FROM products
  ORDER BY kind, rank, key`

/**
 * `OrderStore` on SQL: `createOrder` locks the products and coupons it changes and stores the order in one
 * transaction (the cart's, inside an `updateCart` callback).
 */
export class SqlOrderStore implements OrderStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> {
    return this.#sql.transaction(async (tx) => {
      // Rows are locked in id (and code) order, so two checkouts of the same products never wait on each other in a
      // cycle; a checkout that waited reads the stock the other one left.
      const wanted = stockByProduct(effects.stock)
      const changed: Product[] = []
      if (wanted.size > 0) {
        const { rows } = await tx.query<{ data: Product }>(
          'SELECT data FROM svc_products WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [[...wanted.keys()]])
        for (const { data: product } of rows) {
          const after = takeStock(product, wanted.get(product.id) ?? 0)
          if (after === null) throw new OrderConflictError('out_of_stock', product.id)
          if (after !== product) changed.push(after)
        }
      }
      const codes = [...new Set(effects.coupons.map(normaliseKey))].sort()
      let couponsChanged = 0
      if (codes.length > 0) {
        const { rows } = await tx.query<CouponRow>(
          'SELECT code, data, usage_count FROM svc_coupons WHERE code = ANY($1::text[]) ORDER BY code FOR UPDATE', [codes])
        for (const row of rows) {
          const coupon = toCoupon(row)
          if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) throw new OrderConflictError('coupon_usage_limit', coupon.code)
        }
        couponsChanged = rows.length
        if (couponsChanged > 0) {
          await tx.query(
            `UPDATE svc_coupons SET usage_count = usage_count + 1,
               data = jsonb_set(data, '{usageCount}', to_jsonb(usage_count + 1)) WHERE code = ANY($1::text[])`, [codes])
        }
      }
      if (changed.length > 0) {
        await tx.query(
          `UPDATE svc_products AS t SET data = p, updated_at = now()
           FROM jsonb_array_elements($1::jsonb) AS p WHERE t.id = (p->>'id')::int`, [JSON.stringify(changed)])
      }
      if (changed.length > 0 || couponsChanged > 0) {
        await tx.query("UPDATE svc_versions SET version = version + 1 WHERE name = 'catalog'")
      }
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO svc_orders (order_key, customer_id, status, data, created_at)
         VALUES ($1, $2, $3, $4::jsonb, $5::timestamptz) RETURNING id`,
        [order.key, order.customerId, order.status, JSON.stringify(order), order.createdAt])
      return { ...order, id: rows[0]!.id }
    })
  }

  async getOrder (id: number): Promise<Order | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null
    const { rows } = await this.#sql.db.query<{ id: number, data: Order }>('SELECT id, data FROM svc_orders WHERE id = $1', [id])
    return rows[0] ? { ...rows[0].data, id: rows[0].id } : null
  }

  async listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> {
    const { limit, offset } = orderPaging(query)
    const filter = query.customerId === undefined ? 'true' : 'customer_id = $1'
    const params = query.customerId === undefined ? [] : [query.customerId]
    const { rows } = await this.#sql.db.query<{ id: number, data: Order }>(
      `SELECT id, data FROM svc_orders WHERE ${filter} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`, params)
    const count = await this.#sql.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM svc_orders WHERE ${filter}`, params)
    return { orders: rows.map((row) => ({ ...row.data, id: row.id })), total: count.rows[0]?.total ?? 0 }
  }

  async bestSellers (limit: number): Promise<BestSeller[]> {
    const { rows } = await this.#sql.db.query<{ product_id: number, quantity: number }>(
      `SELECT (line->>'productId')::int AS product_id, sum((line->>'quantity')::int)::int AS quantity
       FROM svc_orders, jsonb_array_elements(data->'lines') AS line
       WHERE status = ANY($1::text[])
       GROUP BY 1 HAVING sum((line->>'quantity')::int) > 0
       ORDER BY 2 DESC, 1 LIMIT $2`, [[...BEST_SELLER_STATUSES], bestSellerLimit(limit)])
    return rows.map((row) => ({ productId: row.product_id, quantity: row.quantity }))
  }

  async orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution> {
    // One statement, so one snapshot: a row per day, per origin and per product (the first `topProducts`), told
    // apart by `kind`. Sums travel as text (exact bigints, the same on both drivers).
    const { rows } = await this.#sql.db.query<AttributionRow>(ORDER_ATTRIBUTION, [from, to, [...BEST_SELLER_STATUSES], bestSellerLimit(topProducts)])
    const result: OrderAttribution = { days: [], origins: [], products: [] }
    for (const row of rows) {
      if (row.kind === 'day') {
        result.days.push({ day: row.key, orders: Number(row.n1), drawerOrders: Number(row.n2), sales: row.m1, drawerOrderSales: row.m2, attributed: row.m3 })
      } else if (row.kind === 'origin') {
        result.origins.push({ origin: row.key, units: Number(row.n1), orders: Number(row.n2), revenue: row.m1 })
      } else {
        result.products.push({ productId: Number(row.key), name: row.name ?? '', units: Number(row.n1), orders: Number(row.n2), revenue: row.m1 })
      }
    }
    return result
  }
}
