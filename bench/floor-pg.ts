/**
 * bare+pg, the one-read floor (baseline child): a route that, on every request, runs one named prepared statement
 * through the app's own PostgreSQL client (`createPostgresClient`: the same pool size, timeouts, `search_path` on the
 * bench's schema), reads the cart row's stored snapshot by primary key and sends the column's text with the app's
 * status and content type. It pays the one database round trip and nothing of the app's own code. Every bare+pg
 * route shares the one pool, as the app's routes share the app's.
 */
import type { RouteHandlerMethod } from 'fastify'
import { createPostgresClient } from '../storage/postgres/index.ts'
import type { SqlClient } from '../storage/index.ts'
import type { BarePgDatabase, Baseline } from './ipc.ts'

/** bare+pg's one statement: the stored snapshot of one cart, by primary key. */
const READ_SNAPSHOT = 'SELECT snapshot FROM svc_carts WHERE key = $1'

export interface SnapshotFloor {
  handler: (baseline: Baseline, cartKey: string) => RouteHandlerMethod
  close: () => Promise<void>
}

export function openSnapshotFloor (database: BarePgDatabase): SnapshotFloor {
  const client: SqlClient = createPostgresClient({
    connectionString: database.connectionString,
    searchPath: database.schema,
    max: database.poolSize,
    // An idle connection's error (a server restart) must not crash the process; the requests that fail say so.
    onError: (error) => console.error(`bench: bare+pg pool: ${error.message}`)
  })
  return {
    // A 500 if the snapshot is gone, which the bench counts.
    handler: (baseline, cartKey) => async (_request, reply) => {
      const { rows } = await client.query<{ snapshot: string | null }>(READ_SNAPSHOT, [cartKey], 'bench_bare_pg_snapshot')
      const snapshot = rows[0]?.snapshot ?? null
      if (snapshot === null) return reply.code(500).type('text/plain').send(`no stored snapshot for cart ${cartKey}`)
      return reply.code(baseline.statusCode).type(baseline.contentType).send(snapshot)
    },
    close: () => client.close()
  }
}
