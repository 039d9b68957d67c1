import type { Coupon, NewOrder, Order, Product } from '../kernel/domain/types.ts'
import type {
  AccountStore, AnalyticsEvent, AnalyticsFunnel, AnalyticsStore, AnalyticsSummaryData, BestSeller, CartRead, CartSnapshot, CartStore, CartUpdate,
  CartUpdateOptions, CartViewStore, CatalogStore, IdempotencyClaim, IdempotencyKeyClaim, IdempotencyStore, IdempotentAnswer, MetaStore, OrderAttribution, OrderEffects, OrderQuery, OrderStore, ProductPage, ProductQuery,
  RemovalFinish, RemovedCartLines, Session, SettingsStore, Storage, StoredCart, StoredSettings, User, WriteVersions
} from './contract/index.ts'

/** One store per aggregate, as a backend builds them over its shared state. */
export interface StoreSet {
  catalog: CatalogStore
  carts: CartStore & Required<Pick<CartStore, 'removeCartLines'>>
  cartViews: CartViewStore
  orders: OrderStore
  accounts: AccountStore
  settings: SettingsStore
  analytics: AnalyticsStore
  meta: MetaStore
  idempotency: IdempotencyStore
}

/**
 * `Storage` composed of one store per aggregate: each call goes to the store it belongs to. A backend (memory, SQL)
 * builds its stores over its shared state and adds its lifecycle; the services that need less than the whole
 * `Storage` are typed by the stores they use.
 */
export abstract class ComposedStorage implements Storage {
  abstract readonly name: string
  readonly #stores: StoreSet

  constructor (stores: StoreSet) {
    this.#stores = stores
  }

  // CatalogStore

  getProduct (id: number): Promise<Product | null> { return this.#stores.catalog.getProduct(id) }
  getProducts (ids: readonly number[]): Promise<Map<number, Product>> { return this.#stores.catalog.getProducts(ids) }
  listProducts (query: ProductQuery): Promise<ProductPage> { return this.#stores.catalog.listProducts(query) }
  upsertProducts (products: readonly Product[]): Promise<void> { return this.#stores.catalog.upsertProducts(products) }
  getCoupon (code: string): Promise<Coupon | null> { return this.#stores.catalog.getCoupon(code) }
  getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> { return this.#stores.catalog.getCoupons(codes) }
  upsertCoupons (coupons: readonly Coupon[]): Promise<void> { return this.#stores.catalog.upsertCoupons(coupons) }

  // CartStore

  getCart (key: string): Promise<StoredCart | null> { return this.#stores.carts.getCart(key) }
  readCart (key: string): Promise<CartRead> { return this.#stores.carts.readCart(key) }
  getVersions (): Promise<WriteVersions> { return this.#stores.carts.getVersions() }
  updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options?: CartUpdateOptions
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    return this.#stores.carts.updateCart(key, update, options)
  }

  removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    return this.#stores.carts.removeCartLines(key, itemKeys, finish)
  }

  setCartUser (key: string, userId: number | null): Promise<void> { return this.#stores.carts.setCartUser(key, userId) }
  findUserCart (userId: number): Promise<StoredCart | null> { return this.#stores.carts.findUserCart(userId) }
  deleteCart (key: string): Promise<void> { return this.#stores.carts.deleteCart(key) }
  purgeGuestCarts (before: string, limit: number): Promise<number> { return this.#stores.carts.purgeGuestCarts(before, limit) }

  // CartViewStore

  getCartSnapshot (key: string): Promise<CartSnapshot | null> { return this.#stores.cartViews.getCartSnapshot(key) }
  saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    return this.#stores.cartViews.saveCartSnapshot(key, version, stamp, snapshot)
  }

  // OrderStore

  createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> { return this.#stores.orders.createOrder(order, effects) }
  getOrder (id: number): Promise<Order | null> { return this.#stores.orders.getOrder(id) }
  listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> { return this.#stores.orders.listOrders(query) }
  bestSellers (limit: number): Promise<BestSeller[]> { return this.#stores.orders.bestSellers(limit) }
  orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution> {
    return this.#stores.orders.orderAttribution(from, to, topProducts)
  }

  // AccountStore

  getUserByEmail (email: string): Promise<User | null> { return this.#stores.accounts.getUserByEmail(email) }
  getUser (id: number): Promise<User | null> { return this.#stores.accounts.getUser(id) }
  ensureUser (user: Omit<User, 'id'>): Promise<User> { return this.#stores.accounts.ensureUser(user) }
  replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    return this.#stores.accounts.replacePasswordHash(userId, previous, next)
  }

  setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    return this.#stores.accounts.setUserCapabilities(userId, capabilities)
  }

  createSession (session: Session): Promise<void> { return this.#stores.accounts.createSession(session) }
  getSession (idHash: string): Promise<Session | null> { return this.#stores.accounts.getSession(idHash) }
  touchSession (idHash: string, expiresAt: string): Promise<void> { return this.#stores.accounts.touchSession(idHash, expiresAt) }
  deleteSession (idHash: string): Promise<void> { return this.#stores.accounts.deleteSession(idHash) }
  purgeExpiredSessions (now: string, limit: number): Promise<number> { return this.#stores.accounts.purgeExpiredSessions(now, limit) }

  // SettingsStore

  getSettings (): Promise<StoredSettings | null> { return this.#stores.settings.getSettings() }
  saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    return this.#stores.settings.saveSettings(document, expectedVersion)
  }

  // AnalyticsStore

  insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> { return this.#stores.analytics.insertAnalyticsEvents(events) }
  analyticsSummary (from: string, to: string, notVisits?: readonly string[]): Promise<AnalyticsSummaryData> {
    return this.#stores.analytics.analyticsSummary(from, to, notVisits)
  }

  analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    return this.#stores.analytics.analyticsFunnel(from, to, start, end)
  }

  deleteAnalyticsBefore (before: string, limit?: number): Promise<number> { return this.#stores.analytics.deleteAnalyticsBefore(before, limit) }
  resetAnalytics (): Promise<number> { return this.#stores.analytics.resetAnalytics() }

  // MetaStore

  getOrCreateMeta (key: string, create: () => string): Promise<string> { return this.#stores.meta.getOrCreateMeta(key, create) }

  // IdempotencyStore

  claimIdempotencyKey (claim: IdempotencyKeyClaim): Promise<IdempotencyClaim> { return this.#stores.idempotency.claimIdempotencyKey(claim) }
  completeIdempotencyKey (id: string, owner: string, answer: IdempotentAnswer): Promise<boolean> {
    return this.#stores.idempotency.completeIdempotencyKey(id, owner, answer)
  }

  releaseIdempotencyKey (id: string, owner: string): Promise<void> { return this.#stores.idempotency.releaseIdempotencyKey(id, owner) }
  purgeIdempotencyKeys (before: string, limit: number): Promise<number> { return this.#stores.idempotency.purgeIdempotencyKeys(before, limit) }

  // Lifecycle

  abstract ping (): Promise<void>
  abstract close (): Promise<void>
}
