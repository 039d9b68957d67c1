import type { Product } from '../../kernel/domain/types.ts'
import { ComposedStorage } from '../composed-storage.ts'
import { SqlAccountStore } from './account-store.ts'
import { SqlAnalyticsStore, SqlSettingsStore } from '../../drawer/index.ts'
import { SqlCartStore } from './cart-store.ts'
import { SqlCartViewStore } from './cart-view-store.ts'
import { SqlCatalogStore } from './catalog-store.ts'
import type { SqlClient } from './client.ts'
import { SqlContext } from './context.ts'
import { SqlIdempotencyStore } from './idempotency-store.ts'
import { SqlMetaStore } from './meta-store.ts'
import { migrateStorage } from './migrations.ts'
import { SqlOrderStore } from './order-store.ts'

/**
 * `Storage` on PostgreSQL or PGlite, through a `SqlClient`. Each store is a class of its own (`catalog-store.ts`,
 * `cart-store.ts`, …) over one `SqlContext`: the client, the transaction an `updateCart` callback's calls join, the
 * per-cart write queue and the products this instance holds. This class only composes them.
 */
export class SqlStorage extends ComposedStorage {
  readonly name: string
  readonly #sql: SqlContext
  readonly #carts: SqlCartStore

  constructor (name: string, client: SqlClient) {
    const sql = new SqlContext(client)
    const cartViews = new SqlCartViewStore(sql)
    const carts = new SqlCartStore(sql, cartViews)
    super({
      catalog: new SqlCatalogStore(sql),
      carts,
      cartViews,
      orders: new SqlOrderStore(sql),
      accounts: new SqlAccountStore(sql),
      settings: new SqlSettingsStore(sql),
      analytics: new SqlAnalyticsStore(sql),
      meta: new SqlMetaStore(sql),
      idempotency: new SqlIdempotencyStore(sql)
    })
    this.name = name
    this.#sql = sql
    this.#carts = carts
  }

  /** Applies pending schema migrations, the platform's and the drawer's; returns the ids applied. */
  async migrate (): Promise<string[]> {
    return migrateStorage(this.#sql.client)
  }

  /** The products this instance holds at the catalog's current version, if it holds them all (`CartStore.knownProducts`). */
  knownProducts (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null {
    return this.#carts.knownProducts(ids)
  }

  async ping (): Promise<void> {
    await this.#sql.db.query('SELECT 1')
  }

  async close (): Promise<void> {
    await this.#sql.client.close()
  }
}
