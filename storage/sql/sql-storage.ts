import type { CartData, Coupon, NewOrder, Order, Product } from '../../domain/types.ts'
import { stockByProduct, takeStock } from '../../domain/stock.ts'
import { cartProductIds } from '../../domain/cart.ts'
import { OrderConflictError, StaleReadError } from '../contract/index.ts'
import type {
  AnalyticsDayCount, AnalyticsEvent, AnalyticsFunnel, AnalyticsSummaryData, BestSeller, CartRead, CartSnapshot, CartUpdate, CartUpdateOptions, OrderAttribution,
  OrderEffects, OrderQuery, RemovalFinish, RemovedCartLines, WriteVersions, ProductPage, ProductQuery, Session, Storage, StoredCart, StoredSettings, User
} from '../contract/index.ts'
import type { SqlClient, SqlSession } from './client.ts'
import { migrateStorage } from './migrations.ts'
import { productFilter } from './product-query.ts'
import { NO_PRODUCT_HINT, ProductCache } from './product-cache.ts'
import { ScopedContext } from '../../lib/index.ts'
import { KeyedQueue } from '../keyed-queue.ts'
import { BEST_SELLER_STATUSES, bestSellerLimit, lastById, orderPaging } from '../rules.ts'
import {
  CART_COLUMNS, CATALOG_VERSION, USER_COLUMNS, VERSIONS, normaliseKey, toCoupon, toSession, toStoredCart, toUser,
  type CartRow, type CouponRow, type SessionRow, type UserRow, type WriteVersionsRow
} from './rows.ts'
import { removeLinesUnread, seenCart, writeLockedCart, writeNewCart, writeSeenCart } from './cart-writes.ts'

const EMPTY_CART: CartData = { lines: [], coupons: [] }

interface ReadCartRow extends Omit<CartRow, 'key'> {
  key: string | null
  products: Product[] | null
  coupons: CouponRow[] | null
  settings_version: number
  catalog_version: number
}

/**
 * `readCart`: one statement, so one round trip and one snapshot. The versions side always answers (even for a cart
 * that is not stored); the cart's product ids and coupon codes are taken from its JSON by the database. $2 and $3:
 * the products the instance holds as read at catalog version $2 (`ProductCache`), not sent again while the
 * catalog is still at $2.
 */
const READ_CART = `
  SELECT c.key, c.user_id, c.data, c.version, c.updated_at, v.catalog_version, v.settings_version,
    (SELECT jsonb_agg(p.data) FROM svc_products p WHERE p.id IN (
      SELECT (l->>'productId')::int FROM jsonb_array_elements(c.data->'lines') AS l
      UNION SELECT (l->>'variationId')::int FROM jsonb_array_elements(c.data->'lines') AS l
    ) AND NOT (v.catalog_version = $2::int AND p.id = ANY($3::int[]))) AS products,
    (SELECT jsonb_agg(jsonb_build_object('code', k.code, 'data', k.data, 'usage_count', k.usage_count))
      FROM svc_coupons k WHERE k.code IN (SELECT lower(btrim(x)) FROM jsonb_array_elements_text(c.data->'coupons') AS x)) AS coupons
  FROM (SELECT ${VERSIONS}) AS v
  LEFT JOIN LATERAL (SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1) AS c ON true`

/**
 * `getCartSnapshot`: the snapshot and its stamp, of one row by primary key, and the versions as they are now; none for
 * a cart bound to a user.
 */
const GET_CART_SNAPSHOT = `
  SELECT snapshot, snapshot_stamp AS stamp, version, ${VERSIONS} FROM svc_carts WHERE key = $1 AND snapshot IS NOT NULL AND user_id IS NULL`

const BUMP_CATALOG = "WITH bump AS (UPDATE svc_versions SET version = version + 1 WHERE name = 'catalog')"

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

interface AmbientTransaction {
  session: SqlSession
  open: boolean
}

/** Carries `updateCart`'s outcome out of a transaction that must roll back. */
class Discard<T> {
  constructor (readonly outcome: T) {}
}

