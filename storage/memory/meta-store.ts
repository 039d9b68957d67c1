import type { MetaStore } from '../contract/index.ts'
import type { MemoryState } from './state.ts'

/** `MetaStore` in memory: values by key, created once. */
export class MemoryMetaStore implements MetaStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async getOrCreateMeta (key: string, create: () => string): Promise<string> {
    this.#state.assertOpen()
    const found = this.#state.meta.get(key)
    if (found !== undefined) return found
    const value = create()
    this.#state.assign(this.#state.meta, key, value)
    return value
  }
}
