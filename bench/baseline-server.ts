/**
 * Child process: the baselines. For each scenario a plain `Fastify()` (defaults: logger off) with one route, on the
 * scenario's method and path, that sends the app's recorded response body as it is, with the app's status and
 * content type. One Fastify instance and port per scenario, so several scenarios on one path (carts of different
 * sizes, told apart by their Cart-Token) each get a route of their own. A process of its own, apart from the app's.
 *
 * bare+pg (PostgreSQL runs, scenarios with a `snapshotCartKey`): a second plain `Fastify()` per such scenario whose
 * route, on every request, runs one named prepared statement through the app's own PostgreSQL client
 * (`createPostgresClient`: the same pool size, timeouts, `search_path` on the bench's schema), reads the cart row's stored
 * snapshot by primary key and sends the column's text with the app's status and content type. It pays the one
 * database round trip and nothing of the app's own code. The bare+pg servers share the one pool, as the app's routes
 * share the app's.
 */
import Fastify, { type FastifyInstance, type HTTPMethods, type RouteHandlerMethod } from 'fastify'
import { createPostgresClient } from '../storage/postgres/index.ts'
import type { SqlClient } from '../storage/sql/client.ts'
import { runChild, type BarePgDatabase, type Baseline, type BaselineReady, type BaselineStart } from './ipc.ts'

/** bare+pg's one statement: the stored snapshot of one cart, by primary key. */
const READ_SNAPSHOT = 'SELECT snapshot FROM svc_carts WHERE key = $1'

/** The app's own PostgreSQL client (`createPostgresClient`): the same pool, timeouts and `search_path`. */
function appLikeClient (database: BarePgDatabase): SqlClient {
  return createPostgresClient({
    connectionString: database.connectionString,
    searchPath: database.schema,
    max: database.poolSize,
    // An idle connection's error (a server restart) must not crash the process; the requests that fail say so.
    onError: (error) => console.error(`bench: bare+pg pool: ${error.message}`)
  })
}

/** Sends the recorded body, as it is. */
function constantHandler (baseline: Baseline): RouteHandlerMethod {
  return (_request, reply) => {
    reply.code(baseline.statusCode).type(baseline.contentType).send(baseline.body)
  }
}

/** Reads the cart's snapshot (one round trip) and sends it; a 500 if it is gone, which the bench counts. */
function storedSnapshotHandler (baseline: Baseline, cartKey: string, client: SqlClient): RouteHandlerMethod {
  return async (_request, reply) => {
    const { rows } = await client.query<{ snapshot: string | null }>(READ_SNAPSHOT, [cartKey], 'bench_bare_pg_snapshot')
    const snapshot = rows[0]?.snapshot ?? null
    if (snapshot === null) return reply.code(500).type('text/plain').send(`no stored snapshot for cart ${cartKey}`)
    return reply.code(baseline.statusCode).type(baseline.contentType).send(snapshot)
  }
}

async function listenBare (baseline: Baseline, handler: RouteHandlerMethod, servers: FastifyInstance[]): Promise<string> {
  const server = Fastify()
  servers.push(server)
  // Bare Fastify parses JSON and plain text only: a form body (the classic add to cart) is read and left as is.
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
  server.route({ method: baseline.method as HTTPMethods, url: baseline.path.split('?')[0]!, handler })
  return server.listen({ host: '127.0.0.1', port: 0 })
}

runChild<BaselineStart, BaselineReady>(async ({ baselines, postgres }) => {
  const servers: FastifyInstance[] = []
  const client = postgres !== null && baselines.some((baseline) => baseline.snapshotCartKey !== undefined) ? appLikeClient(postgres) : null
  const close = async (): Promise<void> => {
    await Promise.allSettled(servers.map((server) => server.close()))
    await client?.close()
  }
  try {
    const urls: Record<string, string> = {}
    const barePgUrls: Record<string, string> = {}
    for (const baseline of baselines) {
      urls[baseline.name] = await listenBare(baseline, constantHandler(baseline), servers)
      if (client !== null && baseline.snapshotCartKey !== undefined) {
        barePgUrls[baseline.name] = await listenBare(baseline, storedSnapshotHandler(baseline, baseline.snapshotCartKey, client), servers)
      }
    }
    return { ready: { urls, barePgUrls }, close }
  } catch (error) {
    await close()
    throw error
  }
})
