import { Compile } from 'typebox/compile'
import { backorderNoticeFromHtml, type ItemPresentation } from '../../domain/drawer-state.ts'
import { DrawerConfigSchema, LauncherSchema } from '../../schemas/settings.ts'
import { SvcQuantityLimitsSchema } from '../../schemas/svc-extension.ts'
import type { FilterIssues } from './filter-issues.ts'
import { isPlainObject } from '../../../kernel/lib/index.ts'

/**
 * Checks what the filters `svc_cart_item_data` and `svc_store_api_cart_extension_data` return, part by part: a
 * part of the wrong type is replaced by the service's own value for it (and noted once per response), every other
 * part is kept. Keys a filter adds are kept when they are plain JSON data.
 */

export const ITEM_FILTER = 'svc_cart_item_data'
export const CART_FILTER = 'svc_store_api_cart_extension_data'

/** Keys of `extensions.svc` that the service restores after the filters (specification §2.1 rule 2). */
export const PROTECTED_KEYS = ['coupons', 'item_presentations', 'optional_locked_keys'] as const

const MAX_DEPTH = 32

type Json = Record<string, unknown>

/**
 * Whether `value` is plain JSON data: null, booleans, finite numbers, strings, arrays and plain objects of those,
 * at most 32 levels deep (which also rules out cycles). Such a value is written the same by `JSON.stringify` and the
 * response serialiser, and can be cloned.
 */
export function isJsonData (value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (depth >= MAX_DEPTH) return false
  if (Array.isArray(value)) return value.every((child) => isJsonData(child, depth + 1))
  if (!isPlainObject(value)) return false
  return Object.values(value).every((child) => isJsonData(child, depth + 1))
}

function kind (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value === undefined) return 'nothing (the key is missing)'
  if (isPlainObject(value)) return 'an object of another shape'
  return typeof value === 'object' ? 'an object that is not plain data' : `a ${typeof value}`
}

