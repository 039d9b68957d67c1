import { cartProductIds } from '../kernel/domain/cart.ts'
import type { CartData } from '../kernel/domain/types.ts'
import { StorageUnavailableError } from './contract/index.ts'
import type { CartRead, CartSnapshot, CartViewCache, RemovedCartLines, StoredCart, Storage, WriteVersions } from './contract/index.ts'

/** The drawer's snapshot is the view named `svc`: the storage's own snapshot column backs it. */
const SNAPSHOT_VIEW = 'svc'
/**
 * A guest cart's own data, kept beside its views by every write of it (no route renders a view of this name): a later
 * `readCart` of the cart answers from it with no database round trip when this instance holds the cart's products at
 * the catalog version the cache knows.
 */
const DATA_VIEW = '.data'
const DATA_STAMP = 'data'
/** Refuses every view of a cart until its cache entry expires (a cart deleted, or bound to a user). */
const NO_VIEWS = Number.MAX_SAFE_INTEGER

export interface CartViewCacheOptions {
  /** A cache read or fill that failed (the read went to the database instead). */
  onError?: (error: unknown) => void
}

/**
 * The storage with its guest carts' rendered views kept in `cache`: a read of a cart that has not changed answers
 * from the cache, with no database round trip, and falls back to the database when the cache misses or fails.
 *
 * Every write that could change a view tells the cache before it commits (`beginCartWrite`, `beginVersionsWrite`):
 * after a write has answered, no instance answers a view from before it. When the cache cannot be told, the write is
 * refused as a storage outage (503) rather than done: an unreachable cache could still hold the old view for other
 * instances. Reads never need the cache.
 */
