import type { CachedCartView, CartViewCache, WriteVersions } from '../contract/index.ts'

export interface MemoryViewCacheOptions {
  /** Carts kept at most; the least recently filled goes first (default 10,000). */
  maxCarts?: number
  /** Characters of views kept at most, all carts together (default 32 Mi); the least recently filled go first. */
  maxBytes?: number
}

interface Entry {
  /** No view of a version below this one is answered or stored. */
  minVersion: number
  /** Writes begun whose version is not known yet (`beginPendingCartWrite`): while above 0, no view is answered or stored. */
  pending: number
  views: Map<string, CachedCartView>
}

/**
 * Cart views in this process's memory: for a shop of one instance (the embedded database), where every write goes
 * through this process. Bounded by `maxCarts`.
 */
export function createMemoryViewCache ({ maxCarts = 10_000, maxBytes = 32 * 1024 * 1024 }: MemoryViewCacheOptions = {}): CartViewCache {
  const carts = new Map<string, Entry>()
  let versions: WriteVersions | null = null
  let versionWrites = 0
  let bytes = 0
  const sizeOf = (entry: Entry): number => {
    let size = 0
    for (const view of entry.views.values()) size += view.body.length
    return size
  }

  const keep = (key: string, entry: Entry): void => {
    const previous = carts.get(key)
    if (previous !== undefined) bytes -= sizeOf(previous)
    carts.delete(key)
    carts.set(key, entry)
    bytes += sizeOf(entry)
    for (const [oldest, kept] of carts) {
      if (carts.size <= maxCarts && bytes <= maxBytes) break
      carts.delete(oldest)
      bytes -= sizeOf(kept)
    }
  }

  return {
    name: 'memory',

    async read (key, view) {
      const entry = carts.get(key)
      const cached = entry?.views.get(view) ?? null
      return {
        view: cached !== null && entry !== undefined && entry.pending === 0 && cached.version >= entry.minVersion ? cached : null,
        versions: versionWrites > 0 ? null : versions
      }
    },

    async fill (key, view, cached, seen) {
      if (seen !== undefined) versions = versions === null ? { ...seen } : maxVersions(versions, seen)
      const entry = carts.get(key)
      if (entry !== undefined && (entry.pending > 0 || cached.version < entry.minVersion)) return
      const current = entry?.views.get(view)
      if (current !== undefined && current.version > cached.version) return
      // A new entry object each time, so that `keep` counts the old one's size and the new one's.
      const views = new Map(entry?.views)
      views.set(view, cached)
      keep(key, { minVersion: entry?.minVersion ?? 0, pending: 0, views })
    },

    async seedVersions (seen) {
      versions = versions === null ? { ...seen } : maxVersions(versions, seen)
    },

    async beginCartWrite (key, nextVersion) {
      const entry = carts.get(key)
      keep(key, { minVersion: Math.max(nextVersion, entry?.minVersion ?? 0), pending: entry?.pending ?? 0, views: new Map() })
    },

    async beginPendingCartWrite (key) {
      const entry = carts.get(key)
      keep(key, { minVersion: entry?.minVersion ?? 0, pending: (entry?.pending ?? 0) + 1, views: new Map() })
    },

    async endPendingCartWrite (key, writtenVersion) {
      const entry = carts.get(key)
      // An entry dropped meanwhile (the cache's bounds) held no views: the least version is kept again from here.
      keep(key, {
        minVersion: Math.max(writtenVersion, entry?.minVersion ?? 0),
        pending: Math.max(0, (entry?.pending ?? 0) - 1),
        views: entry?.views ?? new Map()
      })
    },

    async beginVersionsWrite () {
      versionWrites++
    },

    async endVersionsWrite (written) {
      versionWrites = Math.max(0, versionWrites - 1)
      versions = versions === null ? { ...written } : maxVersions(versions, written)
    },

    async ping () {},

    async close () {
      carts.clear()
      bytes = 0
    }
  }
}

function maxVersions (a: WriteVersions, b: WriteVersions): WriteVersions {
  return {
    catalogVersion: Math.max(a.catalogVersion, b.catalogVersion),
    settingsVersion: Math.max(a.settingsVersion, b.settingsVersion)
  }
}
