/** The SQL backends' schema: migrations applied once, by whichever instance comes first. */
import { test } from 'tap'
import { drawerMigrations } from '../../drawer/index.ts'
import { migrate, migrateStorage, migrations } from '../../storage/sql/migrations.ts'
import { storageBackends } from '../helpers/storage-backends.ts'
import { product } from './fixtures/contract.ts'

for (const backend of storageBackends()) {
  test(`${backend.name}: migrations run again apply nothing`, { skip: backend.skip }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())
    await storage.upsertProducts([product(1)])
    t.same(await storage.migrate(), [])
    t.same(await Promise.all([storage.migrate(), storage.migrate()]), [[], []])
    t.ok(await storage.getProduct(1), 'data survives')
  })

  test(`${backend.name} migrations on a fresh database`, { skip: backend.skip }, async (t) => {
    const { clients: [first, second], dispose } = await backend.createBareClients()
    t.teardown(dispose)
    const applied = await Promise.all([migrateStorage(first), migrateStorage(second)])
    const ids = migrations.map((migration) => migration.id)
    const drawerIds = drawerMigrations.map((migration) => migration.id)
    t.same(applied.flat().sort(), [...ids, ...drawerIds].sort(), 'instances migrating together apply each migration exactly once')
    t.same(await migrate(first), [], 'a second run applies nothing')
    t.same(await migrateStorage(first), [], 'nor of the drawer\'s set')
    const { rows } = await second.query<{ id: string }>('SELECT id FROM svc_schema_migrations ORDER BY id')
    t.same(rows.map((row) => row.id), ids)
    const { rows: drawerRows } = await second.query<{ id: string }>('SELECT id FROM svc_drawer_schema_migrations ORDER BY id')
    t.same(drawerRows.map((row) => row.id), drawerIds, 'the drawer\'s set keeps its own record')
    const { rows: tables } = await first.query<{ count: number }>('SELECT ((SELECT count(*) FROM svc_carts) + (SELECT count(*) FROM svc_settings))::int AS count')
    t.same(tables, [{ count: 0 }])
  })
}
