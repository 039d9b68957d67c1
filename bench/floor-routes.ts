/**
 * The floors' route handlers (baseline process): each pays one storage step a design cannot avoid, through the clients
 * the app uses, then sends the recorded body with bare's status and content type; a failed step is a 500, which the
 * bench counts. The routes of one floor share its pool or connection, as the app's routes share the app's.
 */
import { createHash } from 'node:crypto'
import type { RouteHandlerMethod } from 'fastify'
import { Redis } from 'ioredis'
import { createPostgresClient } from '../storage/postgres/index.ts'

/** What a baseline answers: the app's response to the scenario's request, byte for byte. */
export interface Recorded { statusCode: number, contentType: string, body: string }

/** Where bare+pg reads and bare+tx writes: the app's database and schema, pools of the app's size. */
export interface FloorDatabase { connectionString: string, schema: string, poolSize: number, transactionCarts: number }

export interface Floor<Arg> { handler: (recorded: Recorded, arg: Arg) => Promise<RouteHandlerMethod>, close: () => Promise<void> }

/** A client on the run's schema: a pool of the app's size, unless `more` says otherwise (a seeder's one connection). */
function postgres ({ connectionString, schema, poolSize }: FloorDatabase, floor: string, more: { max?: number, queryTimeoutMillis?: number } = {}) {
  return createPostgresClient({ connectionString, searchPath: schema, max: poolSize, onError: (error) => console.error(`bench: ${floor}: ${error.message}`), ...more })
}

/** bare+pg: one named prepared statement reading the cart's stored snapshot by primary key. */
export function snapshotFloor (database: FloorDatabase): Floor<string> {
  const client = postgres(database, 'bare+pg')
  return {
    handler: async (recorded, cartKey) => async (_request, reply) => {
      const { rows } = await client.query<{ snapshot: string | null }>('SELECT snapshot FROM svc_carts WHERE key = $1', [cartKey], 'bench_bare_pg_snapshot')
      const snapshot = rows[0]?.snapshot ?? null
      if (snapshot === null) return reply.code(500).type('text/plain').send(`no stored snapshot for cart ${cartKey}`)
      return reply.code(recorded.statusCode).type(recorded.contentType).send(snapshot)
    },
    close: () => client.close()
  }
}

/** bare+redis: one GET of the recorded body, stored under a key of the run's own at start (deleted at the end). */
export function redisFloor (url: string, keyPrefix: string): Floor<string> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  client.on('error', (error: Error) => console.error(`bench: bare+redis: ${error.message}`))
  const keys: string[] = []
  return {
    async handler (recorded, name) {
      const key = `${keyPrefix}${name}`
      await client.set(key, recorded.body, 'EX', 24 * 60 * 60) // should the process be killed before it deletes it
      keys.push(key)
      return async (_request, reply) => {
        const body = await client.getBuffer(key)
        if (body === null) return reply.code(500).type('text/plain').send(`no body stored under ${key}`)
        return reply.code(recorded.statusCode).type(recorded.contentType).send(body)
      }
    },
    async close () {
      if (keys.length > 0) await client.del(...keys).catch(() => {})
      await client.quit().catch(() => client.disconnect())
    }
  }
}

/** A cart document of about 3 KB, its version inside, sent whole as the app's writes send theirs. */
const DOCUMENT_REST = JSON.stringify({
  currency: 'USD',
  coupons: [],
  lines: Array.from({ length: 3 }, (_, index) => ({
    key: createHash('md5').update(`line ${index}`).digest('hex'),
    productId: 101 + index,
    variationId: 0,
    quantity: 1 + index,
    variation: { pa_color: 'blue', pa_size: 'large' },
    data: { note: 'a line of a bench cart, as long as a real one '.repeat(17) }
  })),
  customer: { shipping: { country: 'US', state: 'CA', postcode: '94103', city: 'San Francisco' } }
}).slice(1)
const cartDocument = (version: number): string => `{"version":${version},${DOCUMENT_REST}`

/**
 * bare+tx: one transaction (BEGIN; SELECT … FOR UPDATE; UPDATE the ~3 KB document; COMMIT) on the next cart of
 * `bench_tx_carts`, a table of its own in the run's schema holding as many carts as a write scenario's pool, so that
 * no two requests in flight wait on one row's lock.
 */
export async function transactionFloor (database: FloorDatabase): Promise<Floor<void>> {
  const seeder = postgres(database, 'bare+tx seeder', { max: 1, queryTimeoutMillis: 10 * 60_000 })
  try {
    await seeder.query('CREATE TABLE bench_tx_carts (key text PRIMARY KEY, version integer NOT NULL, data jsonb NOT NULL)')
    await seeder.query(`INSERT INTO bench_tx_carts (key, version, data) SELECT 't_' || substr(md5('bench-tx:' || i::text), 1, 30), 1, $1::jsonb
      FROM generate_series(1, $2::int) AS i`, [cartDocument(1), database.transactionCarts])
    await seeder.query('ANALYZE bench_tx_carts')
  } finally {
    await seeder.close()
  }
  const client = postgres(database, 'bare+tx')
  // The keys as the table has them, the same expression in JavaScript.
  const keys = Array.from({ length: database.transactionCarts }, (_, index) =>
    `t_${createHash('md5').update(`bench-tx:${index + 1}`).digest('hex').slice(0, 30)}`)
  let next = 0
  return {
    handler: async (recorded) => async (_request, reply) => {
      const key = keys[next++ % keys.length]!
      await client.transaction(async (tx) => {
        const { rows } = await tx.query<{ version: number }>('SELECT version, data FROM bench_tx_carts WHERE key = $1 FOR UPDATE', [key], 'bench_bare_tx_select')
        const version = rows[0]?.version
        if (version === undefined) throw new Error(`no cart ${key} in bench_tx_carts`)
        await tx.query('UPDATE bench_tx_carts SET data = $2::jsonb, version = $3 WHERE key = $1', [key, cartDocument(version + 1), version + 1], 'bench_bare_tx_update')
      })
      return reply.code(recorded.statusCode).type(recorded.contentType).send(recorded.body)
    },
    close: () => client.close()
  }
}
