import type { SettingsStore, StoredSettings } from '../contract/index.ts'
import { copy, type MemoryState } from './state.ts'

/** `SettingsStore` in memory: one document and its version (which cart reads and writes answer too). */
export class MemorySettingsStore implements SettingsStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async getSettings (): Promise<StoredSettings | null> {
    this.#state.assertOpen()
    return this.#state.settings === null ? null : copy(this.#state.settings)
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    this.#state.assertOpen()
    const previous = this.#state.settings
    const version = previous?.version ?? 0
    if (expectedVersion !== undefined && expectedVersion !== version) return null
    this.#state.settings = { document: copy(document), version: version + 1 }
    this.#state.onRollback(() => { this.#state.settings = previous })
    return copy(this.#state.settings)
  }
}
