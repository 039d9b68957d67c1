import type { CartData, Coupon, Order, Product } from '../../kernel/domain/types.ts'
import { StorageUnavailableError } from '../contract/index.ts'
import { jsonCopy, ScopedContext } from '../../kernel/lib/index.ts'
import { KeyedQueue } from '../keyed-queue.ts'
import type { Session, StoredCart, User, WriteVersions } from '../contract/index.ts'

export interface MemoryStorageOptions {
  /** Clock in milliseconds (cart timestamps); tests inject one. */
  now?: () => number
}

export const EMPTY_CART: CartData = { lines: [], coupons: [] }
export { DAY_MS, dayStart, instant } from '../../kernel/lib/index.ts'

/** Stored values are JSON copies, as the SQL backends keep them in `jsonb` (kernel/lib's `jsonCopy`). */
export const copy = jsonCopy

export interface CartRecord {
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

/** An `updateCart` callback's transaction: what undoes its writes, oldest first. */
interface Transaction {
  readonly undo: Array<() => void>
  open: boolean
}

export function storedCart (record: CartRecord): StoredCart {
  return { key: record.key, userId: record.userId, data: copy(record.data), version: record.version, updatedAt: record.updatedAt }
}

/**
 * What the memory stores share: every store's data, the transaction an `updateCart` callback runs in (which every
 * store's writes join, so a checkout's stock, coupons and order roll back with its cart), the per-cart write queue
 * and whether the storage is closed. One object per `MemoryStorage`; its stores are views of it.
 */
export class MemoryState {
  readonly now: () => number
  readonly #transactions = new ScopedContext<Transaction>()
  readonly cartWrites = new KeyedQueue()
  closed = false

  readonly products = new Map<number, Product>()
  readonly coupons = new Map<string, Coupon>()
  catalogVersion = 1
  readonly carts = new Map<string, CartRecord>()
  touch = 0
  readonly users = new Map<number, User>()
  /** User ids by normalised e-mail. */
  readonly userIds = new Map<string, number>()
  nextUserId = 1
  readonly sessions = new Map<string, Session>()
  /** The version of the drawer's settings (its own store's), which cart reads answer: set by `MemoryStorage`. */
  settingsVersion: () => number = () => 0
  readonly meta = new Map<string, string>()
  readonly orders = new Map<number, Order>()
  nextOrderId = 1

  constructor (options: MemoryStorageOptions = {}) {
    this.now = options.now ?? Date.now
  }

  assertOpen (): void {
    if (this.closed) throw new StorageUnavailableError('memory storage is closed')
  }

  get inTransaction (): boolean {
    return this.#transactions.get()?.open === true
  }

  /** Registers how to undo a write made inside a transaction (none outside one: the write is final). */
  onRollback (undo: () => void): void {
    const transaction = this.#transactions.get()
    if (transaction?.open === true) transaction.undo.push(undo)
  }

  /** Sets (or, with `undefined`, deletes) a map's entry, undoably. */
  assign<K, V> (map: Map<K, V>, key: K, value: V | undefined): void {
    const had = map.has(key)
    const previous = map.get(key)
    if (value === undefined) map.delete(key)
    else map.set(key, value)
    this.onRollback(() => {
      if (had) map.set(key, previous as V)
      else map.delete(key)
    })
  }

  async transaction<T> (fn: () => Promise<T>): Promise<T> {
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
  async cartWrite<T> (key: string, write: () => T): Promise<T> {
    this.assertOpen()
    if (this.inTransaction) return write()
    return this.cartWrites.run(key, async () => {
      this.assertOpen()
      return write()
    })
  }

  iso (): string {
    return new Date(this.now()).toISOString()
  }

  versions (): WriteVersions {
    return { catalogVersion: this.catalogVersion, settingsVersion: this.settingsVersion() }
  }

  bumpCatalog (): void {
    const previous = this.catalogVersion
    this.catalogVersion = previous + 1
    this.onRollback(() => { this.catalogVersion = previous })
  }
}
