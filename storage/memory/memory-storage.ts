import { ComposedStorage } from '../composed-storage.ts'
import { MemoryAccountStore } from './account-store.ts'
import { MemoryAnalyticsStore, MemorySettingsStore } from '../../drawer/index.ts'
import { MemoryCartStore } from './cart-store.ts'
import { MemoryCartViewStore } from './cart-view-store.ts'
import { MemoryCatalogStore } from './catalog-store.ts'
import { MemoryIdempotencyStore } from './idempotency-store.ts'
import { MemoryMetaStore } from './meta-store.ts'
import { MemoryOrderStore } from './order-store.ts'
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
export class MemoryStorage extends ComposedStorage {
  readonly name = 'memory'
  readonly #state: MemoryState

  constructor (options: MemoryStorageOptions = {}) {
    const state = new MemoryState(options)
    const cartViews = new MemoryCartViewStore(state)
    // The drawer's stores, over this storage's state: their writes join its transactions, and cart reads answer the
    // settings' version.
    const settings = new MemorySettingsStore(state)
    state.settingsVersion = () => settings.version
    super({
      catalog: new MemoryCatalogStore(state),
      carts: new MemoryCartStore(state, cartViews),
      cartViews,
      orders: new MemoryOrderStore(state),
      accounts: new MemoryAccountStore(state),
      settings,
      analytics: new MemoryAnalyticsStore(state),
      meta: new MemoryMetaStore(state),
      idempotency: new MemoryIdempotencyStore(state)
    })
    this.#state = state
  }

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
