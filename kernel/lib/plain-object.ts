/** A JSON object as parsed: string keys, unknown values. */
export type Json = Record<string, unknown>

/** An object literal or `Object.create(null)`: not an array, not a class instance, not null. */
export function isPlainObject (value: unknown): value is Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
