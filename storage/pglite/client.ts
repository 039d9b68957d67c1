import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { PGlite, type Results } from '@electric-sql/pglite'
import type { QueryResult, SqlClient } from '../sql/client.ts'
import { transactionSession } from '../sql/client.ts'
import { Mutex } from './mutex.ts'

function toResult<R> (result: Results<R>): QueryResult<R> {
  return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length }
}

export interface PgliteClientOptions {
  /**
   * PostgreSQL settings for this start only (`-c name=value` on the embedded server's command line, after PGlite's
   * own), e.g. `{ shared_buffers: '16MB' }`. Nothing is written to the data directory.
   */
  settings?: Readonly<Record<string, string>>
}

const SETTING_NAME = /^[a-z][a-z0-9_.]*$/

/** PGlite's start parameters with `settings` added, or undefined (PGlite's own) when there are none. */
export function pgliteStartParams (settings: Readonly<Record<string, string>> = {}): string[] | undefined {
  const entries = Object.entries(settings)
  if (entries.length === 0) return undefined
  const params = [...PGlite.defaultStartParams]
  for (const [name, value] of entries) {
    // A name is a PostgreSQL setting's, never a flag of the server's command line.
    if (!SETTING_NAME.test(name)) throw new TypeError(`not a PostgreSQL setting name: ${JSON.stringify(name)}`)
    params.push('-c', `${name}=${value}`)
  }
  return params
}

/**
 * A `SqlClient` on PGlite's single connection. Every statement and every whole transaction holds the mutex, so no
 * other caller's statement can land inside a transaction.
 */
export async function createPgliteClient (dataDir: string, options: PgliteClientOptions = {}): Promise<SqlClient> {
  const startParams = pgliteStartParams(options.settings)
  // PGlite creates its own directory but not missing parents; `memory://` and other schemes are not paths.
  if (!dataDir.includes('://')) await mkdir(dirname(dataDir), { recursive: true })
  const db = await PGlite.create(dataDir, startParams === undefined ? {} : { startParams })
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
