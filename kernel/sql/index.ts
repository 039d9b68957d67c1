/**
 * What PostgreSQL-compatible storage of either side runs on: the session a statement runs in and the migration runner
 * (one transaction per set, under the schema lock every set shares). The drivers (pg, PGlite) live in `storage/`.
 */
export type { QueryResult, SqlClient, SqlSession } from './session.ts'
export { applyMigrations, SCHEMA_LOCK_KEY, type Migration } from './migrator.ts'
