import { Compile } from 'typebox/compile'
import { Settings as TypeBoxSettings } from 'typebox/system'
import { Value } from 'typebox/value'
import { SettingsSchema, type Settings } from '../../schemas/settings.ts'
import { semanticProblems } from './semantic-checks.ts'
import { isPlainObject } from '../../../kernel/lib/index.ts'

/**
 * Pure helpers for the settings document: defaults, deep merge, validation with every problem listed, and the
 * repair of a stored document that no longer validates (an older release's values, a tightened bound).
 */
export type Json = Record<string, unknown>

import type { SettingsProblems } from './problems.ts'

export type { SettingsProblems }

/** Sets an own, enumerable property even for a key such as `__proto__` (which plain assignment would not create). */
function define (target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function cloneJson (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson)
  if (isPlainObject(value)) {
    const copy: Json = {}
    for (const [key, child] of Object.entries(value)) define(copy, key, cloneJson(child))
    return copy
  }
  return value
}

/**
 * `patch` laid over `base`: objects merge key by key (the base's keys first, in its order, then the patch's new
 * keys); anything else in the patch (a value, an array, null) replaces what the base has. `undefined` in the patch
 * changes nothing. Neither input is modified.
 */
export function deepMerge (base: Json, patch: Json): Json {
  const result: Json = {}
  for (const [key, value] of Object.entries(base)) define(result, key, cloneJson(value))
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const current = Object.hasOwn(result, key) ? result[key] : undefined
    define(result, key, isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : cloneJson(value))
  }
  return result
}

const DEFAULTS = Object.freeze(Value.Create(SettingsSchema)) as Settings

/** A fresh copy of the default document. */
export function defaultSettings (): Settings {
  return structuredClone(DEFAULTS)
}

const validator = Compile(SettingsSchema)

/** More than any document can have: TypeBox stops at 8 errors by default, and every problem must be listed. */
const MAX_ERRORS = 1000

/**
 * The validator's errors, all of them. TypeBox's error cap is a global setting: it is raised for this synchronous
 * call only and put back at once, so other callers keep their own.
 */
function allErrors (document: unknown) {
  const previous = TypeBoxSettings.Get().maxErrors
  TypeBoxSettings.Set({ maxErrors: MAX_ERRORS })
  try {
    return validator.Errors(document)
  } finally {
    TypeBoxSettings.Set({ maxErrors: previous })
  }
}

function decodePointer (pointer: string): string[] {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
}

const pathOf = (segments: readonly string[]): string => segments.length === 0 ? 'settings' : segments.join('.')

function describe (error: { keyword: string, message: string, params: Record<string, unknown> }): string {
  const { keyword, params } = error
  switch (keyword) {
    case 'boolean': return 'is not a known setting'
    case 'enum': return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`
    case 'minimum': return `must be at least ${String(params.limit)}`
    case 'maximum': return `must be at most ${String(params.limit)}`
    case 'maxItems': return `must have at most ${String(params.limit)} items`
    case 'uniqueItems': return 'must not list a value twice'
    case 'pattern': return String(params.pattern).startsWith('^#') ? 'must be a colour written #rrggbb' : error.message
    case 'type': return `must be ${params.type === 'integer' ? 'a whole number' : params.type === 'object' ? 'an object' : params.type === 'array' ? 'an array' : `a ${String(params.type)}`}`
    default: return error.message
  }
}

/**
 * Every problem of a whole document, `{path: message}`; empty when it is valid. Unknown keys are reported one by
 * one (`drawer_config.colour: is not a known setting`).
 */
export function settingsProblems (document: unknown): SettingsProblems {
  if (validator.Check(document)) return semanticProblems(document)
  const problems: SettingsProblems = semanticProblems(document)
  for (const error of allErrors(document)) {
    // The per-key `boolean` errors already name each unknown key.
    if (error.keyword === 'additionalProperties') continue
    const segments = decodePointer(error.instancePath)
    if (error.keyword === 'required') {
      for (const name of (error.params as { requiredProperties?: string[] }).requiredProperties ?? []) {
        problems[pathOf([...segments, name])] ??= 'is required'
      }
      continue
    }
    problems[pathOf(segments)] ??= describe(error as { keyword: string, message: string, params: Record<string, unknown> })
  }
  return problems
}

/** The effective document: the defaults with the stored (partial) document laid over them. */
export function effectiveSettings (overrides: Json): Json {
  return deepMerge(DEFAULTS as unknown as Json, overrides)
}

/**
 * A stored partial document with every value that makes the effective document invalid taken out, so the
 * defaults show through there. Returns the repaired overrides and the problems that were found.
 */
export function repairOverrides (overrides: unknown): { overrides: Json, problems: SettingsProblems } {
  if (!isPlainObject(overrides)) return { overrides: {}, problems: { settings: 'must be an object' } }
  let current = cloneJson(overrides) as Json
  const found: SettingsProblems = {}
  // Each pass removes the values at the reported paths; a few passes cover a problem uncovered by another.
  for (let pass = 0; pass < 5; pass++) {
    const problems = settingsProblems(effectiveSettings(current))
    const paths = Object.keys(problems)
    if (paths.length === 0) return { overrides: current, problems: found }
    Object.assign(found, problems)
    for (const path of paths) current = removePath(current, path === 'settings' ? [] : path.split('.'))
  }
  return { overrides: {}, problems: found }
}

/** The overrides without the value at `segments` (or at the deepest part of it that the overrides hold). */
function removePath (overrides: Json, segments: readonly string[]): Json {
  if (segments.length === 0) return {}
  const [head, ...rest] = segments as [string, ...string[]]
  if (!Object.hasOwn(overrides, head)) return overrides
  const copy = { ...overrides }
  const child = copy[head]
  if (rest.length === 0 || !isPlainObject(child)) {
    delete copy[head]
    return copy
  }
  define(copy, head, removePath(child, rest))
  return copy
}
