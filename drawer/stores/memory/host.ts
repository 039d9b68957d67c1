/**
 * What the drawer's in-memory stores need of the storage they live in: whether it is open, and how to make a write
 * undoable inside the host's transaction (a checkout's attribution event rolls back with its cart). A host's memory
 * storage passes itself (the reference storage's `MemoryState` does); alone, the stores are always open and every
 * write is final.
 */
export interface MemoryStoreHost {
  /** Throws the storage's unavailable error once it is closed. */
  assertOpen (): void
  /** Registers how to undo a write made inside a transaction; none outside one. */
  onRollback (undo: () => void): void
}

export const STANDALONE_HOST: MemoryStoreHost = {
  assertOpen () {},
  onRollback () {}
}

/** Sets (or, with `undefined`, deletes) a map's entry, undoably in the host's transaction. */
export function assign<K, V> (host: MemoryStoreHost, map: Map<K, V>, key: K, value: V | undefined): void {
  const had = map.has(key)
  const previous = map.get(key)
  if (value === undefined) map.delete(key)
  else map.set(key, value)
  host.onRollback(() => {
    if (had) map.set(key, previous as V)
    else map.delete(key)
  })
}
