/**
 * Picked recommendations kept per instance, so a drawer opened again on the same cart lists them without another
 * product listing or product read. An entry's key names everything the pick reads: the catalog's and the settings'
 * versions (what the shop's product reads answer depends on the first, the limit and sources on the second), the
 * plan (the steps the rules chose for this visitor and moment), the cart's lines as the pick sees them and the
 * priced lines' parents (private products a manager sees). A product or coupon write anywhere moves the catalog
 * version, which the next cart read brings along, so no entry outlives the catalog it was computed from.
 */
export class RecommendationCache<T> {
  readonly #entries = new Map<string, Promise<T>>()
  readonly #max: number

  constructor (max = 2000) {
    this.#max = max
  }

  get size (): number {
    return this.#entries.size
  }

  /**
   * The value kept under `key`, or `compute`'s. `compute` calls `unversioned()` when it read something no version
   * covers (the best sellers, counted from orders): that value is answered but not kept. Concurrent misses of one
   * key share one computation; a rejected one is not kept.
   */
  async get (key: string, compute: (unversioned: () => void) => Promise<T>): Promise<T> {
    const kept = this.#entries.get(key)
    if (kept !== undefined) return kept
    let keep = true
    const pending = compute(() => { keep = false })
    this.#entries.set(key, pending)
    try {
      const value = await pending
      if (!keep) this.#entries.delete(key)
      return value
    } catch (error) {
      this.#entries.delete(key)
      throw error
    } finally {
      // Oldest out: the map keeps insertion order.
      while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!)
    }
  }
}
