import type { CartData, Coupon, NewOrder, Order, Product } from '../../kernel/domain/types.ts'

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
  /** Leaves these ids out. */
  excludeIds?: number[]
  /** Only products with one of these slugs (exact match). */
  slugs?: string[]
  /** Only products with one of these SKUs (exact match). */
  skus?: string[]
  /** Only products whose parent is one of these ids (0: top-level products). */
  parentIds?: number[]
  /** Leaves out products whose parent is one of these ids. */
  parentExcludeIds?: number[]
  /**
   * Variations are answered only when their parent product's status is one of these (default: any). Other types are
   * not affected.
   */
  parentStatuses?: Array<Product['status']>
  /** Category terms, by id or slug, combined by `categoryOperator`. */
  categories?: ProductCategoryTerm[]
  /** `in` (default): in any of the categories; `and`: in every one; `not_in`: in none. */
  categoryOperator?: 'in' | 'and' | 'not_in'
  /** Only products whose stored stock status is one of these. */
  stockStatuses?: Array<Product['stockStatus']>
  /** true: only products on sale (a variable product when one of its published variations is); false: the others. */
  onSale?: boolean
  /**
   * Price bounds in minor units, against the price charged (the sale price when lower). A variable product matches
   * when the range of its published variations' prices overlaps the bounds; a product without a price never matches.
   */
  minPrice?: number
  maxPrice?: number
  /** Default `id`. `price` sorts by the lowest price ascending and the highest descending; no price sorts last. */
  orderBy?: ProductOrderBy
  /** Default `asc`. */
  order?: 'asc' | 'desc'
  /** 1-based page. */
  page?: number
  perPage?: number
}

export type ProductCategoryTerm = { id: number } | { slug: string }

/** `include` keeps the order of `ids`; `title` compares names with ASCII letters folded to lower case. */
export type ProductOrderBy = 'id' | 'title' | 'slug' | 'price' | 'include'

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

/** A login session as stored: never its id, which only the browser's session cookie holds. */
export interface Session {
  /** The SHA-256 of the session id (base64url): what the session is found by. */
  idHash: string
  userId: number
  /** The login: the session's absolute lifetime counts from here. */
  createdAt: string
  /** When the session ends unless it is used before: the earlier of its idle deadline and its absolute end. */
  expiresAt: string
  /** The user's capabilities when the session was issued: when they change, the session gets a new id. */
  capabilities: string[]
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
  /** Whether the event added something to the cart from the drawer (the summary's adds). */
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
}

/** What `analyticsSummary` computes over a range of days. */
export interface AnalyticsSummaryData {
  /** One row per day and type that has events, ordered by day then type. */
  days: AnalyticsDayCount[]
  /** Distinct visitors over the whole range (events without a visitor, or of a type left out, not counted). */
  visitors: number
}

/** What `analyticsFunnel` counts: visitors who did one thing, and how many of them then did another. */
export interface AnalyticsFunnel {
  /** Distinct visitors with a `start` event in the range. */
  started: number
  /** How many of them have an `end` event in the range at or after their first `start` event there. */
  converted: number
}

/**
 * What `updateCart`'s callback returns: the new cart data to store (or `undefined` to store nothing) and a result
 * passed back to the caller.
 */
export interface CartUpdate<T> {
  data?: CartData
  result: T
  /**
   * The drawer's snapshot of the cart as `data` leaves it (what `saveCartSnapshot` would store), stored in the same
   * statement as the data, for the version this write makes. Without it the write drops the cart's snapshot, as
   * every write does. Ignored when `data` is undefined.
   */
  snapshot?: { stamp: string, snapshot: string }
}

/** What `removeCartLines` wrote: the cart before and after, and the versions its statement saw. */
export interface RemovedCartLines {
  before: StoredCart
  cart: StoredCart
  versions: WriteVersions
}

