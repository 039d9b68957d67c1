/**
 * The drawer's own data: its settings document and its analytics events, each store in memory and on SQL
 * (PostgreSQL or PGlite), with the SQL tables' own migration set. A host passes `cartDrawer` a `DrawerStores`; these
 * are the stores it may use for it, alone or inside its own storage (the reference storage builds them over its
 * shared state so their writes join its transactions).
 */
import type { AnalyticsStore, IdempotencyStore, SettingsStore } from '../../storage/contract/index.ts'
import type { SqlClient } from '../../kernel/sql/index.ts'
import { MemoryAnalyticsStore } from './memory/analytics-store.ts'
import { MemorySettingsStore } from './memory/settings-store.ts'
import { migrateDrawer } from './sql/migrations.ts'
import { SqlAnalyticsStore } from './sql/analytics-store.ts'
import { SqlSettingsStore } from './sql/settings-store.ts'

export { MemoryAnalyticsStore, MemorySettingsStore, SqlAnalyticsStore, SqlSettingsStore, migrateDrawer }
export { STANDALONE_HOST, type MemoryStoreHost } from './memory/host.ts'
export type { SqlSource } from './sql/source.ts'
export { DRAWER_MIGRATIONS_TABLE, drawerMigrations } from './sql/migrations.ts'

/** The stores `cartDrawer` takes. */
export interface DrawerStores {
  /** The drawer's settings document. */
  settings: SettingsStore
  /** The Pro edition's analytics events. */
  analytics: AnalyticsStore
  /**
   * Optional: the `Idempotency-Key`s of the cart-changing `svc/v1` routes (the reference storage is one). Without it
   * those routes ignore the header.
   */
  idempotency?: IdempotencyStore
}

/** The drawer's stores in this process's memory, on their own (tests, examples, a host without a database). */
export function createMemoryDrawerStores (): DrawerStores {
  return { settings: new MemorySettingsStore(), analytics: new MemoryAnalyticsStore() }
}

/**
 * The drawer's stores on a SQL database of the host's, after applying the drawer's migrations there (its own tables
 * and bookkeeping; nothing of a platform's schema is needed).
 */
export async function createSqlDrawerStores (client: SqlClient): Promise<DrawerStores> {
  await migrateDrawer(client)
  const source = { db: client }
  return { settings: new SqlSettingsStore(source), analytics: new SqlAnalyticsStore(source) }
}
