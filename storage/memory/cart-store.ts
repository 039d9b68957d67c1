import { giftTierOf } from '../../kernel/domain/marks.ts'
import type { Coupon, Product } from '../../kernel/domain/types.ts'
import { StaleReadError } from '../contract/index.ts'
import type {
  CartRead, CartStore, CartUpdate, CartUpdateOptions, CartViewStore, RemovalFinish, RemovedCartLines, StoredCart, WriteVersions
} from '../contract/index.ts'
import { normaliseKey } from '../rules.ts'
import { copy, EMPTY_CART, instant, storedCart, type CartRecord, type MemoryState } from './state.ts'

/** Carries `updateCart`'s outcome out of a transaction that must roll back. */
class Discard<T> {
  constructor (readonly outcome: T) {}
}

/**
 * `CartStore` in memory. Writes of one cart queue per key (`MemoryState.cartWrites`); an `updateCart` callback runs in
 * a transaction that the other stores' writes join. A cart read joins the catalog's products and coupons as they are.
 */
export class MemoryCartStore implements CartStore {
  readonly #state: MemoryState
  /** Where `removeCartLines` keeps the snapshot its `finish` makes. */
  readonly #views: CartViewStore

  constructor (state: MemoryState, views: CartViewStore) {
    this.#state = state
    this.#views = views
  }

  async getCart (key: string): Promise<StoredCart | null> {
    this.#state.assertOpen()
    const record = this.#state.carts.get(key)
    return record === undefined ? null : storedCart(record)
  }

  async readCart (key: string): Promise<CartRead> {
    this.#state.assertOpen()
    const record = this.#state.carts.get(key)
    const products = new Map<number, Product>()
    const coupons = new Map<string, Coupon>()
    for (const line of record?.data.lines ?? []) {
      for (const id of [line.productId, line.variationId]) {
        const product = this.#state.products.get(id)
        if (product !== undefined) products.set(id, copy(product))
      }
    }
    for (const code of record?.data.coupons ?? []) {
      const coupon = this.#state.coupons.get(normaliseKey(code))
      if (coupon !== undefined) coupons.set(coupon.code, copy(coupon))
    }
    const { catalogVersion, settingsVersion } = this.#state.versions()
    return { cart: record === undefined ? null : storedCart(record), products, coupons, settingsVersion, catalogVersion }
  }

  async getVersions (): Promise<WriteVersions> {
    this.#state.assertOpen()
    return this.#state.versions()
  }

  /** `options.seen` changes nothing here: the write takes no round trip, so it always runs under the lock. */
  async updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>,
    options: CartUpdateOptions = {}
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    this.#state.assertOpen()
    // Inside another write's transaction the cart is written in that transaction; queueing there could wait on itself.
    if (this.#state.inTransaction) return this.#updateCart(key, update)
    return this.#state.cartWrites.run(key, () => {
      // A new key's write made from products read at a catalog version: as on SQL, nothing is stored once the catalog
      // moved or the key is taken.
      if (options.newCartAt !== undefined && options.seen === null &&
        (this.#state.carts.has(key) || this.#state.catalogVersion !== options.newCartAt)) throw new StaleReadError()
      return this.#updateCart(key, update)
    })
  }

  async #updateCart<T> (
    key: string,
    update: (current: StoredCart) => CartUpdate<T> | Promise<CartUpdate<T>>
  ): Promise<{ cart: StoredCart, result: T, versions?: WriteVersions }> {
    const state = this.#state
    state.assertOpen()
    try {
      return await state.transaction(async () => {
        const stored = state.carts.get(key)
        const current = stored === undefined
          ? { key, userId: null, data: copy(EMPTY_CART), version: 0, updatedAt: state.iso() }
          : storedCart(stored)
        const { data, result, snapshot } = await update(current)
        if (data === undefined) {
          // As on SQL, where a row made only to hold the lock is not kept: a new cart given no data rolls back.
          if (stored === undefined) throw new Discard({ cart: current, result })
          return { cart: current, result }
        }
        // The cart as the transaction left it (a call inside the callback may have bound it to a user).
        const base = state.carts.get(key)
        const written: CartRecord = {
          key,
          userId: base?.userId ?? null,
          data: copy(data),
          version: (base?.version ?? 0) + 1,
          updatedAt: state.iso(),
          touch: ++state.touch,
          snapshot: snapshot?.snapshot ?? null,
          stamp: snapshot?.stamp ?? null
        }
        state.assign(state.carts, key, written)
        return { cart: storedCart(written), result, versions: state.versions() }
      })
    } catch (error) {
      if (error instanceof Discard) return error.outcome as { cart: StoredCart, result: T }
      throw error
    }
  }

  async removeCartLines<T> (key: string, itemKeys: readonly string[], finish: (removed: RemovedCartLines) => Promise<RemovalFinish<T>>): Promise<{ result: T } | null> {
    const state = this.#state
    if (state.inTransaction) return null
    const removing = new Set(itemKeys)
    const removed = await state.cartWrite(key, (): RemovedCartLines | null => {
      const record = state.carts.get(key)
      if (record === undefined || record.userId !== null || record.data.coupons.length > 0 || removing.size === 0) return null
      if (record.data.lines.some((line) => giftTierOf(line.mark) !== undefined)) return null
      if (record.data.lines.filter((line) => removing.has(line.key)).length !== removing.size) return null
      const written: CartRecord = {
        ...record,
        data: copy({ ...record.data, lines: record.data.lines.filter((line) => !removing.has(line.key)) }),
        version: record.version + 1,
        updatedAt: state.iso(),
        touch: ++state.touch,
        snapshot: null,
        stamp: null
      }
      state.assign(state.carts, key, written)
      return { before: storedCart(record), cart: storedCart(written), versions: state.versions() }
    })
    if (removed === null) return null
    const { result, snapshot } = await finish(removed)
    if (snapshot !== undefined) await this.#views.saveCartSnapshot(key, removed.cart.version, snapshot.stamp, snapshot.snapshot)
    return { result }
  }

  async setCartUser (key: string, userId: number | null): Promise<void> {
    const state = this.#state
    await state.cartWrite(key, () => {
      const record = state.carts.get(key)
      if (record === undefined) return
      state.assign(state.carts, key, { ...record, userId, updatedAt: state.iso(), touch: ++state.touch, snapshot: null, stamp: null })
    })
  }

  async findUserCart (userId: number): Promise<StoredCart | null> {
    this.#state.assertOpen()
    let latest: CartRecord | undefined
    for (const record of this.#state.carts.values()) {
      if (record.userId === userId && (latest === undefined || record.touch > latest.touch)) latest = record
    }
    return latest === undefined ? null : storedCart(latest)
  }

  async deleteCart (key: string): Promise<void> {
    await this.#state.cartWrite(key, () => this.#state.assign(this.#state.carts, key, undefined))
  }

  async purgeGuestCarts (before: string, limit: number): Promise<number> {
    this.#state.assertOpen()
    const cutoff = instant(before, 'before')
    const stale = [...this.#state.carts.values()]
      .filter((record) => record.userId === null && Date.parse(record.updatedAt) < cutoff)
      .sort((a, b) => a.touch - b.touch)
      .slice(0, Math.max(0, limit))
    for (const record of stale) this.#state.assign(this.#state.carts, record.key, undefined)
    return stale.length
  }
}
