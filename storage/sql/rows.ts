import type { CartData, Coupon } from '../../kernel/domain/types.ts'
import type { Session, StoredCart, User } from '../contract/index.ts'

/** Row shapes as both pg and PGlite return them: jsonb parsed, timestamptz as Date, int8/numeric possibly strings. */
export interface CartRow {
  key: string
  user_id: number | null
  data: CartData
  version: number
  updated_at: Date | string
}

export interface CouponRow {
  code: string
  data: Coupon
  usage_count: number
}

export interface UserRow {
  id: number
  email: string
  display_name: string
  password_hash: string
  capabilities: string[]
}

export interface SessionRow {
  id_hash: string
  user_id: number
  created_at: Date | string
  expires_at: Date | string
  capabilities: string[]
}

export const CART_COLUMNS = 'key, user_id, data, version, updated_at'

export const CATALOG_VERSION = "(SELECT version FROM svc_versions WHERE name = 'catalog')"
const SETTINGS_VERSION = 'coalesce((SELECT version FROM svc_settings WHERE id = 1), 0)'
/** The catalog's and the settings' versions as columns of any statement (`WriteVersionsRow`). */
export const VERSIONS = `${CATALOG_VERSION} AS catalog_version, ${SETTINGS_VERSION} AS settings_version`

export interface WriteVersionsRow {
  catalog_version: number
  settings_version: number
}
export const USER_COLUMNS = 'id, email, display_name, password_hash, capabilities'

export function toIso (value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

export { normaliseKey } from '../rules.ts'

export function toStoredCart (row: CartRow): StoredCart {
  return { key: row.key, userId: row.user_id, data: row.data, version: row.version, updatedAt: toIso(row.updated_at) }
}

export function toCoupon (row: CouponRow): Coupon {
  return { ...row.data, code: row.code, usageCount: row.usage_count }
}

export function toUser (row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    capabilities: row.capabilities
  }
}

export function toSession (row: SessionRow): Session {
  return { idHash: row.id_hash, userId: row.user_id, createdAt: toIso(row.created_at), expiresAt: toIso(row.expires_at), capabilities: row.capabilities }
}