export function withCartViewCache (storage: Storage, cache: CartViewCache, options: CartViewCacheOptions = {}): Storage {
  const failed = (error: unknown): null => {
    options.onError?.(error)
    return null
  }
  const begin = async (start: () => Promise<void>): Promise<void> => {
    try {
      await start()
    } catch (error) {
      throw new StorageUnavailableError('The cart view cache cannot be reached: the write was not made.', { cause: error })
    }
  }
  const published = async (): Promise<void> => {
    try {
      await cache.endVersionsWrite(await storage.getVersions())
    } catch (error) {
      // The versions stay unknown to the cache until its entry expires: reads go to the database meanwhile.
      failed(error)
    }
  }
  /** A catalog or settings write, bracketed. */
  const versionsWrite = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await begin(() => cache.beginVersionsWrite())
    try {
      return await write(...args)
    } finally {
      await published()
    }
  }
  const cached = async (key: string, view: string): Promise<CartSnapshot | null> => {
    const { view: hit, versions } = await cache.read(key, view).catch(() => ({ view: null, versions: null }))
    if (hit === null || versions === null) return null
    return { snapshot: hit.body, stamp: hit.stamp, version: hit.version, ...versions }
  }
  const fill = (key: string, view: string, body: string, stamp: string, version: number, versions: WriteVersions | null) =>
    cache.fill(key, view, { body, stamp, version }, versions ?? undefined).catch(failed)
  const knownProducts = storage.knownProducts?.bind(storage)
  /**
   * After a write of a cart's data: the new version's snapshot, when the write made one, and a guest's data, sent to
   * the cache side by side (not one after the other).
   */
  const fillWritten = (key: string, cart: StoredCart, versions: WriteVersions, kept: { stamp: string, snapshot: string } | undefined) => {
    const fills: Array<Promise<unknown>> = []
    if (kept !== undefined) fills.push(fill(key, SNAPSHOT_VIEW, kept.snapshot, kept.stamp, cart.version, versions))
    if (cart.userId === null && knownProducts !== undefined) {
      fills.push(fill(key, DATA_VIEW, JSON.stringify({ data: cart.data, updatedAt: cart.updatedAt }), DATA_STAMP, cart.version, versions))
    }
    return fills
  }
  /** Carts `cachedRead` answered: a change refused on one of them is tried again on the stored cart. */
  const fromCache = new WeakSet<StoredCart>()
  /**
   * The cart as its last write through a cache-backed storage left it, when every part of a `readCart` can be answered
   * without the database: its data (a guest's, at the version the cache holds, which no write has begun beyond), its
   * products as this instance holds them at the catalog version the cache knows, no coupons (their usage counts are
   * read fresh), and the settings' version the cache knows. Null otherwise: the caller reads the database. A write given
   * this read as `seen` lands only while the cart is still at its version, so a copy the cache holds too long costs a
   * second run of the change under the lock, never a lost update.
   */
  const cachedRead = async (key: string): Promise<CartRead | null> => {
    if (knownProducts === undefined) return null
    const { view, versions } = await cache.read(key, DATA_VIEW).catch(() => ({ view: null, versions: null }))
    if (view === null || versions === null) return null
    const kept = parseKeptCart(view.body)
    if (kept === null || kept.data.coupons.length > 0) return null
    const known = knownProducts([...cartProductIds(kept.data)])
    if (known === null || known.catalogVersion !== versions.catalogVersion) return null
    const cart: StoredCart = { key, userId: null, data: kept.data, version: view.version, updatedAt: kept.updatedAt }
    fromCache.add(cart)
    return { cart, products: known.products, coupons: new Map(), ...versions }
  }

  const overrides: Partial<Storage> = {
    async getCartSnapshot (key) {
      const hit = await cached(key, SNAPSHOT_VIEW)
      if (hit !== null) return hit
      const stored = await storage.getCartSnapshot(key)
      if (stored?.version !== undefined) await fill(key, SNAPSHOT_VIEW, stored.snapshot, stored.stamp, stored.version, stored)
      return stored
    },

    async saveCartSnapshot (key, version, stamp, snapshot) {
      const saved = await storage.saveCartSnapshot(key, version, stamp, snapshot)
      if (saved) await fill(key, SNAPSHOT_VIEW, snapshot, stamp, version, null)
      return saved
    },

    async readCart (key) {
      return await cachedRead(key) ?? storage.readCart(key)
    },

    getCartView: cached,

    async saveCartView (key, version, view, stamp, body, versions) {
      await fill(key, view, body, stamp, version, versions)
    },

    async updateCart (key, update, updateOptions) {
      let kept: { stamp: string, snapshot: string } | undefined
      // A key made for this write (`newCartAt`) was never given out: no one can hold a view of it to drop.
      const newKey = updateOptions?.newCartAt !== undefined && updateOptions.seen === null
      let refused = false
      const change = async (current: StoredCart) => {
        let outcome
        try {
          outcome = await update(current)
        } catch (error) {
          refused = true
          throw error
        }
        kept = outcome.snapshot
        if (outcome.data !== undefined && !newKey) await begin(() => cache.beginCartWrite(key, current.version + 1))
        return outcome
      }
      const seen = updateOptions?.seen
      let written
      try {
        written = await storage.updateCart(key, change, updateOptions)
      } catch (error) {
        // A change refused on the cache's copy (a line it does not know, say) may be the copy's fault: a program that
        // wrote the cart behind the cache. It runs again on the stored cart, under its lock, and its answer stands.
        if (!refused || !seen || !fromCache.has(seen)) throw error
        const { seen: _stale, ...locked } = updateOptions ?? {}
        written = await storage.updateCart(key, change, locked)
      }
      if (written.versions !== undefined) await Promise.all(fillWritten(key, written.cart, written.versions, kept))
      return written
    },

    // The cart's version is known only once the statement has run: the write is pending in the cache before it (every
    // view refused), and after it the views below the written version are refused for good. The snapshot `finish`
    // makes is kept in the cache only (the database's was dropped by the write: a read without the cache prices).
    ...(storage.removeCartLines === undefined
      ? {}
      : {
        async removeCartLines (key, itemKeys, finish) {
          await begin(() => cache.beginPendingCartWrite(key))
          let written: RemovedCartLines | undefined
          let kept: { stamp: string, snapshot: string } | undefined
          // Not ended (the cache unreachable): the cart's views stay refused until its entry expires.
          const end = () => cache.endPendingCartWrite(key, written?.cart.version ?? 0).catch(failed)
          let outcome
          try {
            outcome = await storage.removeCartLines!(key, itemKeys, async (removed) => {
              written = removed
              const { result, snapshot } = await finish(removed)
              kept = snapshot
              return { result }
            })
          } catch (error) {
            await end()
            throw error
          }
          // The end and the fills are sent together, in that order (one connection runs them in order; a fill that
          // arrived first would only be refused, as during any pending write).
          const ended = end()
          if (written === undefined) {
            await ended
            return outcome
          }
          await Promise.all([ended, ...fillWritten(key, written.cart, written.versions, kept)])
          return outcome
        }
      } satisfies Partial<Storage>),

    async setCartUser (key, userId) {
      await begin(() => cache.beginCartWrite(key, NO_VIEWS))
      return storage.setCartUser(key, userId)
    },

    async deleteCart (key) {
      await begin(() => cache.beginCartWrite(key, NO_VIEWS))
      return storage.deleteCart(key)
    },

    upsertProducts: versionsWrite(storage.upsertProducts.bind(storage)),
    upsertCoupons: versionsWrite(storage.upsertCoupons.bind(storage)),
    createOrder: versionsWrite(storage.createOrder.bind(storage)),
    saveSettings: versionsWrite(storage.saveSettings.bind(storage)),

    async close () {
      await Promise.allSettled([cache.close()])
      await storage.close()
    }
  }

  return new Proxy(storage, {
    get (target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Storage]
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
    has (target, property) {
      return Object.hasOwn(overrides, property) || Reflect.has(target, property)
    }
  })
}

/** The data view's body as the write stored it; null for anything else (never trusted blindly: it crossed Redis). */
function parseKeptCart (body: string): { data: CartData, updatedAt: string } | null {
  try {
    const kept = JSON.parse(body) as { data?: CartData, updatedAt?: unknown }
    if (typeof kept.updatedAt !== 'string' || kept.data === undefined || !Array.isArray(kept.data.lines) || !Array.isArray(kept.data.coupons)) return null
    return { data: kept.data, updatedAt: kept.updatedAt }
  } catch {
    return null
  }
}
