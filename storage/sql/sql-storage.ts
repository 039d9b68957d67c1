import type { Coupon, NewOrder, Order, Product } from '../../domain/types.ts'
import type {
  AnalyticsEvent, AnalyticsFunnel, AnalyticsSummaryData, BestSeller, CartRead, CartSnapshot, CartUpdate, CartUpdateOptions, OrderAttribution,
  OrderEffects, OrderQuery, ProductPage, ProductQuery, RemovalFinish, RemovedCartLines, Session, Storage, StoredCart, StoredSettings, User,
  WriteVersions
} from '../contract/index.ts'
import { SqlAccountStore } from './account-store.ts'
import { SqlAnalyticsStore } from './analytics-store.ts'
import { SqlCartStore } from './cart-store.ts'
import { SqlCartViewStore } from './cart-view-store.ts'
import { SqlCatalogStore } from './catalog-store.ts'
import type { SqlClient } from './client.ts'
import { SqlContext } from './context.ts'
import { SqlMetaStore } from './meta-store.ts'
import { migrateStorage } from './migrations.ts'
import { SqlOrderStore } from './order-store.ts'
import { SqlSettingsStore } from './settings-store.ts'

/**
 * `Storage` on PostgreSQL or PGlite, through a `SqlClient`. Each store is a class of its own (`catalog-store.ts`,
 * `cart-store.ts`, …) over one `SqlContext`: the client, the transaction an `updateCart` callback's calls join, the
 * per-cart write queue and the products this instance holds. This class only composes them.
 */
export class SqlStorage implements Storage {
  readonly name: string
  readonly #sql: SqlContext
  readonly #catalog: SqlCatalogStore
  readonly #carts: SqlCartStore
  readonly #cartViews: SqlCartViewStore
  readonly #orders: SqlOrderStore
  readonly #accounts: SqlAccountStore
  readonly #settings: SqlSettingsStore
  readonly #analytics: SqlAnalyticsStore
  readonly #meta: SqlMetaStore

  constructor (name: string, client: SqlClient) {
    this.name = name
    const sql = new SqlContext(client)
    this.#sql = sql
    this.#catalog = new SqlCatalogStore(sql)
    this.#cartViews = new SqlCartViewStore(sql)
    this.#carts = new SqlCartStore(sql, this.#cartViews)
    this.#orders = new SqlOrderStore(sql)
    this.#accounts = new SqlAccountStore(sql)
    this.#settings = new SqlSettingsStore(sql)
    this.#analytics = new SqlAnalyticsStore(sql)
    this.#meta = new SqlMetaStore(sql)
  }

  /** Applies pending schema migrations, the platform's and the drawer's; returns the ids applied. */
  async migrate (): Promise<string[]> {
    return migrateStorage(this.#sql.client)
  }

  // CatalogStore

  getProduct (id: number): Promise<Product | null> { return this.#catalog.getProduct(id) }
  getProducts (ids: readonly number[]): Promise<Map<number, Product>> { return this.#catalog.getProducts(ids) }
  listProducts (query: ProductQuery): Promise<ProductPage> { return this.#catalog.listProducts(query) }
  upsertProducts (products: readonly Product[]): Promise<void> { return this.#catalog.upsertProducts(products) }
  getCoupon (code: string): Promise<Coupon | null> { return this.#catalog.getCoupon(code) }
  getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> { return this.#catalog.getCoupons(codes) }
  upsertCoupons (coupons: readonly Coupon[]): Promise<void> { return this.#catalog.upsertCoupons(coupons) }

  // CartStore

  getCart (key: string): Promise<StoredCart | null> { return this.#carts.getCart(key) }
  readCart (key: string): Promise<CartRead> { return this.#carts.readCart(key) }
  getVersions (): Promise<WriteVersions> { return this.#carts.getVersions() }
  knownProducts (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null {
    return this.#carts.knownProducts(ids)
  }

  updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options?: CartUpdateOptions
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    return this.#carts.updateCart(key, update, options)
  }

  removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    return this.#carts.removeCartLines(key, itemKeys, finish)
  }

  setCartUser (key: string, userId: number | null): Promise<void> { return this.#carts.setCartUser(key, userId) }
  findUserCart (userId: number): Promise<StoredCart | null> { return this.#carts.findUserCart(userId) }
  deleteCart (key: string): Promise<void> { return this.#carts.deleteCart(key) }
  purgeGuestCarts (before: string, limit: number): Promise<number> { return this.#carts.purgeGuestCarts(before, limit) }

  // CartViewStore

  getCartSnapshot (key: string): Promise<CartSnapshot | null> { return this.#cartViews.getCartSnapshot(key) }
  saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    return this.#cartViews.saveCartSnapshot(key, version, stamp, snapshot)
  }

  // OrderStore

  createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> { return this.#orders.createOrder(order, effects) }
  getOrder (id: number): Promise<Order | null> { return this.#orders.getOrder(id) }
  listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> { return this.#orders.listOrders(query) }
  bestSellers (limit: number): Promise<BestSeller[]> { return this.#orders.bestSellers(limit) }
  orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution> {
    return this.#orders.orderAttribution(from, to, topProducts)
  }

  // AccountStore

  getUserByEmail (email: string): Promise<User | null> { return this.#accounts.getUserByEmail(email) }
  getUser (id: number): Promise<User | null> { return this.#accounts.getUser(id) }
  ensureUser (user: Omit<User, 'id'>): Promise<User> { return this.#accounts.ensureUser(user) }
  replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    return this.#accounts.replacePasswordHash(userId, previous, next)
  }

  setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    return this.#accounts.setUserCapabilities(userId, capabilities)
  }

  createSession (session: Session): Promise<void> { return this.#accounts.createSession(session) }
  getSession (idHash: string): Promise<Session | null> { return this.#accounts.getSession(idHash) }
  touchSession (idHash: string, expiresAt: string): Promise<void> { return this.#accounts.touchSession(idHash, expiresAt) }
  deleteSession (idHash: string): Promise<void> { return this.#accounts.deleteSession(idHash) }
  purgeExpiredSessions (now: string, limit: number): Promise<number> { return this.#accounts.purgeExpiredSessions(now, limit) }

  // SettingsStore

  getSettings (): Promise<StoredSettings | null> { return this.#settings.getSettings() }
  saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    return this.#settings.saveSettings(document, expectedVersion)
  }

  // AnalyticsStore

  insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> { return this.#analytics.insertAnalyticsEvents(events) }
  analyticsSummary (from: string, to: string, notVisits?: readonly string[]): Promise<AnalyticsSummaryData> {
    return this.#analytics.analyticsSummary(from, to, notVisits)
  }

  analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    return this.#analytics.analyticsFunnel(from, to, start, end)
  }

  deleteAnalyticsBefore (before: string, limit?: number): Promise<number> { return this.#analytics.deleteAnalyticsBefore(before, limit) }
  resetAnalytics (): Promise<number> { return this.#analytics.resetAnalytics() }

  // MetaStore

  getOrCreateMeta (key: string, create: () => string): Promise<string> { return this.#meta.getOrCreateMeta(key, create) }

  // Lifecycle

  async ping (): Promise<void> {
    await this.#sql.db.query('SELECT 1')
  }

  async close (): Promise<void> {
    await this.#sql.client.close()
  }
}
