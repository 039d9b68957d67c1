/**
 * bare+tx, the write floor (baseline child): a route that, on every request, runs one transaction on PostgreSQL
 * through a pool of the app's size (`createPostgresClient`, the app's own client): BEGIN; SELECT the cart FOR UPDATE;
 * UPDATE that cart's ~3 KB JSON document; COMMIT; then sends the recorded body. Each request takes the next cart of a
 * table of the bench's own in the run's schema (`bench_tx_carts`, seeded with one INSERT … SELECT generate_series, as
 * many carts as a write scenario's pool), so no two requests in flight wait on one row's lock. The bare+tx routes of
 * all the write scenarios share the pool and the table, and go round it again once every cart has been written.
 */
import { createHash } from 'node:crypto'
import type { RouteHandlerMethod } from 'fastify'
import { createPostgresClient } from '../storage/postgres/index.ts'
import type { SqlClient } from '../storage/index.ts'
import type { BarePgDatabase, Baseline } from './ipc.ts'

const TABLE = 'bench_tx_carts'
const SEED_TIMEOUT_MS = 10 * 60_000
const SELECT_FOR_UPDATE = `SELECT version, data FROM ${TABLE} WHERE key = $1 FOR UPDATE`
const UPDATE = `UPDATE ${TABLE} SET data = $2::jsonb, version = $3 WHERE key = $1`

/** The document after its version field (see `cartDocument`). */
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

/**
 * A cart document of about 3 KB (3,030 bytes as text), with its version inside, sent whole as the app's writes send
 * theirs. The size the performance goals name for the floor; a write of the bench's carts stores about as much: the 1-line cart
 * 0.1 KB of data and a 1.5 KB drawer snapshot, the 3-line cart 0.4 KB and 3.8 KB.
 */
function cartDocument (version: number): string {
  return `{"version":${version},${DOCUMENT_REST}`
}

/** The key of cart number `index` (from 1), the same expression as the seeding statement's. */
function cartKey (index: number): string {
  return `t_${createHash('md5').update(`bench-tx:${index}`).digest('hex').slice(0, 30)}`
}

export interface TransactionFloor {
  handler: (baseline: Baseline) => RouteHandlerMethod
  close: () => Promise<void>
}

/** Creates and fills the table (a connection of its own with a long timeout), then opens the floor's pool. */
export async function openTransactionFloor (database: BarePgDatabase): Promise<TransactionFloor> {
  const carts = database.transactionCarts
  const seeder = createPostgresClient({ connectionString: database.connectionString, searchPath: database.schema, max: 1, queryTimeoutMillis: SEED_TIMEOUT_MS })
  try {
    await seeder.query(`CREATE TABLE ${TABLE} (key text PRIMARY KEY, version integer NOT NULL, data jsonb NOT NULL)`)
    await seeder.query(`INSERT INTO ${TABLE} (key, version, data)
      SELECT 't_' || substr(md5('bench-tx:' || i::text), 1, 30), 1, $1::jsonb FROM generate_series(1, $2::int) AS i`,
    [cartDocument(1), carts])
    await seeder.query(`ANALYZE ${TABLE}`)
  } finally {
    await seeder.close()
  }
  const client: SqlClient = createPostgresClient({
    connectionString: database.connectionString,
    searchPath: database.schema,
    max: database.poolSize,
    onError: (error) => console.error(`bench: bare+tx pool: ${error.message}`)
  })
  const keys = Array.from({ length: carts }, (_, index) => cartKey(index + 1))
  let next = 0
  return {
    // A missing cart or a failed statement is a 500, which the bench counts.
    handler: (baseline) => async (_request, reply) => {
      const key = keys[next++ % keys.length]!
      await client.transaction(async (tx) => {
        const { rows } = await tx.query<{ version: number }>(SELECT_FOR_UPDATE, [key], 'bench_bare_tx_select')
        const version = rows[0]?.version
        if (version === undefined) throw new Error(`no cart ${key} in ${TABLE}`)
        await tx.query(UPDATE, [key, cartDocument(version + 1), version + 1], 'bench_bare_tx_update')
      })
      return reply.code(baseline.statusCode).type(baseline.contentType).send(baseline.body)
    },
    close: () => client.close()
  }
}
