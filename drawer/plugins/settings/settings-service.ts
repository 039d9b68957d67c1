import type { Settings } from '../../schemas/settings.ts'
import type { SettingsStore } from '../../../storage/contract/index.ts'
import {
  deepMerge, defaultSettings, effectiveSettings, repairOverrides, settingsProblems,
  type Json, type SettingsProblems
} from './document.ts'
import { isPlainObject } from '../../../kernel/lib/index.ts'

/** The effective settings and the version they were read at (0 while nothing has been saved). */
export interface VersionedSettings {
  settings: Settings
  version: number
}

export type SettingsWriteResult =
  | ({ ok: true } & VersionedSettings)
  /** The document would not be valid: every problem, `{path: message}`. Nothing was stored. */
  | { ok: false, reason: 'invalid', problems: SettingsProblems }
  /** `expectedVersion` is not the stored version: someone saved in between. Nothing was stored. */
  | { ok: false, reason: 'conflict', version: number }

/**
 * A check beyond the schema (`addCheck`): given the effective document (which may hold invalid values when the schema
 * found problems too), the problems it finds, `{path: message}`.
 */
export type SettingsCheck = (settings: Settings) => SettingsProblems | Promise<SettingsProblems>

/**
 * Sections the document no longer has: dropped without a problem when read, saved or imported, so an older export
 * still imports. `shipping_meter` (a threshold that granted nothing) became the `rewards` tiers.
 */
const RETIRED_SECTIONS = ['shipping_meter']

function withoutRetired<T> (document: T): T {
  if (!isPlainObject(document) || !RETIRED_SECTIONS.some((key) => Object.hasOwn(document, key))) return document
  const copy: Record<string, unknown> = { ...document }
  for (const key of RETIRED_SECTIONS) delete copy[key]
  return copy as T
}

