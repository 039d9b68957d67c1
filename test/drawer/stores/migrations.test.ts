/**
 * The drawer's own migration set (storage/sql/drawer-migrations.ts): on a fresh database, on a database the platform
 * does not own, and on one the platform's former list made (its settings and analytics tables adopted, rows kept).
 */
import { test } from 'tap'
import type { SqlClient, SqlSession } from '../../../storage/index.ts'
import { DRAWER_MIGRATIONS_TABLE, drawerMigrations, migrate, migrateDrawer, migrateStorage, migrations, SqlStorage } from '../../../storage/index.ts'
import { storageBackends, type StorageBackend } from '../../helpers/storage-backends.ts'
import { platformMigrationsBeforeDrawer } from '../../storage/fixtures/platform-migrations-before-drawer.ts'

const DRAWER_IDS = drawerMigrations.map((migration) => migration.id)
const PLATFORM_IDS = migrations.map((migration) => migration.id)

/** The schema's tables, columns, indexes, constraints and sequences, with the schema's own name taken out. */
async function describeSchema (db: SqlSession): Promise<Record<string, string[]>> {
  const lists: Record<string, string> = {
    tables: 'SELECT table_name AS line FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
    // By position, not by its number: a dropped column leaves a gap in the numbers of the columns after it.
    columns: `SELECT concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default) AS line
      FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    indexes: `SELECT replace(indexdef, current_schema() || '.', '') AS line
      FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`,
    constraints: `SELECT concat_ws(' ', conrelid::regclass::text, conname, pg_get_constraintdef(oid)) AS line
      FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1`,
    sequences: 'SELECT sequence_name AS line FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1'
  }
  const schema: Record<string, string[]> = {}
  for (const [name, text] of Object.entries(lists)) {
    schema[name] = (await db.query<{ line: string }>(text)).rows.map((row) => row.line)
  }
  return schema
}

async function tables (db: SqlSession): Promise<string[]> {
  return (await describeSchema(db)).tables!
}

async function recorded (db: SqlSession, table: string): Promise<string[]> {
  return (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map((row) => row.id)
}

/** A fresh database migrated by today's sets: what the upgraded ones are compared with. */
async function freshSchema (backend: StorageBackend): Promise<Record<string, string[]>> {
  const bare = await backend.createBareClients()
  try {
    await migrateStorage(bare.clients[0])
    return await describeSchema(bare.clients[0])
  } finally {
    await bare.dispose()
  }
}

const SETTINGS = { general: { enabled: true }, note: 'kept' }

/**
 * A database migrated by the first `count` entries of the platform's former list, with a settings document (saved
 * twice: version 2) and two analytics events written in the columns the table had then.
 */
async function oldDatabase (client: SqlClient, count: number): Promise<void> {
  await migrate(client, platformMigrationsBeforeDrawer.slice(0, count))
  await client.query('INSERT INTO svc_settings (id, document, version) VALUES (1, $1::jsonb, 2)', [JSON.stringify(SETTINGS)])
  const { rows } = await client.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \'svc_analytics_events\'')
  const visitors = rows.some((row) => row.column_name === 'visitor')
  const events = [
    ['drawer_open', null, '2024-03-01T10:00:00Z', '{}', 'v1'],
    ['add_to_cart', 101, '2024-03-02T11:00:00Z', '{"source":"drawer"}', 'v2']
  ] as const
  for (const [type, productId, at, data, visitor] of events) {
    if (visitors) {
      await client.query(`INSERT INTO svc_analytics_events (type, product_id, occurred_at, data, visitor, drawer_add)
        VALUES ($1, $2, $3::timestamptz, $4::jsonb, $5, $6)`, [type, productId, at, data, visitor, type === 'add_to_cart'])
    } else {
      await client.query(`INSERT INTO svc_analytics_events (type, product_id, occurred_at, data)
        VALUES ($1, $2, $3::timestamptz, $4::jsonb)`, [type, productId, at, data])
    }
  }
}

interface EventRow { id: string, type: string, product_id: number | null, at: string, data: unknown }

async function events (db: SqlSession): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT id::text, type, product_id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at, data
     FROM svc_analytics_events ORDER BY id`)
  return rows
}

const KEPT_EVENTS: EventRow[] = [
  { id: '1', type: 'drawer_open', product_id: null, at: '2024-03-01T10:00', data: {} },
  { id: '2', type: 'add_to_cart', product_id: 101, at: '2024-03-02T11:00', data: { source: 'drawer' } }
]

