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

/**
 * The stores below are the parts of `Storage`, one per aggregate. Rules every implementation keeps, in every store:
 * - **Outages reject.** When the backing server cannot be reached, a method rejects with an error
 *   `isStorageUnavailable` recognises: a `StorageUnavailableError` or the driver's own connection error. The HTTP
 *   layer answers those with 503. Any other rejection is a bug or a refused value, never an outage.
 * - **Values are copies.** What a method returns is the caller's to change; what it is given is copied when stored.
 * - **Versions grow by one.** A cart's `version`, the catalog's version and the settings' version each grow by exactly
 *   one with every write that changes them, and never go back.
 */

/**
 * Products and coupons, and the catalog's version: every `upsertProducts` or `upsertCoupons` call with at least one
 * item grows it by one, in the same statement as the write (`CartRead.catalogVersion`, `WriteVersions`). Coupon codes
 * are stored and looked up trimmed and in lower case; a list with the same id or code twice keeps the last one.
 */
export interface CatalogStore {
  getProduct (id: number): Promise<Product | null>
  getProducts (ids: readonly number[]): Promise<Map<number, Product>>
  /** Ordered by id; `total` counts every match, also past the last page. */
  listProducts (query: ProductQuery): Promise<ProductPage>
  upsertProducts (products: readonly Product[]): Promise<void>

  getCoupon (code: string): Promise<Coupon | null>
  /** By normalised code. */
  getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>>
  upsertCoupons (coupons: readonly Coupon[]): Promise<void>
}

/**
 * A cart's stored snapshot as `CartStore.getCartSnapshot` answers it: the bytes and the stamp exactly as
 * `saveCartSnapshot` stored them, and the catalog's and settings' versions as they are now, read in the same
 * statement. Storage never reads the stamp: whether the snapshot is still current is the caller's decision (the
 * platform stamps it with the versions it was computed at and compares them with these).
 */
export interface CartSnapshot {
  snapshot: string
  stamp: string
  catalogVersion: number
  /** 0 when no settings are stored. */
  settingsVersion: number
}

/**
 * Carts. Rules:
 * - **Writes of one cart are serial**: `updateCart` calls for one key run one after the other (no lost update);
 *   `setCartUser`, `deleteCart` and `saveCartSnapshot` of a stored cart wait for its lock too. Carts of different
 *   keys are written side by side.
 * - **Versions**: a cart is stored at version 1 by its first write and grows by one with every write of its data;
 *   binding it to a user does not change its version.
 * - **Snapshots**: a snapshot is stored for one version of a cart, and any write of the cart (its data or its user)
 *   drops it.
 * - **Storage calls inside `updateCart`'s callback** join its transaction: they see its writes, roll back with it, and
 *   never wait on the cart's own lock.
 */
export interface CartStore {
  getCart (key: string): Promise<StoredCart | null>
  /** The cart, its products and coupons and the settings' version, as one consistent read (one statement). */
  readCart (key: string): Promise<CartRead>
  /**
   * The cart's stored snapshot (`saveCartSnapshot`) with its stamp and the catalog's and settings' versions as they
   * are now; null when the cart is not stored or has no snapshot. One lean statement (the hot read path of a cart that
   * has not changed since its last write): no cart data, products or timestamps are read.
   */
  getCartSnapshot (key: string): Promise<CartSnapshot | null>
  /**
   * Stores a snapshot of the cart (the drawer's state as sent) if the cart is still at `version`; any write of the
   * cart drops it. `stamp` is opaque to storage: stored, and answered by `getCartSnapshot`, as it is, for the caller
   * to tell what the snapshot was computed from. Returns whether it was stored.
   */
  saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean>
  /**
   * Runs `update` with the cart's current data (an empty cart at version 0 when none is stored) while holding the
   * cart's write lock, then stores the returned data, if any, in the same transaction, and answers the versions that
   * transaction saw (`versions`, only when data was stored). Concurrent calls for one key run one after the other.
   * An exception in `update` rolls back and is rethrown.
   */
  updateCart<T> (key: string, update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }>
  /** Binds a cart to a user (or unbinds with null); a cart that is not stored stays so. */
  setCartUser (key: string, userId: number | null): Promise<void>
  /** The most recently written or bound cart of the user, if any. */
  findUserCart (userId: number): Promise<StoredCart | null>
  deleteCart (key: string): Promise<void>
}

/** Users and their sessions. E-mail addresses are stored and looked up trimmed and in lower case. */
export interface AccountStore {
  getUserByEmail (email: string): Promise<User | null>
  getUser (id: number): Promise<User | null>
  /** Creates the user, or returns the existing one with that e-mail unchanged (concurrent calls agree on one). */
  ensureUser (user: Omit<User, 'id'>): Promise<User>
  /** Stores a session of an existing user; rejects for an unknown user or a session id already stored. */
  createSession (session: Session): Promise<void>
  getSession (id: string): Promise<Session | null>
  deleteSession (id: string): Promise<void>
}

/**
 * The drawer's settings document: one document with a version that grows by one with every save (1 for the first).
 * `CartRead.settingsVersion` and `WriteVersions` carry that version (0 while none is stored).
 */
export interface SettingsStore {
  getSettings (): Promise<StoredSettings | null>
  /**
   * Stores the settings document. With `expectedVersion`, stores only if the current version equals it
   * (0 when none is stored) and returns null otherwise: of two saves from one version, one wins.
   */
  saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null>
}

/** The drawer's analytics events. Days are UTC days; a batch is stored whole or not at all. */
export interface AnalyticsStore {
  /** Stores the events in one statement; returns how many were stored. */
  insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number>
  /**
   * Counts per UTC day and type, and distinct visitors, of the events from day `from` to day `to` (`YYYY-MM-DD`,
   * both inclusive), computed by the database.
   */
  analyticsSummary (from: string, to: string): Promise<AnalyticsSummaryData>
  /** Deletes events that occurred before `before` (an ISO instant), at most `limit` of them (oldest first) when given. */
  deleteAnalyticsBefore (before: string, limit?: number): Promise<number>
  /** Deletes every event; returns how many. */
  resetAnalytics (): Promise<number>
}

/** Values kept across restarts (for example the generated signing secret). */
export interface MetaStore {
  /** The value of `key`, created once with `create`: concurrent callers (and instances) agree on one value. */
  getOrCreateMeta (key: string, create: () => string): Promise<string>
}

/** What every backend has: its name, a health check and a close. */
export interface Lifecycle {
  /** The backend (`postgres`, `pglite`, `memory`, `redis`). */
  readonly name: string
  /** Resolves when the backend answers; rejects as an outage when it does not. */
  ping (): Promise<void>
  /** Releases the backend's connections; nothing may be called afterwards. */
  close (): Promise<void>
}

/** Everything the plugins persist: every store of one backend. */
export interface Storage extends CatalogStore, CartStore, AccountStore, SettingsStore, AnalyticsStore, MetaStore, Lifecycle {}

export interface RateHit {
  /** Hits counted in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetInMs: number
}

/** Fixed-window counters. `hit` counts one request atomically and must fail fast (reject) when the store is down. */
export interface RateCounter extends Lifecycle {
  hit (key: string, windowMs: number): Promise<RateHit>
}
