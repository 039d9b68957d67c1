import { jsonCopy } from '../../../kernel/lib/index.ts'
import type { SettingsStore, StoredSettings } from '../../../storage/contract/index.ts'
import { STANDALONE_HOST, type MemoryStoreHost } from './host.ts'

/** `SettingsStore` in memory: one document and its version (which a host's cart reads may answer too: `version`). */
export class MemorySettingsStore implements SettingsStore {
  readonly #host: MemoryStoreHost
  #stored: StoredSettings | null = null

  constructor (host: MemoryStoreHost = STANDALONE_HOST) {
    this.#host = host
  }

  /** The stored document's version, 0 before the first save. */
  get version (): number {
    return this.#stored?.version ?? 0
  }

  async getSettings (): Promise<StoredSettings | null> {
    this.#host.assertOpen()
    return this.#stored === null ? null : jsonCopy(this.#stored)
  }

  async saveSettings (document: Record<string, unknown>, expectedVersion?: number): Promise<StoredSettings | null> {
    this.#host.assertOpen()
    const previous = this.#stored
    const version = previous?.version ?? 0
    if (expectedVersion !== undefined && expectedVersion !== version) return null
    this.#stored = { document: jsonCopy(document), version: version + 1 }
    this.#host.onRollback(() => { this.#stored = previous })
    return jsonCopy(this.#stored)
  }
}