/** What `removeCartLines`' `finish` answers: the caller's result, and the written version's snapshot if it made one. */
export interface RemovalFinish<T> {
  result: T
  snapshot?: { stamp: string, snapshot: string }
}

/** `updateCart`'s options. */
export interface CartUpdateOptions {
  /**
   * The cart as the caller read it (`readCart`'s `cart`; null: none was stored). Storage may then run `update` with
   * it (not a copy: both are the caller's), without the lock, and store the result in one statement only if the cart
   * is still at that version and bound to the same user (still not stored, for null); otherwise `update` runs again,
   * under the lock, with the cart as it is. That first run joins no transaction: pass `seen` only with an update whose
   * storage calls are reads.
   */
  seen?: StoredCart | null
  /**
   * With `seen: null`, for a key made for this very write (never given out, so no one can have read or kept a view of
   * it): the change was checked against products read at this catalog version (`knownProducts`). The cart is stored
   * in one statement only while no cart has the key and the catalog is still at that version; otherwise nothing is
   * stored, `update` does not run again, and `StaleReadError` is thrown: the caller starts over from fresh reads.
   */
  newCartAt?: number
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
 * A cart's stored snapshot as `CartViewStore.getCartSnapshot` answers it: the bytes and the stamp exactly as
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
  /** The cart's version the snapshot was stored for (absent from storages that do not tell it). */
  version?: number
}

/**
 * A rendered view of a guest cart (the drawer's state, the Store API cart, the drawer data) as a cache keeps it: the
 * bytes, the stamp they were computed with and the cart's version they were computed from.
 */
export interface CachedCartView {
  body: string
  stamp: string
  version: number
}

/**
 * A cache of rendered cart views shared by every instance of a shop (Redis), or kept by the only instance (memory),
 * read without a database round trip. It never answers a view older than a write that has begun:
 * - `beginCartWrite(key, nextVersion)` runs inside a cart write, before it commits; from then on no view of the cart
 *   computed from a version below `nextVersion` is answered or stored (a read that fetched the old row before the
 *   commit and stores its view after it is refused). `Number.MAX_SAFE_INTEGER` refuses every view until the entry
 *   expires (a cart deleted, or bound to a user: its views are a guest's).
 * - `beginVersionsWrite` and `endVersionsWrite` bracket a catalog or settings write: in between, `read` answers no
 *   versions (every read goes to the database), and after it the versions are at least the written ones.
 * Both `begin…` calls must reject when the cache cannot be reached: the write must then not happen, or another
 * instance could go on answering the view from before it. Reads and fills may fail: callers fall back to storage.
 */
export interface CartViewCache extends Lifecycle {
  /** The cached view (null: none usable) and the catalog's and settings' versions as the cache knows them (null: unknown). */
  read (key: string, view: string): Promise<{ view: CachedCartView | null, versions: WriteVersions | null }>
  /**
   * Stores a view of the cart at `version`, unless a write has begun since. With `versions`, also makes them known as
   * `seedVersions` does, in the same round trip where the cache can.
   */
  fill (key: string, view: string, entry: CachedCartView, versions?: WriteVersions): Promise<void>
  /** Makes the versions known when the cache knows none (never lowers versions a write published). */
  seedVersions (versions: WriteVersions): Promise<void>
  beginCartWrite (key: string, nextVersion: number): Promise<void>
  /**
   * A cart write whose version is known only after it commits (`Storage.removeCartLines`): `beginPendingCartWrite`
   * runs before it and drops the cart's views; until the matching `endPendingCartWrite(key, writtenVersion)`, no view
   * of the cart is answered or stored. The end also refuses every view below the written version, as
   * `beginCartWrite` does (`writtenVersion` 0: nothing was written). A pending write never ended (a crashed instance)
   * keeps the cart's views refused until its entry expires: reads then go to the database.
   */
  beginPendingCartWrite (key: string): Promise<void>
  endPendingCartWrite (key: string, writtenVersion: number): Promise<void>
  beginVersionsWrite (): Promise<void>
  endVersionsWrite (versions: WriteVersions): Promise<void>
}

