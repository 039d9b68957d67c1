import type { CartSnapshot, CartViewStore } from '../contract/index.ts'
import type { MemoryState } from './state.ts'

/** `CartViewStore` in memory: a guest cart's snapshot, kept on its cart's record for the record's version. */
export class MemoryCartViewStore implements CartViewStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async getCartSnapshot (key: string): Promise<CartSnapshot | null> {
    this.#state.assertOpen()
    const record = this.#state.carts.get(key)
    if (record?.snapshot == null || record.stamp === null || record.userId !== null) return null
    return { snapshot: record.snapshot, stamp: record.stamp, version: record.version, ...this.#state.versions() }
  }

  async saveCartSnapshot (key: string, version: number, stamp: string, snapshot: string): Promise<boolean> {
    return this.#state.cartWrite(key, () => {
      const record = this.#state.carts.get(key)
      if (record === undefined || record.version !== version) return false
      this.#state.assign(this.#state.carts, key, { ...record, snapshot, stamp })
      return true
    })
  }
}
