/**
 * The bench's options (flags, or BENCH_* variables) and its `--help` text. DATABASE_URL runs it on PostgreSQL, which
 * adds the bare+pg and bare+tx floors where they apply, their pools as large as the app's (`--pg-pool`); REDIS_URL
 * adds the bare+redis floor.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_POOL_SIZE } from '../storage/postgres/index.ts'

export interface BenchConfig {
  /** Seconds of measured load per target and round. */
  duration: number
  rounds: number
  connections: number
  /** Seconds of unrecorded load per target before the first round (0: none). */
  warmup: number
  /** Only these scenarios (all when empty). */
  scenarios: string[]
  databaseUrl: string | null
  redisUrl: string | null
  /** Extra Node.js options for the app's process, such as `--cpu-prof` to see where its time goes. */
  appNodeArgs: string[]
  /** Carts each write scenario seeds (one per request sent to the app); null: sized from the run's length. */
  writePool: number | null
  /** The app's PostgreSQL pool size (null: the storage's default). */
  poolSize: number | null
  /** Skip the scenarios: only the scale runs asked for. */
  scaleOnly: boolean
  /** Scale run (a): the svc cart figure with this many carts stored, one run per size, e.g. [1000, 1000000]. */
  carts: number[]
  /** Scale run (b): distinct visitors through the rate limiter (0: not run). */
  visitors: number
  /** The visitors run's rate window in seconds. */
  visitorWindow: number
  /** Scale run (c): seconds of mixed load with the app's RSS sampled every second (0: not run). */
  soak: number
}

export const USAGE = `Usage: npm run bench -- [options]

  --duration <s>     measured seconds per target and round  (BENCH_DURATION, default 5)
  --rounds <n>       rounds; each runs every target once     (BENCH_ROUNDS, default 3)
  --connections <n>  autocannon connections, pipelining 1   (BENCH_CONNECTIONS, default 50)
  --warmup <s>       unrecorded seconds per target first     (BENCH_WARMUP, default 2)
  --scenario <name>  run only this scenario (repeatable)     (BENCH_SCENARIOS, comma-separated)
  --pg-pool <n>      the app's PostgreSQL pool size, and the floors' (BENCH_PG_POOL, default the storage's ${DEFAULT_POOL_SIZE})
  --write-pool <n>   carts seeded per write scenario and for bare+tx (BENCH_WRITE_POOL, default 3000 per second of load)

Scale runs (each only when asked for; results in bench/results/scale.{json,md}):
  --carts <list>     GET svc/v1/cart with this many carts stored, e.g. 1000,1000000 (BENCH_CARTS)
  --visitors <n>     distinct visitors through the rate limiter, Redis memory before/after (BENCH_VISITORS)
  --visitor-window <s>  the visitors run's rate window              (BENCH_VISITOR_WINDOW, default 30)
  --soak <s>         mixed load with the app's RSS sampled each second, e.g. 300 (BENCH_SOAK)
  --scale-only       run no scenario, only the scale runs asked for

Targets: each scenario runs against the app and "bare", a plain Fastify route sending the app's recorded answer
(no storage call), and against the floors that apply, plain Fastify routes that pay one storage step per request
before sending the same bytes:
  bare+pg     (PostgreSQL) reads GET svc/v1/cart's stored snapshot by primary key, one named prepared statement,
              a pg pool of the app's size (svc-cart-3-lines and the --carts runs)
  bare+redis  (REDIS_URL) GETs the recorded body from Redis by one key (svc-cart-3-lines, store-cart-3-lines,
              store-cart-20-lines, drawer-data)
  bare+tx     (PostgreSQL) one transaction per request on a cart of its own: BEGIN; SELECT ... FOR UPDATE; UPDATE
              its ~3 KB JSON document; COMMIT; a pg pool of the app's size (remove-items, remove-items-limiter-off,
              wc-ajax-add-to-cart)
The table prints app/bare and app/<floor>; a scenario's floor is bare+tx for a write, else bare+redis, else bare+pg.
Targets alternate in every round.

DATABASE_URL / REDIS_URL: run on PostgreSQL (a throw-away schema) and Redis instead of PGlite and memory counters.
BENCH_APP_NODE_ARGS: extra Node.js options for the app's process only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".`

export class ConfigError extends Error {}

function integer (name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`)
  return value
}

function url (text: string | undefined): string | null {
  return text === undefined || text.trim() === '' ? null : text.trim()
}

/** Flags win over the environment; the defaults make a run of about five minutes. */
export function readConfig (argv: string[], env: NodeJS.ProcessEnv): BenchConfig | 'help' {
  let values
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        duration: { type: 'string' },
        rounds: { type: 'string' },
        connections: { type: 'string' },
        warmup: { type: 'string' },
        scenario: { type: 'string', multiple: true },
        'write-pool': { type: 'string' },
        carts: { type: 'string' },
        visitors: { type: 'string' },
        'visitor-window': { type: 'string' },
        soak: { type: 'string' },
        'scale-only': { type: 'boolean' },
        'pg-pool': { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      },
      strict: true,
      allowPositionals: false
    }))
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
  if (values.help === true) return 'help'
  const cartsText = values.carts ?? env.BENCH_CARTS ?? ''
  const carts = cartsText.split(',').map((item) => item.trim()).filter(Boolean).map((item) => integer('carts', item, 0, 1))
  const pool = values['write-pool'] ?? env.BENCH_WRITE_POOL
  const scenarios = values.scenario ?? (env.BENCH_SCENARIOS ?? '').split(',').map((name) => name.trim()).filter(Boolean)
  return {
    duration: integer('duration', values.duration ?? env.BENCH_DURATION, 5, 1),
    rounds: integer('rounds', values.rounds ?? env.BENCH_ROUNDS, 3, 1),
    connections: integer('connections', values.connections ?? env.BENCH_CONNECTIONS, 50, 1),
    warmup: integer('warmup', values.warmup ?? env.BENCH_WARMUP, 2, 0),
    writePool: pool === undefined || pool === '' ? null : integer('write-pool', pool, 0, 1),
    scaleOnly: values['scale-only'] ?? false,
    poolSize: (values['pg-pool'] ?? env.BENCH_PG_POOL ?? '') === '' ? null : integer('pg-pool', values['pg-pool'] ?? env.BENCH_PG_POOL, DEFAULT_POOL_SIZE, 1),
    carts,
    visitors: integer('visitors', values.visitors ?? env.BENCH_VISITORS, 0, 0),
    visitorWindow: integer('visitor-window', values['visitor-window'] ?? env.BENCH_VISITOR_WINDOW, 30, 1),
    soak: integer('soak', values.soak ?? env.BENCH_SOAK, 0, 0),
    scenarios,
    databaseUrl: url(env.DATABASE_URL),
    redisUrl: url(env.REDIS_URL),
    appNodeArgs: (env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
  }
}