/**
 * Carts. Rules:
 * - **Writes of one cart are serial**: `updateCart` calls for one key run one after the other (no lost update);
 *   `setCartUser`, `deleteCart` and `CartViewStore.saveCartSnapshot` of a stored cart wait for its lock too. Carts
 *   of different keys are written side by side.
 * - **Versions**: a cart is stored at version 1 by its first write and grows by one with every write of its data;
 *   binding it to a user does not change its version.
 * - **Snapshots** (`CartViewStore`): a snapshot is stored for one version of a cart, and any write of the cart (its
 *   data or its user) drops it, unless the write of its data brings the new version's snapshot (`CartUpdate.snapshot`).
 * - **Storage calls inside `updateCart`'s callback** join its transaction: they see its writes, roll back with it, and
 *   never wait on the cart's own lock (the unlocked first run of an update given `seen` has no transaction).
 */
export interface CartStore {
  getCart (key: string): Promise<StoredCart | null>
  /** The cart, its products and coupons and the settings' version, as one consistent read (one statement). */
  readCart (key: string): Promise<CartRead>
  /** The catalog's and settings' versions as they are now. */
  getVersions (): Promise<WriteVersions>
  /**
   * The products of `ids` as this instance read them at the newest catalog version it has seen, with that version,
   * when it holds every one; else null. No round trip: the version may be behind the database's (a write that names
   * it, `CartUpdateOptions.newCartAt`, checks it). Absent from a storage that holds none.
   */
  knownProducts? (ids: readonly number[]): { products: Map<number, Product>, catalogVersion: number } | null
  /**
   * Runs `update` with the cart's current data (an empty cart at version 0 when none is stored) while holding the
   * cart's write lock, then stores the returned data, if any, in the same transaction, and answers the versions that
   * transaction saw (`versions`, only when data was stored). Concurrent calls for one key run one after the other.
   * An exception in `update` rolls back and is rethrown. With `options.seen` the write may instead be one statement
   * that lands only if the cart has not changed since the caller's read (`CartUpdateOptions`); `update` may then run
   * twice, and only the outcome of the run that was stored (or, storing nothing, the last) is answered.
   */
  updateCart<T> (key: string, update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>, options?: CartUpdateOptions): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }>
  /**
   * Optional: removes the lines of `itemKeys` from a guest's cart in one statement, without a read before it. It
   * stores only when the cart is stored, bound to no user, has no coupon and no reward line, and holds every key;
   * otherwise it changes nothing and answers null (the caller then changes the cart the usual way). The new version's
   * data is the old data with those lines gone, and its snapshot is dropped. `finish` runs after the write, outside
   * its lock, with the cart before and after; the `snapshot` it answers is kept for the version written (a storage
   * with a view cache may keep it there only). Answers `finish`'s result.
   */
  removeCartLines? <T>(key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null>
  /** Binds a cart to a user (or unbinds with null); a cart that is not stored stays so. */
  setCartUser (key: string, userId: number | null): Promise<void>
  /** The most recently written or bound cart of the user, if any. */
  findUserCart (userId: number): Promise<StoredCart | null>
  deleteCart (key: string): Promise<void>
  /**
   * Deletes guest carts (no user) last written before `before` (an ISO instant), at most `limit` of them, oldest
   * first; returns how many. Safe when several instances sweep at once: a cart being written is skipped, not waited
   * for, and no cart is deleted twice.
   */
  purgeGuestCarts (before: string, limit: number): Promise<number>
}

/**
 * A guest cart's rendered views, each kept for one version of the cart: the drawer's snapshot, and where a view cache
 * is kept (`withCartViewCache`) the other views. They follow `CartStore`'s rules: a snapshot is stored for one version
 * of a cart, `saveCartSnapshot` waits for the cart's lock, and any write of the cart drops its snapshot unless the
 * write brings the new version's (`CartUpdate.snapshot`).
 */
