import type { CartData, Coupon, NewOrder, Order, Product } from '../../domain/types.ts'
import { stockByProduct, takeStock } from '../../domain/stock.ts'
import { OrderConflictError, StaleReadError, StorageUnavailableError } from '../contract/index.ts'
import { ScopedContext } from '../../lib/index.ts'
import { KeyedQueue } from '../keyed-queue.ts'
import { productSelection } from './product-match.ts'
import { BEST_SELLER_STATUSES, bestSellerLimit, lastById, normaliseKey, orderPaging, productPaging } from '../rules.ts'
import type {
  AnalyticsDayCount, AnalyticsEvent, AnalyticsFunnel, AnalyticsSummaryData, BestSeller, CartRead, CartSnapshot, CartUpdate, CartUpdateOptions, OrderAttribution,
  OrderAttributionDay, OrderAttributionShare, OrderEffects, OrderQuery, ProductPage, ProductQuery, RemovalFinish, RemovedCartLines, Session, Storage,
  StoredCart, StoredSettings, User, WriteVersions
} from '../contract/index.ts'

export interface MemoryStorageOptions {
  /** Clock in milliseconds (cart timestamps); tests inject one. */
  now?: () => number
}

const EMPTY_CART: CartData = { lines: [], coupons: [] }
const DAY_MS = 86_400_000
const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * Stored values are JSON copies, as the SQL backends keep them in `jsonb`: nothing a caller holds is shared with the
 * store, and what JSON cannot carry (`undefined` members) is dropped the same way.
 */
function copy<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

interface CartRecord {
  readonly key: string
  readonly userId: number | null
  readonly data: CartData
  readonly version: number
  readonly updatedAt: string
  /** Orders the carts of a user by their last write or binding. */
  readonly touch: number
  readonly snapshot: string | null
  readonly stamp: string | null
}

interface EventRecord {
  readonly id: number
  /** `occurredAt` in milliseconds. */
  readonly at: number
  /** Its UTC day, `YYYY-MM-DD`. */
  readonly day: string
  readonly event: AnalyticsEvent
}

/** An `updateCart` callback's transaction: what undoes its writes, oldest first. */
interface Transaction {
  readonly undo: Array<() => void>
  open: boolean
}

/** Carries `updateCart`'s outcome out of a transaction that must roll back. */
class Discard<T> {
  constructor (readonly outcome: T) {}
}

function dayStart (day: string, name: string): number {
  const time = DAY.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN
  if (Number.isNaN(time)) throw new RangeError(`${name} must be a day (YYYY-MM-DD), got ${JSON.stringify(day)}`)
  return time
}

function instant (value: string, name: string): number {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RangeError(`${name} must be an ISO instant, got ${JSON.stringify(value)}`)
  return time
}

/** Counts one drawer line into a share (`orderAttribution`). */
function addShare<S extends { units: number, orders: Set<number>, revenue: bigint }> (sums: S, orderId: number, units: number, total: number): S {
  sums.units += units
  sums.orders.add(orderId)
  sums.revenue += BigInt(total)
  return sums
}

