import type { CartData, Coupon, Product } from '../domain/types.ts'

/** A stored cart. `version` grows by one with every write. */
export interface StoredCart {
  key: string
  userId: number | null
  data: CartData
  version: number
  updatedAt: string
}

/** The versions a write saw, read in its transaction: what a snapshot computed from the write is stamped with. */
export interface WriteVersions {
  catalogVersion: number
  settingsVersion: number
}

export interface ProductQuery {
  /** Only products with these statuses (default: every status). */
  statuses?: Array<Product['status']>
  /** Only products whose catalog visibility is one of these (default: any). */
  visibilities?: Array<Product['catalogVisibility']>
  /** Only these product types (default: simple and variable, never variations). */
  types?: Array<Product['type']>
  /** Case-insensitive match on name or SKU. */
  search?: string
  categoryId?: number
  ids?: number[]
  /** 1-based page. */
  page?: number
  perPage?: number
}

export interface ProductPage {
  products: Product[]
  total: number
}

export interface User {
  id: number
  email: string
  displayName: string
  passwordHash: string
  capabilities: string[]
}

export interface Session {
  id: string
  userId: number
  createdAt: string
  expiresAt: string
}

export interface StoredSettings {
  document: Record<string, unknown>
  version: number
}

/**
 * One drawer event as stored. The visitor is pseudonymous: a keyed hash the service makes of the cart key, never a
 * cart key or an IP address.
 */
export interface AnalyticsEvent {
  type: string
  /** A keyed hash naming the visitor, or null. */
  visitor: string | null
  productId: number | null
  /** Minor units attributed to the event, or 0. */
  value: number
  /** Whether the event added something to the cart from the drawer (the summary's adds and attributed revenue). */
  drawerAdd: boolean
  occurredAt: string
  data: Record<string, unknown>
}

/** The events of one type on one UTC day. */
export interface AnalyticsDayCount {
  /** `YYYY-MM-DD` (UTC). */
  day: string
  type: string
  count: number
  /** How many of them were drawer adds. */
  adds: number
  /** The sum of the drawer adds' values in minor units, as a decimal string (exact beyond 2^53). */
  addValue: string
}

/** What `analyticsSummary` computes over a range of days. */
export interface AnalyticsSummaryData {
  /** One row per day and type that has events, ordered by day then type. */
  days: AnalyticsDayCount[]
  /** Distinct visitors over the whole range (events without a visitor not counted). */
  visitors: number
}

/**
 * What `updateCart`'s callback returns: the new cart data to store (or `undefined` to store nothing) and a result
 * passed back to the caller.
 */
export interface CartUpdate<T> {
  data?: CartData
  result: T
}

/**
 * A cart with everything pricing it needs, read in one round trip: the stored cart, its lines' products (variations
 * and their parents), its coupons, and the settings' version, so cached settings are checked on every cart read.
 */
export interface CartRead {
  cart: StoredCart | null
  products: Map<number, Product>
  /** By normalised code. */
  coupons: Map<string, Coupon>
  /** The stored settings' version, 0 when none is stored. */
  settingsVersion: number
  /** The catalog's version (grows with every product or coupon write). */
  catalogVersion: number
}

/** Everything the plugins persist. Implementations must serialise writes to one cart (no lost updates). */
export interface Storage {
  readonly name: string

  getProduct (id: number): Promise<Product | null>
  getProducts (ids: readonly number[]): Promise<Map<number, Product>>
  listProducts (query: ProductQuery): Promise<ProductPage>
  upsertProducts (products: readonly Product[]): Promise<void>

  getCart (key: string): Promise<StoredCart | null>
  /** The cart, its products and coupons and the settings' version, as one consistent read (one statement). */
  readCart (key: string): Promise<CartRead>
  /**
   * The cart's stored snapshot (`saveCartSnapshot`) if its stamp is `{snapshotKey}:{catalogVersion}:{settingsVersion}`
   * with the versions as they are now; else null (no cart, no snapshot, or one computed from older data). One lean
   * statement: the read path of a cart that has not changed since its last write sends these bytes as they are.
   */
  readCartSnapshot (key: string, snapshotKey: string): Promise<string | null>
  /**
   * Stores a snapshot of the cart (the drawer's state as sent) if the cart is still at `version`; any write of the
   * cart drops it. `stamp` says what it was computed from (see `readCartSnapshot`). Returns whether it was stored.
   */
  saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean>
  /**
   * Runs `update` with the cart's current data (an empty cart when none is stored) while holding the cart's write
   * lock, then stores the returned data, if any, in the same transaction. Concurrent calls for one key run one
   * after the other. An exception in `update` rolls back and is rethrown.
   */
  updateCart<T> (key: string, update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }>
  /** Binds a cart to a user (or unbinds with null). */
  setCartUser (key: string, userId: number | null): Promise<void>
  /** The most recently updated cart bound to the user, if any. */
  findUserCart (userId: number): Promise<StoredCart | null>
  deleteCart (key: string): Promise<void>

  getCoupon (code: string): Promise<Coupon | null>
  getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>>
  upsertCoupons (coupons: readonly Coupon[]): Promise<void>

  getUserByEmail (email: string): Promise<User | null>
  getUser (id: number): Promise<User | null>
  /** Creates the user, or returns the existing one with that e-mail unchanged. */
  ensureUser (user: Omit<User, 'id'>): Promise<User>
  createSession (session: Session): Promise<void>
  getSession (id: string): Promise<Session | null>
  deleteSession (id: string): Promise<void>

  getSettings (): Promise<StoredSettings | null>
  /**
   * Stores the settings document. With `expectedVersion`, stores only if the current version equals it
   * (0 when none is stored) and returns null otherwise.
   */
  saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null>

  /** Stores the events in one statement; returns how many were stored. */
  insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number>
  /**
   * Counts per UTC day and type, and distinct visitors, of the events from day `from` to day `to` (`YYYY-MM-DD`,
   * both inclusive), computed by the database.
   */
  analyticsSummary (from: string, to: string): Promise<AnalyticsSummaryData>
  /** Deletes events that occurred before `before` (an ISO instant), at most `limit` of them when given. */
  deleteAnalyticsBefore (before: string, limit?: number): Promise<number>
  /** Deletes every event; returns how many. */
  resetAnalytics (): Promise<number>

  /** A value kept across restarts (for example the generated signing secret); created once with `create`. */
  getOrCreateMeta (key: string, create: () => string): Promise<string>

  ping (): Promise<void>
  close (): Promise<void>
}

/** The drawer's settings document (a part of `Storage`). */
export type SettingsStore = Pick<Storage, 'getSettings' | 'saveSettings'>

/** The drawer's analytics events (a part of `Storage`). */
export type AnalyticsStore = Pick<Storage, 'insertAnalyticsEvents' | 'analyticsSummary' | 'deleteAnalyticsBefore' | 'resetAnalytics'>

export interface RateHit {
  /** Hits counted in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetInMs: number
}

/** Fixed-window counters. `hit` counts one request atomically and must fail fast (reject) when the store is down. */
export interface RateCounter {
  readonly name: string
  hit (key: string, windowMs: number): Promise<RateHit>
  ping (): Promise<void>
  close (): Promise<void>
}