/** Sets an own property even for a key such as `__proto__`. */
function define (target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

const quantityLimitsValidator = Compile(SvcQuantityLimitsSchema)
const drawerConfigValidator = Compile(DrawerConfigSchema)
const launcherValidator = Compile(LauncherSchema)

interface FieldRule {
  /** What a valid value is, for the log. */
  expected: string
  /** The value to use, or undefined when the value is of the wrong type. */
  accept (value: unknown): unknown
}

const text: FieldRule = { expected: 'a string', accept: (value) => typeof value === 'string' ? value : undefined }
const flag: FieldRule = { expected: 'a boolean', accept: (value) => typeof value === 'boolean' ? value : undefined }

function isExtraLine (value: unknown): boolean {
  return isPlainObject(value) && typeof value.label === 'string' && typeof value.value === 'string' && isJsonData(value)
}

/** The known fields of a presentation row, in the row's order (`key` is handled apart: it is always the line's). */
type RowField = 'name' | 'short_description' | 'variationSummary' | 'extraLines' | 'customPresentation' | 'product_id' |
  'visible' | 'quantityEditable' | 'removable' | 'quantityLimits' | 'backorderNotice'

const ROW_RULES: Record<RowField, FieldRule> = {
  name: text,
  short_description: text,
  variationSummary: text,
  extraLines: {
    expected: 'an array of {label, value} strings',
    accept: (value) => Array.isArray(value) && value.every(isExtraLine) ? value : undefined
  },
  customPresentation: {
    expected: 'null or an object of plain JSON data',
    accept: (value) => value === null || (isPlainObject(value) && isJsonData(value)) ? value : undefined
  },
  product_id: {
    expected: 'an integer',
    accept: (value) => Number.isSafeInteger(value) ? value : undefined
  },
  visible: flag,
  quantityEditable: flag,
  removable: flag,
  quantityLimits: {
    expected: '{minimum, maximum, multipleOf: integers, unlimited: boolean}',
    accept: (value) => {
      if (!quantityLimitsValidator.Check(value)) return undefined
      const { minimum, maximum, multipleOf, unlimited } = value
      return { minimum, maximum, multipleOf, unlimited }
    }
  },
  backorderNotice: {
    expected: 'a string',
    // Whatever a filter gives becomes plain text within the byte limit.
    accept: (value) => typeof value === 'string' ? backorderNoticeFromHtml(value) : undefined
  }
}

/**
 * The row to send for one line: the filter's row with each field of the wrong type replaced by the service's own
 * value, `key` always the line's key, added keys kept when they are plain data. Not an object at all → the
 * service's own row.
 */
export function checkPresentationRow (result: unknown, own: ItemPresentation, issues: FilterIssues): ItemPresentation {
  if (!isPlainObject(result)) {
    issues.invalid(ITEM_FILTER, 'row', `expected an object, got ${kind(result)}`)
    return own
  }
  const row: Json = { key: own.key }
  if (result.key !== own.key) issues.invalid(ITEM_FILTER, 'key', 'the key of a row is the cart item key and cannot change')
  for (const [field, rule] of Object.entries(ROW_RULES)) {
    // The service's own value, passed through unchanged, is taken as it is (its notice is plain text already).
    const accepted = result[field] === own[field] ? own[field] : rule.accept(result[field])
    if (accepted === undefined) {
      issues.invalid(ITEM_FILTER, field, `expected ${rule.expected}, got ${kind(result[field])}`)
      define(row, field, own[field])
    } else {
      define(row, field, accepted)
    }
  }
  for (const [key, value] of Object.entries(result)) {
    // `undefined` is no value at all (JSON has none): left out without a word.
    if (key === 'key' || Object.hasOwn(ROW_RULES, key) || value === undefined) continue
    if (isJsonData(value)) define(row, key, value)
    else issues.invalid(ITEM_FILTER, `added key ${key}`, `expected plain JSON data, got ${kind(value)}`)
  }
  return row as ItemPresentation
}

export interface OwnCartExtension {
  drawer_config: unknown
  launcher: unknown
  coupons: unknown
  item_presentations: unknown
  optional_locked_keys: unknown
}

/** Re-keys a valid value in the order of the service's own value (so the body is the same whoever wrote it). */
function inOrderOf (own: unknown, value: Json): Json {
  if (!isPlainObject(own)) return value
  const ordered: Json = {}
  for (const key of Object.keys(own)) {
    if (Object.hasOwn(value, key)) define(ordered, key, isPlainObject(value[key]) ? inOrderOf(own[key], value[key] as Json) : value[key])
  }
  return ordered
}

/**
 * `extensions.svc` after the cart filter: `drawer_config` and `launcher` as the filter left them when still valid
 * (else the service's), the protected keys always the service's own values, then every key the filter added that is
 * plain data. Not an object at all → the service's own object.
 */
export function checkCartExtension (result: unknown, own: OwnCartExtension, issues: FilterIssues): Json {
  if (!isPlainObject(result)) {
    issues.invalid(CART_FILTER, 'object', `expected an object, got ${kind(result)}`)
    return { ...own }
  }
  const checked: Json = {}
  for (const [key, validator] of [['drawer_config', drawerConfigValidator], ['launcher', launcherValidator]] as const) {
    const value = result[key]
    if (validator.Check(value)) {
      checked[key] = inOrderOf(own[key], value as Json)
    } else {
      issues.invalid(CART_FILTER, key, `expected a valid ${key} object, got ${kind(value)}`)
      checked[key] = own[key]
    }
  }
  for (const key of PROTECTED_KEYS) checked[key] = own[key]
  for (const [key, value] of Object.entries(result)) {
    if (Object.hasOwn(checked, key) || value === undefined) continue
    if (isJsonData(value)) define(checked, key, value)
    else issues.invalid(CART_FILTER, `added key ${key}`, `expected plain JSON data, got ${kind(value)}`)
  }
  return checked
}
