import type { Coupon, NewOrder, Order, Product } from '../../domain/types.ts'
import type {
  AnalyticsEvent, AnalyticsFunnel, AnalyticsSummaryData, BestSeller, CartRead, CartSnapshot, CartUpdate, CartUpdateOptions, OrderAttribution,
  OrderEffects, OrderQuery, ProductPage, ProductQuery, RemovalFinish, RemovedCartLines, Session, Storage, StoredCart, StoredSettings, User,
  WriteVersions
} from '../contract/index.ts'
import { MemoryAccountStore } from './account-store.ts'
import { MemoryAnalyticsStore } from './analytics-store.ts'
import { MemoryCartStore } from './cart-store.ts'
import { MemoryCartViewStore } from './cart-view-store.ts'
import { MemoryCatalogStore } from './catalog-store.ts'
import { MemoryMetaStore } from './meta-store.ts'
import { MemoryOrderStore } from './order-store.ts'
import { MemorySettingsStore } from './settings-store.ts'
import { MemoryState, type MemoryStorageOptions } from './state.ts'

export type { MemoryStorageOptions } from './state.ts'

/**
 * `Storage` in this process's memory: every store, with the SQL backends' rules. Data lives as long as the object
 * and is seen by this process only: for tests, examples and hosts that keep their data elsewhere.
 *
 * Each store is a class of its own (`catalog-store.ts`, `cart-store.ts`, …) over one `MemoryState`, which holds every
 * store's data: a cart read joins the catalog's products and coupons, and a checkout's stock, coupons and order are
 * written in its cart's transaction. This class only composes them.
 *
 * - Writes of one cart queue per key (`KeyedQueue`), so `updateCart` calls of one key run one after the other; the
 *   other cart writes of that key (`setCartUser`, `deleteCart`, `saveCartSnapshot`) wait in the same queue.
 * - Storage calls made inside an `updateCart` callback join its transaction: they skip the queue and are undone when
 *   the callback throws. Unlike PostgreSQL, other callers see those writes before the callback returns.
 * - Each other call is one synchronous step, so it is atomic as a statement is.
 * - After `close()` every call rejects with `StorageUnavailableError`.
 */
export class MemoryStorage implements Storage {
  readonly name = 'memory'
  readonly #state: MemoryState
  readonly #catalog: MemoryCatalogStore
  readonly #carts: MemoryCartStore
  readonly #cartViews: MemoryCartViewStore
  readonly #orders: MemoryOrderStore
  readonly #accounts: MemoryAccountStore
  readonly #settings: MemorySettingsStore
  readonly #analytics: MemoryAnalyticsStore
  readonly #meta: MemoryMetaStore

  constructor (options: MemoryStorageOptions = {}) {
    const state = new MemoryState(options)
    this.#state = state
    this.#catalog = new MemoryCatalogStore(state)
    this.#cartViews = new MemoryCartViewStore(state)
    this.#carts = new MemoryCartStore(state, this.#cartViews)
    this.#orders = new MemoryOrderStore(state)
    this.#accounts = new MemoryAccountStore(state)
    this.#settings = new MemorySettingsStore(state)
    this.#analytics = new MemoryAnalyticsStore(state)
    this.#meta = new MemoryMetaStore(state)
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
    this.#state.assertOpen()
  }

  async close (): Promise<void> {
    this.#state.closed = true
  }
}

/** A new, empty storage in this process's memory (`MemoryStorage`). */
export function createMemoryStorage (options: MemoryStorageOptions = {}): MemoryStorage {
  return new MemoryStorage(options)
}