/** `Storage` on PostgreSQL or PGlite, through a `SqlClient`. */
export class SqlStorage implements Storage {
  readonly name: string
  readonly #client: SqlClient
  // Storage calls made inside an `updateCart` callback join its transaction instead of waiting for a second
  // connection (PGlite has one; a pool can run dry), which would otherwise deadlock.
  readonly #ambient = new ScopedContext<AmbientTransaction>()
  // Writes of one cart wait here, in this process, for the one before them instead of each holding a pooled
  // connection while it waits for the row lock: a burst on one hot cart cannot drain the pool (and time out the
  // requests of every other cart). The row lock still orders writes across instances.
  readonly #cartWrites = new KeyedQueue()
  // Products as read at the newest catalog version seen, so a cart read is not sent the products it had last time.
  readonly #products = new ProductCache()

  constructor (name: string, client: SqlClient) {
    this.name = name
    this.#client = client
  }

  /** Applies pending schema migrations, the platform's and the drawer's; returns the ids applied. */
  async migrate (): Promise<string[]> {
    return migrateStorage(this.#client)
  }

  get #db (): SqlSession {
    const ambient = this.#ambient.get()
    return ambient?.open ? ambient.session : this.#client
  }

  async #transaction<T> (fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.#db.transaction(async (session) => {
      const ambient = { session, open: true }
      try {
        return await this.#ambient.run(ambient, () => fn(session))
      } finally {
        ambient.open = false
      }
    })
  }

  async getProduct (id: number): Promise<Product | null> {
    // Named: every add to cart resolves its product here first. The catalog version comes with it, so the product
    // cache learns the product as read at that version (not inside a transaction, which may roll back).
    const { rows } = await this.#db.query<{ data: Product, catalog_version: number }>(
      `SELECT data, ${CATALOG_VERSION} AS catalog_version FROM svc_products WHERE id = $1`, [id], 'svc_get_product')
    const row = rows[0]
    if (row === undefined) return null
    if (this.#ambient.get()?.open !== true && this.#products.known([id])?.catalogVersion !== row.catalog_version) {
      // A copy: the cache freezes what it keeps, and the caller's product stays its own.
      this.#products.remember(row.catalog_version, [structuredClone(row.data)])
    }
    return row.data
  }

  knownProducts (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null {
    return this.#products.known(ids)
  }

  async getProducts (ids: readonly number[]): Promise<Map<number, Product>> {
    if (ids.length === 0) return new Map()
    const { rows } = await this.#db.query<{ data: Product }>(
      'SELECT data FROM svc_products WHERE id = ANY($1::int[])', [[...new Set(ids)]], 'svc_get_products')
    return new Map(rows.map((row) => [row.data.id, row.data]))
  }

  async listProducts (query: ProductQuery): Promise<ProductPage> {
    const { where, params, orderBy, limit, offset } = productFilter(query)
    const { rows } = await this.#db.query<{ data: Product, total: number }>(
      `SELECT data, (count(*) OVER ())::int AS total FROM svc_products WHERE ${where}
       ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`, params)
    if (rows.length > 0 || offset === 0) return { products: rows.map((row) => row.data), total: rows[0]?.total ?? 0 }
    const count = await this.#db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM svc_products WHERE ${where}`, params)
    return { products: [], total: count.rows[0]?.total ?? 0 }
  }

  async upsertProducts (products: readonly Product[]): Promise<void> {
    if (products.length === 0) return
    await this.#db.query(
      `${BUMP_CATALOG}
       INSERT INTO svc_products (id, parent_id, type, status, catalog_visibility, name, sku, data, updated_at)
       SELECT (p->>'id')::int, (p->>'parentId')::int, p->>'type', p->>'status', p->>'catalogVisibility',
              p->>'name', p->>'sku', p, now()
       FROM jsonb_array_elements($1::jsonb) AS p
       ON CONFLICT (id) DO UPDATE SET parent_id = EXCLUDED.parent_id, type = EXCLUDED.type,
         status = EXCLUDED.status, catalog_visibility = EXCLUDED.catalog_visibility, name = EXCLUDED.name,
         sku = EXCLUDED.sku, data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
      [JSON.stringify(lastById(products, (product) => product.id))])
  }

  async getCart (key: string): Promise<StoredCart | null> {
    const { rows } = await this.#db.query<CartRow>(`SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1`, [key], 'svc_get_cart')
    return rows[0] ? toStoredCart(rows[0]) : null
  }

  async readCart (key: string): Promise<CartRead> {
    // Inside a transaction the read may see writes that roll back: the cache is neither asked nor told.
    const cached = this.#ambient.get()?.open !== true
    const hint = cached ? this.#products.hint(key) : NO_PRODUCT_HINT
    const { rows } = await this.#db.query<ReadCartRow>(READ_CART, [key, hint.version, hint.ids], 'svc_read_cart')
    const row = rows[0]
    if (row === undefined) throw new Error('the cart read returned no row')
    const sent = row.products ?? []
    const products = cached
      ? this.#products.complete(key, hint, row.catalog_version, sent, row.key === null ? new Set() : cartProductIds(row.data))
      : new Map(sent.map((product) => [product.id, product]))
    const coupons = new Map<string, Coupon>()
    for (const coupon of row.coupons ?? []) coupons.set(coupon.code, toCoupon(coupon))
    return {
      cart: row.key === null ? null : toStoredCart(row as CartRow),
      products,
      coupons,
      settingsVersion: row.settings_version,
      catalogVersion: row.catalog_version
    }
  }

  async getCartSnapshot (key: string): Promise<CartSnapshot | null> {
    const { rows } = await this.#db.query<{ snapshot: string, stamp: string, version: number } & WriteVersionsRow>(GET_CART_SNAPSHOT, [key], 'svc_get_cart_snapshot')
    const row = rows[0]
    if (row === undefined) return null
    return { snapshot: row.snapshot, stamp: row.stamp, version: row.version, catalogVersion: row.catalog_version, settingsVersion: row.settings_version }
  }

  async getVersions (): Promise<WriteVersions> {
    const { rows } = await this.#db.query<WriteVersionsRow>(`SELECT ${VERSIONS}`, [], 'svc_get_versions')
    const row = rows[0] as WriteVersionsRow
    return { catalogVersion: row.catalog_version, settingsVersion: row.settings_version }
  }

  async saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      'UPDATE svc_carts SET snapshot = $3, snapshot_stamp = $4 WHERE key = $1 AND version = $2',
      [key, version, snapshot, stamp], 'svc_save_snapshot')
    return rowCount > 0
  }

  async updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options: CartUpdateOptions = {}
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    // Inside another write's transaction the lock is taken in that transaction; queueing there could wait on itself.
    if (this.#ambient.get()?.open === true) return this.#updateCart(key, update)
    const { seen } = options
    return this.#cartWrites.run(key, async () => {
      // The caller's read stands in for the lock: one statement that lands only if the cart is still as read, instead
      // of BEGIN, SELECT … FOR UPDATE, UPDATE and COMMIT. A cart changed meanwhile is written under the lock.
      if (options.newCartAt !== undefined && seen === null) {
        const current = seenCart(key, null)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) return { cart: current, result }
        const written = await writeNewCart(this.#db, key, data, snapshot, options.newCartAt)
        if (written === null) throw new StaleReadError()
        return { ...written, result }
      }
      if (seen !== undefined) {
        const current = seenCart(key, seen)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) return { cart: current, result }
        const written = await writeSeenCart(this.#db, key, seen, data, snapshot)
        if (written !== null) return { ...written, result }
      }
      return this.#updateCart(key, update)
    })
  }

  async removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    if (this.#ambient.get()?.open === true) return null
    const removed = await this.#cartWrites.run(key, () => removeLinesUnread(this.#db, key, itemKeys))
    if (removed === null) return null
    const { result, snapshot } = await finish(removed)
    if (snapshot !== undefined) await this.saveCartSnapshot(key, removed.cart.version, snapshot.stamp, snapshot.snapshot)
    return { result }
  }

  async #updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    try {
      return await this.#transaction(async (tx) => {
        const { row, created } = await lockCart(tx, key)
        const current = toStoredCart(row)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) {
          // A row created only to hold the lock is not kept.
          if (created) throw new Discard({ cart: current, result })
          return { cart: current, result }
        }
        return { ...await writeLockedCart(tx, key, data, snapshot), result }
      })
    } catch (error) {
      if (error instanceof Discard) return error.outcome as { cart: StoredCart, result: T }
      throw error
    }
  }

  async setCartUser (key: string, userId: number | null): Promise<void> {
    await this.#db.query(
      `UPDATE svc_carts SET user_id = $2, updated_at = clock_timestamp(), touch_seq = nextval('svc_carts_touch_seq'),
         snapshot = NULL, snapshot_stamp = NULL
       WHERE key = $1`, [key, userId])
  }

  async findUserCart (userId: number): Promise<StoredCart | null> {
    const { rows } = await this.#db.query<CartRow>(
      `SELECT ${CART_COLUMNS} FROM svc_carts WHERE user_id = $1 ORDER BY touch_seq DESC LIMIT 1`, [userId])
    return rows[0] ? toStoredCart(rows[0]) : null
  }

  async deleteCart (key: string): Promise<void> {
    await this.#db.query('DELETE FROM svc_carts WHERE key = $1', [key])
  }

  async purgeGuestCarts (before: string, limit: number): Promise<number> {
    // SKIP LOCKED: a cart being written (or swept by another instance) is left for the next sweep, never waited for.
    const { rowCount } = await this.#db.query(
      `DELETE FROM svc_carts WHERE key IN (
         SELECT key FROM svc_carts WHERE user_id IS NULL AND updated_at < $1::timestamptz
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)`, [before, Math.max(0, Math.floor(limit))])
    return rowCount
  }

  // OrderStore

  async createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> {
    return this.#transaction(async (tx) => {
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
    const { rows } = await this.#db.query<{ id: number, data: Order }>('SELECT id, data FROM svc_orders WHERE id = $1', [id])
    return rows[0] ? { ...rows[0].data, id: rows[0].id } : null
  }

  async listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> {
    const { limit, offset } = orderPaging(query)
    const filter = query.customerId === undefined ? 'true' : 'customer_id = $1'
    const params = query.customerId === undefined ? [] : [query.customerId]
    const { rows } = await this.#db.query<{ id: number, data: Order }>(
      `SELECT id, data FROM svc_orders WHERE ${filter} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`, params)
    const count = await this.#db.query<{ total: number }>(`SELECT count(*)::int AS total FROM svc_orders WHERE ${filter}`, params)
    return { orders: rows.map((row) => ({ ...row.data, id: row.id })), total: count.rows[0]?.total ?? 0 }
  }

  async bestSellers (limit: number): Promise<BestSeller[]> {
    const { rows } = await this.#db.query<{ product_id: number, quantity: number }>(
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
    const { rows } = await this.#db.query<AttributionRow>(ORDER_ATTRIBUTION, [from, to, [...BEST_SELLER_STATUSES], bestSellerLimit(topProducts)])
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

  async getCoupon (code: string): Promise<Coupon | null> {
    const { rows } = await this.#db.query<CouponRow>(
      'SELECT code, data, usage_count FROM svc_coupons WHERE code = $1', [normaliseKey(code)])
    return rows[0] ? toCoupon(rows[0]) : null
  }

  async getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> {
    if (codes.length === 0) return new Map()
    const { rows } = await this.#db.query<CouponRow>(
      'SELECT code, data, usage_count FROM svc_coupons WHERE code = ANY($1::text[])', [[...new Set(codes.map(normaliseKey))]], 'svc_get_coupons')
    return new Map(rows.map((row) => [row.code, toCoupon(row)]))
  }

  async upsertCoupons (coupons: readonly Coupon[]): Promise<void> {
    if (coupons.length === 0) return
    const normalised = lastById(coupons.map((coupon) => ({ ...coupon, code: normaliseKey(coupon.code) })), (c) => c.code)
    await this.#db.query(
      `${BUMP_CATALOG}
       INSERT INTO svc_coupons (code, data, usage_count)
       SELECT c->>'code', c, (c->>'usageCount')::int FROM jsonb_array_elements($1::jsonb) AS c
       ON CONFLICT (code) DO UPDATE SET data = EXCLUDED.data, usage_count = EXCLUDED.usage_count`,
      [JSON.stringify(normalised)])
  }

  async getUserByEmail (email: string): Promise<User | null> {
    const { rows } = await this.#db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM svc_users WHERE email = $1`, [normaliseKey(email)])
    return rows[0] ? toUser(rows[0]) : null
  }

  async getUser (id: number): Promise<User | null> {
    const { rows } = await this.#db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM svc_users WHERE id = $1`, [id])
    return rows[0] ? toUser(rows[0]) : null
  }

  async ensureUser (user: Omit<User, 'id'>): Promise<User> {
    const { rows } = await this.#db.query<UserRow>(
      `INSERT INTO svc_users (email, display_name, password_hash, capabilities) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [normaliseKey(user.email), user.displayName, user.passwordHash, JSON.stringify(user.capabilities)])
    if (rows[0]) return toUser(rows[0])
    const existing = await this.getUserByEmail(user.email)
    if (!existing) throw new Error(`user ${user.email} vanished while being ensured`)
    return existing
  }

  async replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      'UPDATE svc_users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, previous, next])
    return rowCount > 0
  }

  async setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    await this.#db.query('UPDATE svc_users SET capabilities = $2::jsonb WHERE id = $1', [userId, JSON.stringify(capabilities)])
  }

  async createSession (session: Session): Promise<void> {
    await this.#db.query(
      `INSERT INTO svc_sessions (id_hash, user_id, created_at, expires_at, capabilities)
       VALUES ($1, $2, $3::timestamptz, $4::timestamptz, $5::jsonb)`,
      [session.idHash, session.userId, session.createdAt, session.expiresAt, JSON.stringify(session.capabilities)])
  }

  async getSession (idHash: string): Promise<Session | null> {
    const { rows } = await this.#db.query<SessionRow>(
      'SELECT id_hash, user_id, created_at, expires_at, capabilities FROM svc_sessions WHERE id_hash = $1', [idHash], 'svc_get_session')
    return rows[0] ? toSession(rows[0]) : null
  }

  async touchSession (idHash: string, expiresAt: string): Promise<void> {
    await this.#db.query(
      'UPDATE svc_sessions SET expires_at = $2::timestamptz WHERE id_hash = $1 AND expires_at < $2::timestamptz', [idHash, expiresAt])
  }

  async purgeExpiredSessions (now: string, limit: number): Promise<number> {
    const { rowCount } = await this.#db.query(
      `DELETE FROM svc_sessions WHERE id_hash IN (
         SELECT id_hash FROM svc_sessions WHERE expires_at < $1::timestamptz ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [now, Math.max(0, Math.floor(limit))])
    return rowCount
  }

  async deleteSession (idHash: string): Promise<void> {
    await this.#db.query('DELETE FROM svc_sessions WHERE id_hash = $1', [idHash])
  }

  async getSettings (): Promise<StoredSettings | null> {
    const { rows } = await this.#db.query<StoredSettings>('SELECT document, version FROM svc_settings WHERE id = 1', [], 'svc_get_settings')
    return rows[0] ?? null
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    const json = JSON.stringify(document)
    const insert = 'INSERT INTO svc_settings (id, document, version) VALUES (1, $1::jsonb, 1)'
    let statement: string
    let params: unknown[] = [json]
    if (expectedVersion === undefined) {
      statement = `${insert} ON CONFLICT (id) DO UPDATE SET document = EXCLUDED.document, version = svc_settings.version + 1`
    } else if (expectedVersion === 0) {
      statement = `${insert} ON CONFLICT (id) DO NOTHING`
    } else {
      statement = 'UPDATE svc_settings SET document = $1::jsonb, version = version + 1 WHERE id = 1 AND version = $2'
      params = [json, expectedVersion]
    }
    const { rows } = await this.#db.query<StoredSettings>(`${statement} RETURNING document, version`, params)
    return rows[0] ?? null
  }

  async insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> {
    if (events.length === 0) return 0
    // One statement for the whole batch: the events travel as one JSON array.
    const { rowCount } = await this.#db.query(
      `INSERT INTO svc_analytics_events (type, visitor, product_id, drawer_add, occurred_at, data)
       SELECT e->>'type', e->>'visitor', (e->>'productId')::int, (e->>'drawerAdd')::boolean,
              (e->>'occurredAt')::timestamptz, coalesce(e->'data', '{}'::jsonb)
       FROM jsonb_array_elements($1::jsonb) AS e`, [JSON.stringify(events)])
    return rowCount
  }

  async analyticsSummary (from: string, to: string, notVisits: readonly string[] = []): Promise<AnalyticsSummaryData> {
    // One statement, so one snapshot: a row per (day, type) from a hash aggregate, then one row with the distinct
    // visitors of the whole range. Counts travel as text (bigints; the same on both drivers).
    const { rows } = await this.#db.query<{ total: boolean, day: string | null, type: string | null, count: string, adds: string, visitors: string }>(
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
    const { rows } = await this.#db.query<{ started: string, converted: string }>(
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
      ? await this.#db.query('DELETE FROM svc_analytics_events WHERE occurred_at < $1::timestamptz', [before])
      : await this.#db.query(
        // `= ANY(ARRAY(…))` finds the rows by primary key; `IN (…)` would scan the whole table to join them.
        `DELETE FROM svc_analytics_events WHERE id = ANY(ARRAY(
           SELECT id FROM svc_analytics_events WHERE occurred_at < $1::timestamptz ORDER BY occurred_at LIMIT $2
         ))`, [before, limit])
    return rowCount
  }

  async resetAnalytics (): Promise<number> {
    const { rowCount } = await this.#db.query('DELETE FROM svc_analytics_events')
    return rowCount
  }

  async getOrCreateMeta (key: string, create: () => string): Promise<string> {
    const select = 'SELECT value FROM svc_meta WHERE key = $1'
    const found = await this.#db.query<{ value: string }>(select, [key])
    if (found.rows[0]) return found.rows[0].value
    await this.#db.query('INSERT INTO svc_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, create()])
    const { rows } = await this.#db.query<{ value: string }>(select, [key])
    if (!rows[0]) throw new Error(`meta ${key} vanished while being created`)
    return rows[0].value
  }

  async ping (): Promise<void> {
    await this.#db.query('SELECT 1')
  }

  async close (): Promise<void> {
    await this.#client.close()
  }
}

/**
 * Locks the cart's row, first creating an empty one when there is none. A row deleted between our failed insert
 * and the select is retried.
 */
async function lockCart (tx: SqlSession, key: string): Promise<{ row: CartRow, created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await tx.query<CartRow>(`SELECT ${CART_COLUMNS} FROM svc_carts WHERE key = $1 FOR UPDATE`, [key], 'svc_lock_cart')
    if (existing.rows[0]) return { row: existing.rows[0], created: false }
    const inserted = await tx.query<CartRow>(
      `INSERT INTO svc_carts (key, data, version) VALUES ($1, $2::jsonb, 0)
       ON CONFLICT (key) DO NOTHING RETURNING ${CART_COLUMNS}`, [key, JSON.stringify(EMPTY_CART)])
    if (inserted.rows[0]) return { row: inserted.rows[0], created: true }
  }
  throw new Error(`could not lock cart ${key}`)
}