export interface CartViewStore {
  /**
   * The cart's stored snapshot (`saveCartSnapshot`) with its stamp and the catalog's and settings' versions as they
   * are now; null when the cart is not stored, has no snapshot or is bound to a user (a snapshot is a guest's view:
   * a user's cart is read whole, with its owner, whoever asks). One lean statement (the hot read path of a cart that
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
   * Other rendered views of a guest cart (`withCartViewCache`: absent from a storage that keeps none). `getCartView`
   * answers the view while it is the one stored for the cart's current version, with the versions as they are now;
   * `saveCartView` keeps a view computed from `version` of the cart, at the versions in `stamp`'s maker's hands.
   */
  getCartView? (key: string, view: string): Promise<CartSnapshot | null>
  saveCartView? (key: string, version: number, view: string, stamp: string, body: string, versions: WriteVersions): Promise<void>
}

/** Users and their sessions. E-mail addresses are stored and looked up trimmed and in lower case. */
export interface AccountStore {
  getUserByEmail (email: string): Promise<User | null>
  getUser (id: number): Promise<User | null>
  /** Creates the user, or returns the existing one with that e-mail unchanged (concurrent calls agree on one). */
  ensureUser (user: Omit<User, 'id'>): Promise<User>
  /**
   * Replaces the user's password hash if it is still `previous` (a rehash at login never overwrites a change made
   * meanwhile); returns whether it did.
   */
  replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean>
  /** Sets the user's capabilities (a privilege change: their sessions get new ids at their next request). */
  setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void>
  /** Stores a session of an existing user; rejects for an unknown user or a session id hash already stored. */
  createSession (session: Session): Promise<void>
  getSession (idHash: string): Promise<Session | null>
  /** Moves the session's expiry on to `expiresAt` (an ISO instant); never back, and nothing for a session not stored. */
  touchSession (idHash: string, expiresAt: string): Promise<void>
  deleteSession (idHash: string): Promise<void>
  /** Deletes sessions that expired before `now` (an ISO instant), at most `limit`; returns how many. */
  purgeExpiredSessions (now: string, limit: number): Promise<number>
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
   * both inclusive), computed by the database. Events whose type is in `notVisits` are counted per day but make no
   * one a visitor (the orders the service records).
   */
  analyticsSummary (from: string, to: string, notVisits?: readonly string[]): Promise<AnalyticsSummaryData>
  /**
   * Per visitor over the days from `from` to `to` (both inclusive): whether they had a `start` event, and whether an
   * `end` event followed it (at or after their first `start` of the range), computed by the database. Events without
   * a visitor are not counted.
   */
  analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel>
  /** Deletes events that occurred before `before` (an ISO instant), at most `limit` of them (oldest first) when given. */
  deleteAnalyticsBefore (before: string, limit?: number): Promise<number>
  /** Deletes every event; returns how many. */
  resetAnalytics (): Promise<number>
}

/** What placing an order changes besides storing it. */
export interface OrderEffects {
  /** Stock to take, per product or variation id (summed when an id appears twice). */
  stock: ReadonlyArray<{ productId: number, quantity: number }>
  /** Coupon codes whose usage count grows by one. */
  coupons: readonly string[]
}

export interface OrderQuery {
  customerId?: number
  /** 1-based page. */
  page?: number
  perPage?: number
}

/**
 * Placed orders. Order ids grow (1, 2, …) and are never reused.
 */
