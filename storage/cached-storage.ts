import { cartProductIds } from '../kernel/domain/cart.ts'
import type { CartData } from '../kernel/domain/types.ts'
import { StorageUnavailableError } from './contract/index.ts'
import type { CartRead, CartSnapshot, CartViewCache, RemovedCartLines, StoredCart, Storage, ViewCacheState, WriteVersions } from './contract/index.ts'

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
  /** A cache call that failed (the cache is bypassed until it answers again). */
  onError?: (error: unknown) => void
  /** How often the cache is tried again while it is bypassed (default 1 s); no request waits for it. */
  probeIntervalMs?: number
  /**
   * Carts written while the cache is bypassed that it is told of once it answers again, at most (default 100,000): a
   * write of one more cart is refused (503) until the cache has been told.
   */
  maxOwedCarts?: number
}

/**
 * The storage with its guest carts' rendered views kept in `cache`: a read of a cart that has not changed answers
 * from the cache, with no database round trip, and falls back to the database when the cache misses or fails.
 *
 * Every write that could change a view tells the cache before it commits (`beginCartWrite`, `beginVersionsWrite`):
 * after a write has answered, no instance answers a view from before it.
 *
 * When a cache call fails or times out, the cache is **bypassed** by this instance: reads go to the database and
 * fill nothing, writes go on without telling the cache, and the instance remembers what it owes the cache: the carts
 * it wrote (each with the least version a view of it may have from now on) and whether the catalog's or settings'
 * versions changed. Every `probeIntervalMs` it tries the cache in the background: once the cache answers, it is told
 * every owed write (`beginCartWrite` with that least version, a versions write with the database's versions), and
 * only then does this instance read and fill the cache again. A view older than a write acknowledged meanwhile is
 * refused by the cache's own version checks from then on, however late another read's fill of it arrives. Until then,
 * another instance that still reaches the cache may answer such a view (a partition between this instance and the
 * cache only): for as long as the partition lasts, plus one probe interval.
 */
