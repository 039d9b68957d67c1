import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { PGlite, type Results } from '@electric-sql/pglite'
import type { QueryResult, SqlClient } from '../sql/client.ts'
import { transactionSession } from '../sql/client.ts'
import { Mutex } from './mutex.ts'

function toResult<R> (result: Results<R>): QueryResult<R> {
  return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length }
}

/**
 * A `SqlClient` on PGlite's single connection. Every statement and every whole transaction holds the mutex, so no
 * other caller's statement can land inside a transaction.
 */
export async function createPgliteClient (dataDir: string): Promise<SqlClient> {
  // PGlite creates its own directory but not missing parents; `memory://` and other schemes are not paths.
  if (!dataDir.includes('://')) await mkdir(dirname(dataDir), { recursive: true })
  const db = await PGlite.create(dataDir)
  const mutex = new Mutex()
  return {
    async query<R> (text: string, params?: readonly unknown[]) {
      return toResult(await mutex.run(() => db.query<R>(text, params as unknown[] | undefined)))
    },

    async transaction (fn) {
      return mutex.run(() => db.transaction((tx) =>
        fn(transactionSession(async <R>(text: string, params?: readonly unknown[]) =>
          toResult(await tx.query<R>(text, params as unknown[] | undefined))))))
    },

    async close () {
      await mutex.run(() => db.close())
    }
  }
}