/**
 * `Storage` in this process's memory: every store, with the SQL backends' rules. Data lives as long as the object
 * and is seen by this process only: for tests, examples and hosts that keep their data elsewhere.
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
  readonly #now: () => number
  readonly #transactions = new ScopedContext<Transaction>()
  readonly #cartWrites = new KeyedQueue()
  #closed = false

  readonly #products = new Map<number, Product>()
  readonly #coupons = new Map<string, Coupon>()
  #catalogVersion = 1
  readonly #carts = new Map<string, CartRecord>()
  #touch = 0
  readonly #users = new Map<number, User>()
  /** User ids by normalised e-mail. */
  readonly #userIds = new Map<string, number>()
  #nextUserId = 1
  readonly #sessions = new Map<string, Session>()
  #settings: StoredSettings | null = null
  readonly #events = new Map<number, EventRecord>()
  #nextEventId = 1
  readonly #meta = new Map<string, string>()
  readonly #orders = new Map<number, Order>()
  #nextOrderId = 1

  constructor (options: MemoryStorageOptions = {}) {
    this.#now = options.now ?? Date.now
  }

  #assertOpen (): void {
    if (this.#closed) throw new StorageUnavailableError('memory storage is closed')
  }

  get #inTransaction (): boolean {
    return this.#transactions.get()?.open === true
  }

  /** Registers how to undo a write made inside a transaction (none outside one: the write is final). */
  #onRollback (undo: () => void): void {
    const transaction = this.#transactions.get()
    if (transaction?.open === true) transaction.undo.push(undo)
  }

  /** Sets (or, with `undefined`, deletes) a map's entry, undoably. */
  #assign<K, V> (map: Map<K, V>, key: K, value: V | undefined): void {
    const had = map.has(key)
    const previous = map.get(key)
    if (value === undefined) map.delete(key)
    else map.set(key, value)
    this.#onRollback(() => {
      if (had) map.set(key, previous as V)
      else map.delete(key)
    })
  }

  async #transaction<T> (fn: () => Promise<T>): Promise<T> {
    const parent = this.#transactions.get()
    const transaction: Transaction = { undo: [], open: true }
    try {
      const result = await this.#transactions.run(transaction, fn)
      transaction.open = false
      // A nested transaction (a savepoint) is undone with its parent.
      if (parent?.open === true) parent.undo.push(...transaction.undo)
      return result
    } catch (error) {
      transaction.open = false
      for (const undo of transaction.undo.reverse()) undo()
      throw error
    }
  }

  /** Runs a write of one cart in the cart's queue, or at once inside a transaction (which holds the cart already). */
  async #cartWrite<T> (key: string, write: () => T): Promise<T> {
    this.#assertOpen()
    if (this.#inTransaction) return write()
    return this.#cartWrites.run(key, async () => {
      this.#assertOpen()
      return write()
    })
  }

  #iso (): string {
    return new Date(this.#now()).toISOString()
  }

  #versions (): WriteVersions {
    return { catalogVersion: this.#catalogVersion, settingsVersion: this.#settings?.version ?? 0 }
  }

  #bumpCatalog (): void {
    const previous = this.#catalogVersion
    this.#catalogVersion = previous + 1
    this.#onRollback(() => { this.#catalogVersion = previous })
  }

  // CatalogStore

  async getProduct (id: number): Promise<Product | null> {
    this.#assertOpen()
    const product = this.#products.get(id)
    return product === undefined ? null : copy(product)
  }

  async getProducts (ids: readonly number[]): Promise<Map<number, Product>> {
    this.#assertOpen()
    const found = new Map<number, Product>()
    for (const id of ids) {
      const product = this.#products.get(id)
      if (product !== undefined) found.set(id, copy(product))
    }
    return found
  }

  async listProducts (query: ProductQuery): Promise<ProductPage> {
    this.#assertOpen()
    const { matches, compare, products } = productSelection(query, { all: this.#products.values() })
    const found = products.filter(matches).sort(compare)
    const { limit, offset } = productPaging(query)
    return { products: found.slice(offset, offset + limit).map(copy), total: found.length }
  }

  async upsertProducts (products: readonly Product[]): Promise<void> {
    this.#assertOpen()
    if (products.length === 0) return
    for (const product of products) {
      if (!Number.isSafeInteger(product.id)) throw new TypeError(`a product id must be an integer, got ${product.id}`)
    }
    this.#bumpCatalog()
    for (const product of lastById(products, (item) => item.id)) this.#assign(this.#products, product.id, copy(product))
  }

  async getCoupon (code: string): Promise<Coupon | null> {
    this.#assertOpen()
    const coupon = this.#coupons.get(normaliseKey(code))
    return coupon === undefined ? null : copy(coupon)
  }

  async getCoupons (codes: readonly string[]): Promise<Map<string, Coupon>> {
    this.#assertOpen()
    const found = new Map<string, Coupon>()
    for (const code of codes) {
      const coupon = this.#coupons.get(normaliseKey(code))
      if (coupon !== undefined) found.set(coupon.code, copy(coupon))
    }
    return found
  }

  async upsertCoupons (coupons: readonly Coupon[]): Promise<void> {
    this.#assertOpen()
    if (coupons.length === 0) return
    const normalised = lastById(coupons.map((coupon) => ({ ...coupon, code: normaliseKey(coupon.code) })), (coupon) => coupon.code)
    this.#bumpCatalog()
    for (const coupon of normalised) this.#assign(this.#coupons, coupon.code, copy(coupon))
  }

  // CartStore

  #storedCart (record: CartRecord): StoredCart {
    return { key: record.key, userId: record.userId, data: copy(record.data), version: record.version, updatedAt: record.updatedAt }
  }

  async getCart (key: string): Promise<StoredCart | null> {
    this.#assertOpen()
    const record = this.#carts.get(key)
    return record === undefined ? null : this.#storedCart(record)
  }

  async readCart (key: string): Promise<CartRead> {
    this.#assertOpen()
    const record = this.#carts.get(key)
    const products = new Map<number, Product>()
    const coupons = new Map<string, Coupon>()
    for (const line of record?.data.lines ?? []) {
      for (const id of [line.productId, line.variationId]) {
        const product = this.#products.get(id)
        if (product !== undefined) products.set(id, copy(product))
      }
    }
    for (const code of record?.data.coupons ?? []) {
      const coupon = this.#coupons.get(normaliseKey(code))
      if (coupon !== undefined) coupons.set(coupon.code, copy(coupon))
    }
    const { catalogVersion, settingsVersion } = this.#versions()
    return { cart: record === undefined ? null : this.#storedCart(record), products, coupons, settingsVersion, catalogVersion }
  }

  async getCartSnapshot (key: string): Promise<CartSnapshot | null> {
    this.#assertOpen()
    const record = this.#carts.get(key)
    if (record?.snapshot == null || record.stamp === null || record.userId !== null) return null
    return { snapshot: record.snapshot, stamp: record.stamp, version: record.version, ...this.#versions() }
  }

  async getVersions (): Promise<WriteVersions> {
    this.#assertOpen()
    return this.#versions()
  }

  async saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    return this.#cartWrite(key, () => {
      const record = this.#carts.get(key)
      if (record === undefined || record.version !== version) return false
      this.#assign(this.#carts, key, { ...record, snapshot, stamp })
      return true
    })
  }

  /** `options.seen` changes nothing here: the write takes no round trip, so it always runs under the lock. */
  async updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options: CartUpdateOptions = {}
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    this.#assertOpen()
    // Inside another write's transaction the cart is written in that transaction; queueing there could wait on itself.
    if (this.#inTransaction) return this.#updateCart(key, update)
    return this.#cartWrites.run(key, () => {
      // A new key's write made from products read at a catalog version: as on SQL, nothing is stored once the catalog
      // moved or the key is taken.
      if (options.newCartAt !== undefined && options.seen === null &&
        (this.#carts.has(key) || this.#catalogVersion !== options.newCartAt)) throw new StaleReadError()
      return this.#updateCart(key, update)
    })
  }

  async #updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    this.#assertOpen()
    try {
      return await this.#transaction(async () => {
        const stored = this.#carts.get(key)
        const current = stored === undefined
          ? { key, userId: null, data: copy(EMPTY_CART), version: 0, updatedAt: this.#iso() }
          : this.#storedCart(stored)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) {
          // As on SQL, where a row made only to hold the lock is not kept: a new cart given no data rolls back.
          if (stored === undefined) throw new Discard({ cart: current, result })
          return { cart: current, result }
        }
        // The cart as the transaction left it (a call inside the callback may have bound it to a user).
        const base = this.#carts.get(key)
        const written: CartRecord = {
          key,
          userId: base?.userId ?? null,
          data: copy(data),
          version: (base?.version ?? 0) + 1,
          updatedAt: this.#iso(),
          touch: ++this.#touch,
          snapshot: snapshot?.snapshot ?? null,
          stamp: snapshot?.stamp ?? null
        }
        this.#assign(this.#carts, key, written)
        return { cart: this.#storedCart(written), result, versions: this.#versions() }
      })
    } catch (error) {
      if (error instanceof Discard) return error.outcome as { cart: StoredCart, result: T }
      throw error
    }
  }

  async removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    if (this.#inTransaction) return null
    const removing = new Set(itemKeys)
    const removed = await this.#cartWrite(key, (): RemovedCartLines | null => {
      const record = this.#carts.get(key)
      if (record === undefined || record.userId !== null || record.data.coupons.length > 0 || removing.size === 0) return null
      if (record.data.lines.some((line) => line.rewardId !== undefined)) return null
      if (record.data.lines.filter((line) => removing.has(line.key)).length !== removing.size) return null
      const written: CartRecord = {
        ...record,
        data: copy({ ...record.data, lines: record.data.lines.filter((line) => !removing.has(line.key)) }),
        version: record.version + 1,
        updatedAt: this.#iso(),
        touch: ++this.#touch,
        snapshot: null,
        stamp: null
      }
      this.#assign(this.#carts, key, written)
      return { before: this.#storedCart(record), cart: this.#storedCart(written), versions: this.#versions() }
    })
    if (removed === null) return null
    const { result, snapshot } = await finish(removed)
    if (snapshot !== undefined) await this.saveCartSnapshot(key, removed.cart.version, snapshot.stamp, snapshot.snapshot)
    return { result }
  }

  async setCartUser (key: string, userId: number | null): Promise<void> {
    await this.#cartWrite(key, () => {
      const record = this.#carts.get(key)
      if (record === undefined) return
      this.#assign(this.#carts, key, { ...record, userId, updatedAt: this.#iso(), touch: ++this.#touch, snapshot: null, stamp: null })
    })
  }

  async findUserCart (userId: number): Promise<StoredCart | null> {
    this.#assertOpen()
    let latest: CartRecord | undefined
    for (const record of this.#carts.values()) {
      if (record.userId === userId && (latest === undefined || record.touch > latest.touch)) latest = record
    }
    return latest === undefined ? null : this.#storedCart(latest)
  }

  async deleteCart (key: string): Promise<void> {
    await this.#cartWrite(key, () => this.#assign(this.#carts, key, undefined))
  }

  async purgeGuestCarts (before: string, limit: number): Promise<number> {
    this.#assertOpen()
    const cutoff = instant(before, 'before')
    const stale = [...this.#carts.values()]
      .filter((record) => record.userId === null && Date.parse(record.updatedAt) < cutoff)
      .sort((a, b) => a.touch - b.touch)
      .slice(0, Math.max(0, limit))
    for (const record of stale) this.#assign(this.#carts, record.key, undefined)
    return stale.length
  }

  // OrderStore

  async createOrder (order: NewOrder, effects: OrderEffects): Promise<Order> {
    this.#assertOpen()
    // Every check runs before any write, with no await between them: the order and its effects land together.
    const products = new Map<number, Product>()
    for (const [id, quantity] of stockByProduct(effects.stock)) {
      const product = this.#products.get(id)
      if (product === undefined) continue
      const after = takeStock(product, quantity)
      if (after === null) throw new OrderConflictError('out_of_stock', id)
      if (after !== product) products.set(id, after)
    }
    const coupons = new Map<string, Coupon>()
    for (const code of new Set(effects.coupons.map(normaliseKey))) {
      const coupon = this.#coupons.get(code)
      if (coupon === undefined) continue
      if (coupon.usageLimit !== null && coupon.usageCount >= coupon.usageLimit) throw new OrderConflictError('coupon_usage_limit', code)
      coupons.set(code, { ...coupon, usageCount: coupon.usageCount + 1 })
    }
    for (const [id, product] of products) this.#assign(this.#products, id, product)
    for (const [code, coupon] of coupons) this.#assign(this.#coupons, code, coupon)
    if (products.size > 0 || coupons.size > 0) this.#bumpCatalog()
    const id = this.#nextOrderId++
    const stored: Order = { ...copy(order), id }
    this.#assign(this.#orders, id, stored)
    return copy(stored)
  }

  async getOrder (id: number): Promise<Order | null> {
    this.#assertOpen()
    const order = this.#orders.get(id)
    return order === undefined ? null : copy(order)
  }

  async listOrders (query: OrderQuery): Promise<{ orders: Order[], total: number }> {
    this.#assertOpen()
    const matches = [...this.#orders.values()]
      .filter((order) => query.customerId === undefined || order.customerId === query.customerId)
      .sort((a, b) => b.id - a.id)
    const { offset, limit } = orderPaging(query)
    return { orders: matches.slice(offset, offset + limit).map(copy), total: matches.length }
  }

  async bestSellers (limit: number): Promise<BestSeller[]> {
    this.#assertOpen()
    const units = new Map<number, number>()
    for (const order of this.#orders.values()) {
      if (!BEST_SELLER_STATUSES.includes(order.status)) continue
      for (const line of order.lines) units.set(line.productId, (units.get(line.productId) ?? 0) + line.quantity)
    }
    return [...units].map(([productId, quantity]) => ({ productId, quantity }))
      .filter((seller) => seller.quantity > 0)
      .sort((a, b) => b.quantity - a.quantity || a.productId - b.productId)
      .slice(0, bestSellerLimit(limit))
  }

  async orderAttribution (from: string, to: string, topProducts: number): Promise<OrderAttribution> {
    this.#assertOpen()
    const start = dayStart(from, 'from')
    const end = dayStart(to, 'to') + DAY_MS
    interface Sums { units: number, orders: Set<number>, revenue: bigint }
    const days = new Map<string, { orders: number, drawerOrders: number, sales: bigint, drawerOrderSales: bigint, attributed: bigint }>()
    const origins = new Map<string, Sums>()
    const products = new Map<number, Sums & { name: string, newest: number }>()
    const orders = [...this.#orders.values()].filter((order) => {
      const at = Date.parse(order.createdAt)
      return BEST_SELLER_STATUSES.includes(order.status) && at >= start && at < end
    })
    for (const order of orders) {
      const day = new Date(order.createdAt).toISOString().slice(0, 10)
      const sums = days.get(day) ?? { orders: 0, drawerOrders: 0, sales: 0n, drawerOrderSales: 0n, attributed: 0n }
      days.set(day, sums)
      let sales = 0n
      let attributed = 0n
      let drawer = false
      for (const line of order.lines) {
        sales += BigInt(line.total)
        if (line.origin === undefined) continue
        drawer = true
        attributed += BigInt(line.total)
        const byOrigin = origins.get(line.origin) ?? { units: 0, orders: new Set(), revenue: 0n }
        origins.set(line.origin, addShare(byOrigin, order.id, line.quantity, line.total))
        const byProduct = products.get(line.productId) ?? { units: 0, orders: new Set(), revenue: 0n, name: line.name, newest: order.id }
        if (order.id > byProduct.newest) Object.assign(byProduct, { name: line.name, newest: order.id })
        products.set(line.productId, addShare(byProduct, order.id, line.quantity, line.total))
      }
      sums.orders++
      sums.sales += sales
      sums.attributed += attributed
      if (drawer) {
        sums.drawerOrders++
        sums.drawerOrderSales += sales
      }
    }
    const share = ({ units, orders: holding, revenue }: Sums): OrderAttributionShare => ({ units, orders: holding.size, revenue: revenue.toString() })
    return {
      days: [...days].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([day, sums]): OrderAttributionDay => ({
        day,
        orders: sums.orders,
        drawerOrders: sums.drawerOrders,
        sales: sums.sales.toString(),
        drawerOrderSales: sums.drawerOrderSales.toString(),
        attributed: sums.attributed.toString()
      })),
      origins: [...origins].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([origin, sums]) => ({ origin, ...share(sums) })),
      products: [...products]
        .sort(([idA, a], [idB, b]) => (a.revenue === b.revenue ? 0 : a.revenue > b.revenue ? -1 : 1) || b.units - a.units || idA - idB)
        .slice(0, bestSellerLimit(topProducts))
        .map(([productId, sums]) => ({ productId, name: sums.name, ...share(sums) }))
    }
  }

  // AccountStore

  async getUserByEmail (email: string): Promise<User | null> {
    this.#assertOpen()
    const id = this.#userIds.get(normaliseKey(email))
    return id === undefined ? null : this.#user(id)
  }

  async getUser (id: number): Promise<User | null> {
    this.#assertOpen()
    return this.#user(id)
  }

  #user (id: number): User | null {
    const user = this.#users.get(id)
    return user === undefined ? null : copy(user)
  }

  async ensureUser (user: Omit<User, 'id'>): Promise<User> {
    this.#assertOpen()
    const email = normaliseKey(user.email)
    const existing = this.#userIds.get(email)
    if (existing !== undefined) return this.#user(existing)!
    const created: User = {
      id: this.#nextUserId++,
      email,
      displayName: user.displayName,
      passwordHash: user.passwordHash,
      capabilities: copy(user.capabilities)
    }
    this.#assign(this.#users, created.id, created)
    this.#assign(this.#userIds, email, created.id)
    return copy(created)
  }

  async replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    this.#assertOpen()
    const user = this.#users.get(userId)
    if (user === undefined || user.passwordHash !== previous) return false
    this.#assign(this.#users, userId, { ...user, passwordHash: next })
    return true
  }

  async setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    this.#assertOpen()
    const user = this.#users.get(userId)
    if (user !== undefined) this.#assign(this.#users, userId, { ...user, capabilities: [...capabilities] })
  }

  async createSession (session: Session): Promise<void> {
    this.#assertOpen()
    if (this.#sessions.has(session.idHash)) throw new Error('a session with this id hash is already stored')
    if (!this.#users.has(session.userId)) throw new Error(`a session names no stored user (${session.userId})`)
    this.#assign(this.#sessions, session.idHash, {
      idHash: session.idHash,
      userId: session.userId,
      createdAt: new Date(instant(session.createdAt, 'createdAt')).toISOString(),
      expiresAt: new Date(instant(session.expiresAt, 'expiresAt')).toISOString(),
      capabilities: [...session.capabilities]
    })
  }

  async getSession (idHash: string): Promise<Session | null> {
    this.#assertOpen()
    const session = this.#sessions.get(idHash)
    return session === undefined ? null : copy(session)
  }

  async touchSession (idHash: string, expiresAt: string): Promise<void> {
    this.#assertOpen()
    const at = instant(expiresAt, 'expiresAt')
    const session = this.#sessions.get(idHash)
    if (session === undefined || Date.parse(session.expiresAt) >= at) return
    this.#assign(this.#sessions, idHash, { ...session, expiresAt: new Date(at).toISOString() })
  }

  async deleteSession (idHash: string): Promise<void> {
    this.#assertOpen()
    this.#assign(this.#sessions, idHash, undefined)
  }

  async purgeExpiredSessions (now: string, limit: number): Promise<number> {
    this.#assertOpen()
    const cutoff = instant(now, 'now')
    const expired = [...this.#sessions.values()].filter((session) => Date.parse(session.expiresAt) < cutoff).slice(0, Math.max(0, limit))
    for (const session of expired) this.#assign(this.#sessions, session.idHash, undefined)
    return expired.length
  }

  // SettingsStore

  async getSettings (): Promise<StoredSettings | null> {
    this.#assertOpen()
    return this.#settings === null ? null : copy(this.#settings)
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    this.#assertOpen()
    const previous = this.#settings
    const version = previous?.version ?? 0
    if (expectedVersion !== undefined && expectedVersion !== version) return null
    this.#settings = { document: copy(document), version: version + 1 }
    this.#onRollback(() => { this.#settings = previous })
    return copy(this.#settings)
  }

  // AnalyticsStore

  async insertAnalyticsEvents (events: readonly AnalyticsEvent[]): Promise<number> {
    this.#assertOpen()
    // Checked whole before any is stored: a batch is stored whole or not at all.
    const records = events.map((event): Omit<EventRecord, 'id'> => {
      if (typeof event.type !== 'string') throw new TypeError('an event type must be a string')
      if (event.productId !== null && !Number.isSafeInteger(event.productId)) throw new RangeError(`an event's productId must be an integer or null, got ${event.productId}`)
      if (typeof event.drawerAdd !== 'boolean') throw new TypeError('an event\'s drawerAdd must be a boolean')
      const at = instant(event.occurredAt, 'occurredAt')
      return { at, day: new Date(at).toISOString().slice(0, 10), event: copy({ ...event, data: event.data ?? {} }) }
    })
    for (const record of records) {
      const id = this.#nextEventId++
      this.#assign(this.#events, id, { ...record, id })
    }
    return records.length
  }

  async analyticsSummary (from: string, to: string, notVisits: readonly string[] = []): Promise<AnalyticsSummaryData> {
    this.#assertOpen()
    const start = dayStart(from, 'from')
    const end = dayStart(to, 'to') + DAY_MS
    const groups = new Map<string, AnalyticsDayCount>()
    const visitors = new Set<string>()
    for (const { at, day, event } of this.#events.values()) {
      if (at < start || at >= end) continue
      if (event.visitor !== null && !notVisits.includes(event.type)) visitors.add(event.visitor)
      const id = `${day}\u0000${event.type}`
      let group = groups.get(id)
      if (group === undefined) {
        group = { day, type: event.type, count: 0, adds: 0 }
        groups.set(id, group)
      }
      group.count++
      if (event.drawerAdd) group.adds++
    }
    const byDayThenType = (a: { day: string, type: string }, b: { day: string, type: string }): number =>
      a.day < b.day ? -1 : a.day > b.day ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0
    return { days: [...groups.values()].sort(byDayThenType), visitors: visitors.size }
  }

  async analyticsFunnel (from: string, to: string, start: string, end: string): Promise<AnalyticsFunnel> {
    this.#assertOpen()
    const first = dayStart(from, 'from')
    const last = dayStart(to, 'to') + DAY_MS
    const visitors = new Map<string, { started: number, ended: number }>()
    for (const { at, event } of this.#events.values()) {
      if (at < first || at >= last || event.visitor === null || (event.type !== start && event.type !== end)) continue
      const times = visitors.get(event.visitor) ?? { started: Number.POSITIVE_INFINITY, ended: Number.NEGATIVE_INFINITY }
      if (event.type === start) times.started = Math.min(times.started, at)
      if (event.type === end) times.ended = Math.max(times.ended, at)
      visitors.set(event.visitor, times)
    }
    const started = [...visitors.values()].filter((times) => times.started !== Number.POSITIVE_INFINITY)
    return { started: started.length, converted: started.filter((times) => times.ended >= times.started).length }
  }

  async deleteAnalyticsBefore (before: string, limit?: number): Promise<number> {
    this.#assertOpen()
    const cutoff = instant(before, 'before')
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RangeError(`limit must be a whole number, got ${limit}`)
    }
    const old = [...this.#events.values()].filter((record) => record.at < cutoff)
      .sort((a, b) => a.at - b.at || a.id - b.id)
      .slice(0, limit)
    for (const record of old) this.#assign(this.#events, record.id, undefined)
    return old.length
  }

  async resetAnalytics (): Promise<number> {
    this.#assertOpen()
    const ids = [...this.#events.keys()]
    for (const id of ids) this.#assign(this.#events, id, undefined)
    return ids.length
  }

  // MetaStore

  async getOrCreateMeta (key: string, create: () => string): Promise<string> {
    this.#assertOpen()
    const found = this.#meta.get(key)
    if (found !== undefined) return found
    const value = create()
    this.#assign(this.#meta, key, value)
    return value
  }

  // Lifecycle

  async ping (): Promise<void> {
    this.#assertOpen()
  }

  async close (): Promise<void> {
    this.#closed = true
  }
}

/** A new, empty storage in this process's memory (`MemoryStorage`). */
export function createMemoryStorage (options: MemoryStorageOptions = {}): MemoryStorage {
  return new MemoryStorage(options)
}
