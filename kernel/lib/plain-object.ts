/** A JSON object as parsed: string keys, unknown values. */
export type Json = Record<string, unknown>

/** An object literal or `Object.create(null)`: not an array, not a class instance, not null. */
export function isPlainObject (value: unknown): value is Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * A JSON copy, as SQL stores keep values in `jsonb`: nothing a caller holds is shared with the store, and what JSON
 * cannot carry (`undefined` members) is dropped the same way. The in-memory stores keep their values so.
 */
export function jsonCopy<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
