import pg from 'pg'
import type { QueryResult, SqlClient } from '../sql/client.ts'
import { transactionSession } from '../sql/client.ts'

export interface PostgresClientOptions {
  connectionString: string
  max?: number
  /** How long to wait for a connection (new or from the pool) before failing; default 2000 ms. */
  connectionTimeoutMillis?: number
  idleTimeoutMillis?: number
  /**
   * How long a query may wait for its answer before failing (default 10000 ms). Without it, a query on a pooled
   * connection whose network stopped delivering would wait for ever.
   */
  queryTimeoutMillis?: number
  /** Schema that unqualified table names resolve to. */
  searchPath?: string
  /** Errors of idle or checked-out connections (a server restart, a network drop). */
  onError?: (error: Error) => void
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

export function assertSchemaName (schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`)
}

/** The pool size when `max` is not given. */
export const DEFAULT_POOL_SIZE = 10

/** Runs a statement on a pool or a checked-out connection; a `name` makes it a prepared statement of that name. */
async function run<R> (target: pg.Pool | pg.PoolClient, text: string, params: readonly unknown[] | undefined, name: string | undefined): Promise<QueryResult<R>> {
  const values = params as unknown[] | undefined
  const result = await (name === undefined ? target.query(text, values) : target.query({ name, text, values }))
  return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 }
}

/** A `SqlClient` on a `pg.Pool`; each transaction runs on one checked-out connection. */
export function createPostgresClient (options: PostgresClientOptions): SqlClient {
  if (options.searchPath !== undefined) assertSchemaName(options.searchPath)
  const onError = options.onError ?? (() => {})
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 30_000,
    query_timeout: options.queryTimeoutMillis ?? 10_000,
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` })
  })
  pool.on('error', onError)

  return {
    query: (text, params, name) => run(pool, text, params, name),

    async transaction (fn) {
      const connection = await pool.connect()
      let broken: Error | undefined
      // A checked-out connection emits its errors itself; unheard, they would crash the process.
      const onConnectionError = (error: Error): void => {
        broken = error
        onError(error)
      }
      connection.on('error', onConnectionError)
      const query: SqlClient['query'] = (text, params, name) => run(connection, text, params, name)
      try {
        await connection.query('BEGIN')
        const result = await fn(transactionSession(query))
        await connection.query('COMMIT')
        return result
      } catch (error) {
        await connection.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))
        })
        throw error
      } finally {
        connection.off('error', onConnectionError)
        // Releasing with an error discards the connection instead of returning it to the pool.
        connection.release(broken)
      }
    },

    async close () {
      await pool.end()
    }
  }
}
