/**
 * The drawer's own schema: the tables of its `SettingsStore` and `AnalyticsStore`, with their own bookkeeping
 * (`svc_drawer_schema_migrations`), so the drawer's stores can be set up on a database the platform does not own.
 * docs/decisions/drawer-stores.md.
 *
 * Until these existed, the platform's list created the same tables (0001_initial) and changed the analytics table
 * (0002_analytics_visitors, 0005_attribution_from_orders). Each migration here therefore also adopts its table as
 * any of those left it: it creates what is missing and brings an older shape to the current one, and keeps the rows.
 */
import { applyMigrations, type Migration, type SqlClient } from '../../../kernel/sql/index.ts'

/** Where the drawer's set records what it applied; the platform's list uses `svc_schema_migrations`. */
export const DRAWER_MIGRATIONS_TABLE = 'svc_drawer_schema_migrations'

export const drawerMigrations: readonly Migration[] = [
  {
    id: 'drawer_0001_settings',
    statements: [
      // One row: the settings document and the version a save is checked against.
      `CREATE TABLE IF NOT EXISTS svc_settings (
        id integer PRIMARY KEY CHECK (id = 1),
        document jsonb NOT NULL,
        version integer NOT NULL
      )`
    ]
  },
  {
    id: 'drawer_0002_analytics_events',
    statements: [
      // Visitors are a keyed hash of the cart key, never the key; no browser-sent value is kept (orders count revenue).
      `CREATE TABLE IF NOT EXISTS svc_analytics_events (
        id bigserial PRIMARY KEY,
        type text NOT NULL,
        product_id integer NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL DEFAULT '{}',
        visitor text NULL,
        drawer_add boolean NOT NULL DEFAULT false
      )`,
      // A table the platform's list made, in any of its states: what its 0002 and 0005 did, each done if not yet.
      'ALTER TABLE svc_analytics_events DROP COLUMN IF EXISTS cart_key',
      'ALTER TABLE svc_analytics_events ADD COLUMN IF NOT EXISTS visitor text NULL',
      'ALTER TABLE svc_analytics_events ADD COLUMN IF NOT EXISTS drawer_add boolean NOT NULL DEFAULT false',
      'ALTER TABLE svc_analytics_events DROP COLUMN IF EXISTS value',
      // The summary reads a range of days from the index alone. Built only where it is missing or of an older shape:
      // an up-to-date table keeps its index (no rebuild under the lock on the first start after an upgrade).
      // The index is looked up by name in this schema only: a query over pg_indexes computes the definition of other
      // schemas' indexes too, and fails when another connection drops one of them meanwhile.
      `DO $$
      DECLARE
        idx regclass := to_regclass(quote_ident(current_schema()) || '.svc_analytics_events_occurred_at_idx');
      BEGIN
        IF idx IS NULL OR pg_get_indexdef(idx) NOT LIKE '% USING btree (occurred_at) INCLUDE (type, drawer_add, visitor)' THEN
          DROP INDEX IF EXISTS svc_analytics_events_occurred_at_idx;
          CREATE INDEX svc_analytics_events_occurred_at_idx ON svc_analytics_events (occurred_at) INCLUDE (type, drawer_add, visitor);
        END IF;
      END $$`
    ]
  }
]

/**
 * Applies the drawer's pending migrations under the schema lock, recorded in `svc_drawer_schema_migrations`. Returns
 * the ids it applied.
 */
export async function migrateDrawer (client: SqlClient, list: readonly Migration[] = drawerMigrations): Promise<string[]> {
  return applyMigrations(client, DRAWER_MIGRATIONS_TABLE, list)
}