export function withCartViewCache (storage: Storage, cache: CartViewCache, options: CartViewCacheOptions = {}): Storage {
  const { probeIntervalMs = 1000, maxOwedCarts = 100_000 } = options
  let state: ViewCacheState = 'shared'
  let closed = false
  /** Carts written while bypassed: the least version a view of each may have, for the cache to be told. */
  const owedCarts = new Map<string, number>()
  /** A catalog, settings or order write made while bypassed, not yet published to the cache. */
  let owedVersions = false
  const listeners = new Set<(state: ViewCacheState, cause?: unknown) => void>()
  let probeTimer: NodeJS.Timeout | undefined
  const setState = (next: ViewCacheState, cause?: unknown): void => {
    state = next
    for (const listener of listeners) listener(next, cause)
  }
  const scheduleProbe = (): void => {
    if (closed || probeTimer !== undefined) return
    probeTimer = setTimeout(() => {
      probeTimer = undefined
      recover().catch(() => {})
    }, probeIntervalMs)
    probeTimer.unref()
  }
  /** A cache call failed: from now on the cache is bypassed until `recover` has told it everything owed. */
  const failed = (error: unknown): null => {
    options.onError?.(error)
    if (state === 'shared') {
      setState('bypassed', error)
      scheduleProbe()
    }
    return null
  }
  const owe = (key: string, leastVersion: number): void => {
    if (!owedCarts.has(key) && owedCarts.size >= maxOwedCarts) {
      throw new StorageUnavailableError('The cart view cache has been unreachable for too many writes: the write was not made.')
    }
    owedCarts.set(key, Math.max(leastVersion, owedCarts.get(key) ?? 0))
  }
  /** Tells the cache the versions as the database holds them now, as a versions write would have. */
  const publishVersions = async (): Promise<void> => {
    await cache.beginVersionsWrite()
    await cache.endVersionsWrite(await storage.getVersions())
  }
  /**
   * Run by the probe while bypassed: tells the cache every owed write, then uses it again. The switch back happens in
   * the same turn of the event loop as the check that nothing is owed any more: a write that found the cache bypassed
   * recorded its debt before that (synchronously, before it committed), so it was either told here or is still owed.
   */
  const recover = async (): Promise<void> => {
    try {
      await cache.ping()
      while (owedCarts.size > 0 || owedVersions) {
        const batch = [...owedCarts].slice(0, 1000)
        await Promise.all(batch.map(([key, least]) => cache.beginCartWrite(key, least)))
        for (const [key, least] of batch) if (owedCarts.get(key) === least) owedCarts.delete(key)
        if (owedVersions) {
          owedVersions = false
          try {
            await publishVersions()
          } catch (error) {
            owedVersions = true
            throw error
          }
        }
      }
      if (closed) return
      setState('shared')
    } catch (error) {
      options.onError?.(error)
      scheduleProbe()
    }
  }
  /**
   * Before a write commits: tells the cache (`start`), or, while it is bypassed or when telling it fails, records
   * what is owed (`leastVersion` of the cart's views; none for a pending write, whose version is owed after it).
   */
  const begin = async (start: () => Promise<void>, owed: { key: string, leastVersion: number } | 'versions' | null): Promise<boolean> => {
    const record = (): false => {
      if (owed === 'versions') owedVersions = true
      else if (owed !== null) owe(owed.key, owed.leastVersion)
      return false
    }
    if (state === 'bypassed') return record()
    try {
      await start()
      return true
    } catch (error) {
      failed(error)
      return record()
    }
  }
  /**
   * After a write whose version is known only once it committed: the cart's views below it are refused, by the cache
   * at once while it is used, else once it answers again. Before the write answers.
   */
  const settle = async (key: string, leastVersion: number): Promise<void> => {
    if (state === 'shared') {
      try {
        await cache.beginCartWrite(key, leastVersion)
        return
      } catch (error) {
        failed(error)
      }
    }
    owe(key, leastVersion)
  }
  const published = async (told: boolean): Promise<void> => {
    try {
      if (told) await cache.endVersionsWrite(await storage.getVersions())
      // Begun while the cache was bypassed and it is used again: publish, as `recover` would have.
      else if (state === 'shared') await publishVersions()
      else owedVersions = true
    } catch (error) {
      // Told, not ended: the versions stay unknown to the cache until its entry expires (reads go to the database
      // meanwhile); they are published again once the cache answers.
      failed(error)
      owedVersions = true
    }
  }
  /** A catalog, settings or order write, bracketed. */
  const versionsWrite = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const told = await begin(() => cache.beginVersionsWrite(), 'versions')
    try {
      return await write(...args)
    } finally {
      await published(told)
    }
  }
  const read = async (key: string, view: string): Promise<Awaited<ReturnType<CartViewCache['read']>>> => {
    const nothing = { view: null, versions: null }
    if (state === 'bypassed') return nothing
    try {
      return await cache.read(key, view)
    } catch (error) {
      failed(error)
      return nothing
    }
  }
  const cached = async (key: string, view: string): Promise<CartSnapshot | null> => {
    const { view: hit, versions } = await read(key, view)
    if (hit === null || versions === null) return null
    return { snapshot: hit.body, stamp: hit.stamp, version: hit.version, ...versions }
  }
  const fill = async (key: string, view: string, body: string, stamp: string, version: number, versions: WriteVersions | null) => {
    if (state === 'bypassed') return
    await cache.fill(key, view, { body, stamp, version }, versions ?? undefined).catch(failed)
  }
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
    const { view, versions } = await read(key, DATA_VIEW)
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
        if (outcome.data !== undefined && !newKey) {
          await begin(() => cache.beginCartWrite(key, current.version + 1), { key, leastVersion: current.version + 1 })
        }
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
          const told = await begin(() => cache.beginPendingCartWrite(key), null)
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
            // Whether the statement committed is not known: no view of the cart is answered until its entry expires.
            if (told) await end()
            else await settle(key, NO_VIEWS)
            throw error
          }
          if (!told) {
            // The cache was not told before: its views below the written version are refused now (or owed).
            if (written !== undefined) {
              await settle(key, written.cart.version)
              await Promise.all(fillWritten(key, written.cart, written.versions, kept))
            }
            return outcome
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
      await begin(() => cache.beginCartWrite(key, NO_VIEWS), { key, leastVersion: NO_VIEWS })
      return storage.setCartUser(key, userId)
    },

    async deleteCart (key) {
      await begin(() => cache.beginCartWrite(key, NO_VIEWS), { key, leastVersion: NO_VIEWS })
      return storage.deleteCart(key)
    },

    upsertProducts: versionsWrite(storage.upsertProducts.bind(storage)),
    upsertCoupons: versionsWrite(storage.upsertCoupons.bind(storage)),
    createOrder: versionsWrite(storage.createOrder.bind(storage)),
    saveSettings: versionsWrite(storage.saveSettings.bind(storage)),

    viewCache: () => ({ backend: cache.name, state }),

    onViewCacheChange (listener) {
      listeners.add(listener)
      return () => { listeners.delete(listener) }
    },

    async close () {
      closed = true
      clearTimeout(probeTimer)
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
