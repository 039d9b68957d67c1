/**
 * The messages between the orchestrator (`run.ts`) and its child processes, and the child side of the exchange. The
 * baseline child is told each scenario's recorded answer and where its floors read and write (PostgreSQL, Redis).
 */
import type { FloorTarget } from './floors.ts'

export interface AppStart {
  type: 'start'
  /** PGlite data directory (a temporary one, or `memory://`); ignored with `databaseUrl`. */
  dataDir: string
  databaseUrl: string | null
  /** The throw-away PostgreSQL schema (the orchestrator drops it). */
  schema: string
  redisUrl: string | null
  redisKeyPrefix: string
  /** The app's signing secret: the orchestrator signs Cart-Tokens for carts it seeds with SQL. */
  secret: string
  /** Bench-only: every rate limit times this, so a load test is not refused. */
  rateLimitMultiplier: number
  /** The app's PostgreSQL pool size (null: the storage's default, `DEFAULT_POOL_SIZE`). */
  poolSize: number | null
  /** Start a third app whose rate windows last this long (the visitors run); null: none. */
  shortWindowMs: number | null
}

export interface AppReady {
  /** The app as configured: rate counter on Redis or in memory, limits raised by `rateLimitMultiplier`. */
  url: string
  /** The same app on the same storage with a rate counter that counts nothing: the limiter off. */
  unlimitedUrl: string
  /** The app with short rate windows and a key prefix of its own (only when asked for). */
  shortWindowUrl: string | null
  storage: string
  rateCounter: string
}

/** A statement the app child runs on its database (seeding carts); answers `CallResult`. */
export interface SqlCall {
  type: 'sql'
  id: number
  statement: string
  params: unknown[]
}

/**
 * A full garbage collection in the app child (started with `--expose-gc`), asked for by the soak: answers `CallResult`
 * with one row, `{ heapUsedBytes }` right after it, what the process's heap keeps.
 */
export interface GcCall {
  type: 'gc'
  id: number
}

export type CallResult = { type: 'result', id: number, rows: unknown[] } | { type: 'error', id: number, message: string }

/** What a bare server answers for one scenario: the app's response to the scenario's request, byte for byte. */
export interface Baseline {
  name: string
  method: string
  path: string
  statusCode: number
  contentType: string
  body: string
  /**
   * The cart whose stored snapshot the app answered (`svc_carts.key`): with `BaselineStart.postgres`, a bare+pg
   * server for this scenario too, which reads that row's snapshot on every request. Omitted: no bare+pg server.
   */
  snapshotCartKey?: string
  /** A bare+redis server too (needs `BaselineStart.redis`): the body stored under a bench key, read per request. */
  redisFloor?: boolean
  /** A bare+tx server too (needs `BaselineStart.postgres`): one transaction on a cart of its own per request. */
  transactionFloor?: boolean
}

/** Where bare+pg reads and bare+tx writes: the app's database and schema, through pools of the app's size. */
export interface BarePgDatabase {
  connectionString: string
  /** The bench's throw-away schema, as the app's `search_path`. */
  schema: string
  /** The app's PostgreSQL pool size (`--pg-pool`, or the storage's default). */
  poolSize: number
  /** Carts bare+tx seeds in a table of its own in that schema (the write scenarios' pool size). */
  transactionCarts: number
}

/** Where bare+redis reads: the app's Redis, under keys of the run's own prefix (deleted when the child closes). */
export interface BareRedis {
  url: string
  keyPrefix: string
}

export interface BaselineStart {
  type: 'start'
  baselines: Baseline[]
  /** Null: no bare+pg or bare+tx servers (a PGlite run). */
  postgres: BarePgDatabase | null
  /** Null: no bare+redis servers (no REDIS_URL). */
  redis: BareRedis | null
}

export interface BaselineReady {
  /** Scenario name → origin of the bare server answering it. */
  urls: Record<string, string>
  /** Scenario name → origin of each of its floor servers (`bare+pg`, `bare+redis`, `bare+tx`) that runs. */
  floorUrls: Record<string, Partial<Record<FloorTarget, string>>>
}

export type ParentMessage<Start> = Start | { type: 'stop' } | SqlCall | GcCall
export type ChildMessage<Ready> = { type: 'ready', ready: Ready } | { type: 'failed', message: string } | CallResult

export interface Started<Ready> {
  ready: Ready
  close: () => Promise<void>
  /** Answers an orchestrator's SQL call (the app child only). */
  sql?: (statement: string, params: unknown[]) => Promise<unknown[]>
}

const CLOSE_TIMEOUT_MS = 5000

/**
 * The child side: waits for the start message, starts, reports ready, and closes on a stop message, SIGINT or
 * SIGTERM (Ctrl-C reaches the whole process group), or when the orchestrator goes away (the IPC channel closes).
 */
export function runChild<Start extends { type: 'start' }, Ready> (start: (message: Start) => Promise<Started<Ready>>): void {
  if (process.send === undefined) {
    console.error('bench: this file is a child process of bench/run.ts; run `npm run bench`')
    process.exit(2)
  }
  const send = (message: ChildMessage<Ready>): void => { if (process.connected) process.send!(message) }
  let started: Promise<Started<Ready> | null> | undefined
  let exiting = false

  const exit = (code: number): void => {
    if (exiting) return
    exiting = true
    setTimeout(() => process.exit(1), CLOSE_TIMEOUT_MS).unref()
    Promise.resolve(started)
      .then((running) => running?.close())
      .then(() => process.exit(code), (error: unknown) => {
        console.error('bench: closing the child failed:', error)
        process.exit(1)
      })
  }

  process.on('message', (message: ParentMessage<Start>) => {
    if (message.type === 'stop') return exit(0)
    if (message.type === 'gc') {
      const collect = (globalThis as { gc?: () => void }).gc
      if (collect === undefined) send({ type: 'error', id: message.id, message: 'this child was not started with --expose-gc' })
      else {
        collect()
        send({ type: 'result', id: message.id, rows: [{ heapUsedBytes: process.memoryUsage().heapUsed }] })
      }
      return
    }
    if (message.type === 'sql') {
      const { id } = message
      Promise.resolve(started)
        .then(async (running) => {
          if (running?.sql === undefined) throw new Error('this child runs no SQL')
          return running.sql(message.statement, message.params)
        })
        .then((rows) => send({ type: 'result', id, rows }), (error: unknown) => send({ type: 'error', id, message: String(error) }))
      return
    }
    if (started !== undefined) return
    started = start(message).then((running) => {
      send({ type: 'ready', ready: running.ready })
      return running
    }, (error: unknown) => {
      send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
      exit(1)
      return null
    })
  })
  process.once('disconnect', () => exit(0))
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => exit(0))
}
