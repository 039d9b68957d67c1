import type { SqlClient } from './session.ts'

export interface Migration {
  id: string
  /** Run in order, one statement each (PGlite's extended protocol takes a single statement per query). */
  statements: readonly string[]
}

/**
 * Taken with pg_advisory_xact_lock by everything that changes the schema, so concurrent starts queue up. One key for
 * every migration set (the platform's, the drawer's): sets that share a database never change it at the same time.
 */
export const SCHEMA_LOCK_KEY = 7_386_021_455

const TABLE_NAME = /^svc_[a-z0-9_]+$/

/**
 * Applies the migrations of `list` that `table` does not record, in one transaction that holds the schema lock, so
 * instances starting together apply each migration once. `table` is the set's own bookkeeping, created if missing.
 * Returns the ids it applied.
 */
export async function applyMigrations (client: SqlClient, table: string, list: readonly Migration[]): Promise<string[]> {
  if (!TABLE_NAME.test(table)) throw new Error(`invalid migrations table ${JSON.stringify(table)}`)
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`)
    await tx.query(`CREATE TABLE IF NOT EXISTS ${table} (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const { rows } = await tx.query<{ id: string }>(`SELECT id FROM ${table}`)
    const done = new Set(rows.map((row) => row.id))
    const applied: string[] = []
    for (const migration of list) {
      if (done.has(migration.id)) continue
      for (const statement of migration.statements) await tx.query(statement)
      await tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, [migration.id])
      applied.push(migration.id)
    }
    return applied
  })
}