export interface OrderStore {
  /**
   * Stores the order and applies its effects, all or nothing: the stock of each product that manages stock falls by
   * the quantity (refused when it would go below zero and the product takes no backorders; a product reaching zero
   * becomes `outofstock`, or `onbackorder` below zero), each coupon's usage count grows by one (refused once its usage
   * limit is reached). A refusal rejects with `OrderConflictError` and changes nothing. Inside an `updateCart`
   * callback it joins that transaction (so the cart's change and the order commit together). Grows the catalog's
   * version when stock or a coupon changed.
   */
  createOrder (order: NewOrder, effects: OrderEffects): Promise<Order>
  getOrder (id: number): Promise<Order | null>
  /** Newest first; `total` counts every match. */
  listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }>
  /**
   * The best-selling products of the placed orders: units sold per product (a variation's units count for its
   * parent, `OrderLine.productId`), over the orders whose status is one of `BEST_SELLER_STATUSES` (WooCommerce's
   * `total_sales`: processing, on-hold, completed). Most units first, then the lower id; at most `limit` (whole,
   * 1–100; anything else is brought within).
   */
  bestSellers (limit: number): Promise<BestSeller[]>
  /**
   * What the drawer's analytics read of the orders placed from day `from` to day `to` (`YYYY-MM-DD`, UTC, both
   * inclusive) whose status is one of `BEST_SELLER_STATUSES` (processing, on-hold, completed), in one statement (one
   * snapshot): per day, the orders, those with a line the drawer added (`OrderLine.origin`), their sales (the lines'
   * `total`: after discounts, before tax; no shipping, fees or tax) and the drawer lines' share; per origin and per
   * product (a variation's lines count for its parent), the drawer lines' units and totals. Products: most revenue
   * first, then most units, then the lower id; at most `topProducts` (whole, 1–100; anything else is brought within).
   * Money as decimal strings of minor units (exact beyond 2^53).
   */
  orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution>
}

/** A product and the units of it the counted orders hold. */
export interface BestSeller {
  productId: number
  quantity: number
}

/** One UTC day of `orderAttribution` (only days with counted orders are listed). */
export interface OrderAttributionDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string
  orders: number
  /** Orders holding at least one line with an origin. */
  drawerOrders: number
  /** The lines' totals of every order. */
  sales: string
  /** The lines' totals (every line) of the orders with a drawer line. */
  drawerOrderSales: string
  /** The totals of the lines with an origin. */
  attributed: string
}

/** The drawer lines of one origin, or of one product, in `orderAttribution`. */
export interface OrderAttributionShare {
  units: number
  /** Orders holding such a line. */
  orders: number
  /** The lines' totals. */
  revenue: string
}

/** What `OrderStore.orderAttribution` answers. */
export interface OrderAttribution {
  /** By day, oldest first. */
  days: OrderAttributionDay[]
  /** One entry per origin found, ordered by origin. */
  origins: Array<OrderAttributionShare & { origin: string }>
  /** The products of drawer lines; `name` is the line's name on the newest such order. */
  products: Array<OrderAttributionShare & { productId: number, name: string }>
}

/** Values kept across restarts (for example the generated signing secret). */
export interface MetaStore {
  /** The value of `key`, created once with `create`: concurrent callers (and instances) agree on one value. */
  getOrCreateMeta (key: string, create: () => string): Promise<string>
}

/** The answer kept for an idempotency key: what a repeat of its request is sent. */
export interface IdempotentAnswer {
  status: number
  /** The headers that matter (lower-case names), such as `cart-token` and `content-type`. */
  headers: Record<string, string>
  body: string
}

/** A request that claims an idempotency key (`IdempotencyStore.claimIdempotencyKey`). */
export interface IdempotencyKeyClaim {
  /** The key's id: the client's key and the identity it is scoped to, as the caller names them (a hash, say). */
  id: string
  /** What identifies the request (method, path, body): a repeat must bring the same. */
  fingerprint: string
  /** This request's own token: only the request holding it completes or releases the claim. */
  owner: string
  /** ISO instants: now; until when the claim holds a running request; when the key is forgotten. */
  now: string
  lockedUntil: string
  expiresAt: string
}

/**
 * What a claim found: the key was free (or expired, or held by a request whose lock has run out) and is now this
 * request's; it is held by another request still running; or its answer is kept. `fingerprint` is the request that
 * holds or answered it.
 */
