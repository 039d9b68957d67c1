import type { Coupon, Product } from '../../kernel/domain/types.ts'
import type { CatalogStore, ProductPage, ProductQuery } from '../contract/index.ts'
import { lastById } from '../rules.ts'
import type { SqlContext } from './context.ts'
import { productFilter } from './product-query.ts'
import { CATALOG_VERSION, normaliseKey, toCoupon, type CouponRow } from './rows.ts'

const BUMP_CATALOG = "WITH bump AS (UPDATE svc_versions SET version = version + 1 WHERE name = 'catalog')"

/** `CatalogStore` on SQL: products and coupons; every write grows the catalog's version in the same statement. */
export class SqlCatalogStore implements CatalogStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async getProduct (id: number): Promise<Product | null> {
    // Named: every add to cart resolves its product here first. The catalog version comes with it, so the product
    // cache learns the product as read at that version (not inside a transaction, which may roll back).
    const { rows } = await this.#sql.db.query<{ data: Product, catalog_version: number }>(
      `SELECT data, ${CATALOG_VERSION} AS catalog_version FROM svc_products WHERE id = $1`, [id], 'svc_get_product')
    const row = rows[0]
    if (row === undefined) return null
    if (!this.#sql.inTransaction && this.#sql.products.known([id])?.catalogVersion !== row.catalog_version) {
      // A copy: the cache freezes what it keeps, and the caller's product stays its own.
      this.#sql.products.remember(row.catalog_version, [structuredClone(row.data)])
    }
    return row.data
  }

  async getProducts (ids: readonly number[]): Promise<Map<number, Product>> {
    if (ids.length === 0) return new Map()
    const { rows } = await this.#sql.db.query<{ data: Product }>(
      'SELECT data FROM svc_products WHERE id = ANY($1::int[])', [[...new Set(ids)]], 'svc_get_products')
    return new Map(rows.map((row) => [row.data.id, row.data]))
  }

  async listProducts (query: ProductQuery): Promise<ProductPage> {
    const { where, params, orderBy, limit, offset } = productFilter(query)
    const { rows } = await this.#sql.db.query<{ data: Product, total: number }>(
      `SELECT data, (count(*) OVER ())::int AS total FROM svc_products WHERE ${where}
       ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`, params)
    if (rows.length > 0 || offset === 0) return { products: rows.map((row) => row.data), total: rows[0]?.total ?? 0 }
    const count = await this.#sql.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM svc_products WHERE ${where}`, params)
    return { products: [], total: count.rows[0]?.total ?? 0 }
  }

  async upsertProducts (products: readonly Product[]): Promise<void> {
    if (products.length === 0) return
    await this.#sql.db.query(
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

  async getCoupon (code: string): Promise<Coupon | null> {
    const { rows } = await this.#sql.db.query<CouponRow>(
      'SELECT code, data, usage_count FROM svc_coupons WHERE code = $1', [normaliseKey(code)])
    return rows[0] ? toCoupon(rows[0]) : null
  }

  async getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> {
    if (codes.length === 0) return new Map()
    const { rows } = await this.#sql.db.query<CouponRow>(
      'SELECT code, data, usage_count FROM svc_coupons WHERE code = ANY($1::text[])', [[...new Set(codes.map(normaliseKey))]], 'svc_get_coupons')
    return new Map(rows.map((row) => [row.code, toCoupon(row)]))
  }

  async upsertCoupons (coupons: readonly Coupon[]): Promise<void> {
    if (coupons.length === 0) return
    const normalised = lastById(coupons.map((coupon) => ({ ...coupon, code: normaliseKey(coupon.code) })), (c) => c.code)
    await this.#sql.db.query(
      `${BUMP_CATALOG}
       INSERT INTO svc_coupons (code, data, usage_count)
       SELECT c->>'code', c, (c->>'usageCount')::int FROM jsonb_array_elements($1::jsonb) AS c
       ON CONFLICT (code) DO UPDATE SET data = EXCLUDED.data, usage_count = EXCLUDED.usage_count`,
      [JSON.stringify(normalised)])
  }
}