function deepFreeze<T> (value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

export interface SettingsServiceOptions {
  /** Told when a stored document no longer validates (the values at `problems` are read as their defaults). */
  onStoredProblems?: (problems: SettingsProblems, version: number) => void
  /** How often a save without `expectedVersion` retries when another save lands in between. Default 5. */
  maxAttempts?: number
}

/**
 * The settings document over `Storage.getSettings` / `saveSettings`. Storage holds the values that were set (a
 * partial document); readers get the defaults with those laid over them. `get` reads storage; `at(version)` answers
 * from the instance's cache when the version a cart read brought along (`Storage.readCart`) is the cached one, so a
 * change saved on any instance is seen by every other on its next cart read, without a read of its own. The cached
 * document is frozen: readers share it.
 */
export class SettingsService {
  readonly #storage: SettingsStore
  readonly #onStoredProblems: NonNullable<SettingsServiceOptions['onStoredProblems']>
  readonly #maxAttempts: number
  #lastReportedVersion = -1
  #cached: VersionedSettings | undefined
  readonly #checks: SettingsCheck[] = []

  constructor (storage: SettingsStore, options: SettingsServiceOptions = {}) {
    this.#storage = storage
    this.#onStoredProblems = options.onStoredProblems ?? (() => {})
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 5)
  }

  /** The document this instance last read or wrote, without a read (undefined before the first). */
  get cached (): VersionedSettings | undefined {
    return this.#cached
  }

  /**
   * Adds a check that needs more than the document (the shop's products, the edition): it runs on every save and
   * import, together with the schema's, and its problems refuse the document like theirs. Returns a remover.
   */
  addCheck (check: SettingsCheck): () => void {
    this.#checks.push(check)
    return () => {
      const index = this.#checks.indexOf(check)
      if (index !== -1) this.#checks.splice(index, 1)
    }
  }

  /** Every problem of an effective document: the schema's and the added checks'. */
  async #problems (document: Json): Promise<SettingsProblems> {
    const problems = settingsProblems(document)
    for (const check of this.#checks) {
      // The schema's own message stays first for a path both report.
      for (const [path, message] of Object.entries(await check(document as Settings))) problems[path] ??= message
    }
    return problems
  }

  /** The default document. */
  defaults (): Settings {
    return defaultSettings()
  }

  /** Every problem of a whole document (`{}` when valid), without storing anything. */
  validate (document: unknown): SettingsProblems {
    return settingsProblems(document)
  }

  async get (): Promise<VersionedSettings> {
    const { overrides, version } = await this.#read()
    if (this.#cached?.version === version) return this.#cached
    return this.#remember(effectiveSettings(overrides) as Settings, version)
  }

  /**
   * The settings at `version` (the stored version as a cart read just saw it): the cached document when it is that
   * version, else read from storage. Without a version, the same as `get`.
   */
  async at (version: number | undefined): Promise<VersionedSettings> {
    const cached = this.#cached
    if (version !== undefined && cached !== undefined && cached.version === version) return cached
    return this.get()
  }

  #remember (settings: Settings, version: number): VersionedSettings {
    const value = deepFreeze({ settings, version })
    if (this.#cached === undefined || version >= this.#cached.version) this.#cached = value
    return value
  }

  /**
   * Lays `patch` over the current settings (deep merge: objects key by key, arrays and values replaced) and stores
   * the result if the whole document is then valid. With `expectedVersion`, stores only if the settings are still
   * at that version (else a conflict); without it, a save that races another is redone on the newer settings.
   */
  async save (patch: unknown, expectedVersion?: number): Promise<SettingsWriteResult> {
    if (!isPlainObject(patch)) return { ok: false, reason: 'invalid', problems: { settings: 'must be an object' } }
    for (let attempt = 1; ; attempt++) {
      const current = await this.#read()
      if (expectedVersion !== undefined && expectedVersion !== current.version) {
        return { ok: false, reason: 'conflict', version: current.version }
      }
      const overrides = deepMerge(current.overrides, withoutRetired(patch))
      const problems = await this.#problems(effectiveSettings(overrides))
      if (Object.keys(problems).length > 0) return { ok: false, reason: 'invalid', problems }
      const stored = await this.#storage.saveSettings(overrides, current.version)
      if (stored !== null) return { ok: true, ...this.#remember(effectiveSettings(overrides) as Settings, stored.version) }
      if (expectedVersion !== undefined || attempt >= this.#maxAttempts) {
        return { ok: false, reason: 'conflict', version: (await this.#read()).version }
      }
    }
  }

  /**
   * Replaces the whole document in one write (an import). Values the document leaves out take their defaults; an
   * invalid document changes nothing and every problem is listed. `expectedVersion` as in `save`.
   */
  async replace (document: unknown, expectedVersion?: number): Promise<SettingsWriteResult> {
    if (!isPlainObject(document)) return { ok: false, reason: 'invalid', problems: { settings: 'must be an object' } }
    const overrides = deepMerge({}, withoutRetired(document))
    const problems = await this.#problems(effectiveSettings(overrides))
    if (Object.keys(problems).length > 0) return { ok: false, reason: 'invalid', problems }
    const stored = await this.#storage.saveSettings(overrides, expectedVersion)
    if (stored === null) return { ok: false, reason: 'conflict', version: (await this.#read()).version }
    return { ok: true, ...this.#remember(effectiveSettings(overrides) as Settings, stored.version) }
  }

  /** Back to the defaults (stored as an empty document, so later default changes apply). */
  async reset (): Promise<VersionedSettings> {
    const stored = await this.#storage.saveSettings({})
    return this.#remember(defaultSettings(), stored?.version ?? 0)
  }

  async #read (): Promise<{ overrides: Json, version: number }> {
    const stored = await this.#storage.getSettings()
    if (stored === null) return { overrides: {}, version: 0 }
    const { overrides, problems } = repairOverrides(withoutRetired(stored.document))
    if (Object.keys(problems).length > 0 && stored.version !== this.#lastReportedVersion) {
      this.#lastReportedVersion = stored.version
      this.#onStoredProblems(problems, stored.version)
    }
    return { overrides, version: stored.version }
  }
}