export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'running', fingerprint: string }
  | { state: 'done', fingerprint: string, answer: IdempotentAnswer }

/**
 * Idempotency keys of writes (`Idempotency-Key`): the first request with a key claims it, runs, and keeps its answer;
 * a repeat finds the answer instead of running again. Durable on SQL, so that two instances, or one restarted, agree.
 * Each call is one atomic step, never part of a cart's transaction.
 */
export interface IdempotencyStore {
  /**
   * Claims the key for a request, atomically: of concurrent claims of a free key exactly one answers `claimed`. A key
   * past `expiresAt`, or still running past `lockedUntil`, counts as free (its new claim replaces it).
   */
  claimIdempotencyKey (claim: IdempotencyKeyClaim): Promise<IdempotencyClaim>
  /** Keeps the answer of the claim `owner` holds; false when the claim is no longer its (taken over, released). */
  completeIdempotencyKey (id: string, owner: string, answer: IdempotentAnswer): Promise<boolean>
  /** Gives the key up, when `owner` still holds it running: the next request with it runs (a 5xx is not kept). */
  releaseIdempotencyKey (id: string, owner: string): Promise<void>
  /** Deletes keys that expired before `before` (an ISO instant), at most `limit` of them; returns how many. */
  purgeIdempotencyKeys (before: string, limit: number): Promise<number>
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
export interface Storage extends CatalogStore, CartStore, CartViewStore, OrderStore, AccountStore, SettingsStore, AnalyticsStore, MetaStore, IdempotencyStore, Lifecycle {
  /**
   * Whether the view cache kept beside the storage (`withCartViewCache`) is used now: `shared`, or `bypassed` while it
   * fails or does not answer (reads go to the database, writes go on and are told to the cache once it answers). Absent
   * on a storage that keeps no view cache.
   */
  viewCache? (): { backend: string, state: ViewCacheState }
  /**
   * Calls `listener` at each change of `viewCache().state`, with the failure that made the cache bypassed; returns the
   * function that stops it. Present with `viewCache`.
   */
  onViewCacheChange? (listener: (state: ViewCacheState, cause?: unknown) => void): () => void
}

/** Whether a storage's view cache is used (`shared`) or bypassed while it does not answer. */
export type ViewCacheState = 'shared' | 'bypassed'

export interface RateHit {
  /** Hits counted in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetInMs: number
}

/**
 * Fixed-window counters. `hit` counts one request atomically and must fail fast (reject) when the store is down, as
 * must `peek` and `reset`. A key's windows of different lengths are separate counters.
 */
export interface RateCounter extends Lifecycle {
  hit (key: string, windowMs: number): Promise<RateHit>
  /**
   * `hit` for each key, in one command where the store can (one Redis server; not a cluster, whose keys live on
   * different nodes): the hits in the keys' order. Absent: the caller hits each key.
   */
  hitEach? (keys: readonly string[], windowMs: number): Promise<RateHit[]>
  /** The current window of `key` without counting: `{ count: 0, resetInMs: 0 }` when none is open. */
  peek (key: string, windowMs: number): Promise<RateHit>
  /** Closes the current window of `key`, if any: the next `hit` counts 1. */
  reset (key: string, windowMs: number): Promise<void>
  /**
   * How the counts are kept now, on a counter that falls back to counting in this process while its shared store does
   * not answer (storage's `withFallbackCounter`): `shared` (one count for every instance) or `per_instance`. Absent on
   * the others.
   */
  counting? (): RateCounting
  /**
   * Calls `listener` at each change of `counting()`, with the failure that made the counter fall back; returns the
   * function that stops it. Present with `counting`.
   */
  onCountingChange? (listener: (counting: RateCounting, cause?: unknown) => void): () => void
}

/** Where a rate counter keeps its counts now: shared by every instance, or in this process only. */
export type RateCounting = 'shared' | 'per_instance'