for (const backend of storageBackends()) {
  test(`${backend.name}: a fresh database gets the platform's tables from its list and the drawer's from the drawer's`, { skip: backend.skip }, async (t) => {
    const { clients: [first, second], dispose } = await backend.createBareClients()
    t.teardown(dispose)
    t.same(await migrate(first), PLATFORM_IDS)
    const platformOnly = await tables(first)
    t.notOk(platformOnly.includes('svc_settings'), 'the platform\'s list no longer makes svc_settings')
    t.notOk(platformOnly.includes('svc_analytics_events'), 'nor svc_analytics_events')
    t.ok(platformOnly.includes('svc_carts'))

    const applied = await Promise.all([migrateDrawer(first), migrateDrawer(second)])
    t.same(applied.flat(), DRAWER_IDS, 'instances migrating together apply each drawer migration once')
    t.same(await recorded(first, DRAWER_MIGRATIONS_TABLE), DRAWER_IDS)
    t.same(await recorded(first, 'svc_schema_migrations'), [...PLATFORM_IDS].sort(), 'the platform\'s bookkeeping has none of them')
    t.same(await migrateStorage(second), [], 'a second run of both sets applies nothing')
  })

  test(`${backend.name}: the drawer's set alone sets its stores up on a database the platform does not own`, { skip: backend.skip }, async (t) => {
    const { clients: [client], dispose } = await backend.createBareClients()
    t.teardown(dispose)
    t.same(await migrateDrawer(client), DRAWER_IDS)
    t.same(await tables(client), [DRAWER_MIGRATIONS_TABLE, 'svc_analytics_events', 'svc_settings'].sort(), 'its tables only')
    const stores = new SqlStorage(backend.name, client)
    t.same(await stores.saveSettings({ a: 1 }, 0), { document: { a: 1 }, version: 1 })
    t.same(await stores.getSettings(), { document: { a: 1 }, version: 1 })
    t.equal(await stores.insertAnalyticsEvents([{ type: 'drawer_open', visitor: 'v', productId: null, drawerAdd: false, occurredAt: '2024-03-01T10:00:00.000Z', data: {} }]), 1)
    t.equal((await stores.analyticsSummary('2024-03-01', '2024-03-01')).visitors, 1)
    t.same(await migrateStorage(client), PLATFORM_IDS, 'the platform\'s list can follow: it does not touch the drawer\'s tables')
    t.same(await stores.getSettings(), { document: { a: 1 }, version: 1 })
  })

  // After 0001 only, after 0002 (the index with `value`) and after the whole former list: every state it left the
  // analytics table in.
  for (const count of [1, 2, platformMigrationsBeforeDrawer.length]) {
    const ids = platformMigrationsBeforeDrawer.slice(0, count).map((migration) => migration.id)
    test(`${backend.name}: a database the former list migrated to ${ids.at(-1)}, with rows, upgrades cleanly`, { skip: backend.skip }, async (t) => {
      const { clients: [first, second], dispose } = await backend.createBareClients()
      t.teardown(dispose)
      await oldDatabase(first, count)

      const applied = await Promise.all([migrateStorage(first), migrateStorage(second)])
      t.same(applied.flat().filter((id) => DRAWER_IDS.includes(id)), DRAWER_IDS, 'the drawer\'s set adopts the tables, once')
      t.same(applied.flat().filter((id) => !DRAWER_IDS.includes(id)), PLATFORM_IDS.slice(count), 'the platform applies only what it had not')
      t.same(await migrateStorage(first), [], 'running again is a no-op')

      t.same(await describeSchema(first), await freshSchema(backend), 'the schema is a fresh database\'s')
      const stores = new SqlStorage(backend.name, first)
      t.same(await stores.getSettings(), { document: SETTINGS, version: 2 }, 'the settings are kept')
      t.same(await events(first), KEPT_EVENTS, 'the events are kept')
      t.equal(await stores.insertAnalyticsEvents([{ type: 'drawer_open', visitor: 'v3', productId: null, drawerAdd: false, occurredAt: '2024-03-03T09:00:00.000Z', data: {} }]), 1)
      t.same((await events(first)).map((row) => row.id), ['1', '2', '3'], 'new events continue the ids')
      t.same(await stores.saveSettings({ general: { enabled: false } }, 2), { document: { general: { enabled: false } }, version: 3 })
    })
  }
}
