/** The bench's options (flags, or BENCH_* variables) and its `--help` text. */
import { parseArgs } from 'node:util'
import { DEFAULT_POOL_SIZE } from '../storage/postgres/index.ts'

export interface BenchConfig {
  /** Measured seconds per target and round; rounds; autocannon connections; unrecorded seconds per target first. */
  duration: number
  rounds: number
  connections: number
  warmup: number
  /** Only these scenarios (all when empty). */
  scenarios: string[]
  databaseUrl: string | null
  redisUrl: string | null
  /** Extra Node.js options for the app's process, such as `--cpu-prof`. */
  appNodeArgs: string[]
  /** Carts each write scenario seeds (one per request sent to the app); null: sized from the run's length. */
  writePool: number | null
  /** The app's PostgreSQL pool size, and the floors' (null: the storage's default). */
  poolSize: number | null
}

export const USAGE = `Usage: npm run bench -- [options]

  --duration <s>     measured seconds per target and round  (BENCH_DURATION, default 5)
  --rounds <n>       rounds; each runs every target once     (BENCH_ROUNDS, default 3)
  --connections <n>  autocannon connections, pipelining 1   (BENCH_CONNECTIONS, default 50)
  --warmup <s>       unrecorded seconds per target first     (BENCH_WARMUP, default 2)
  --scenario <name>  run only this scenario (repeatable)     (BENCH_SCENARIOS, comma-separated)
  --pg-pool <n>      the app's PostgreSQL pool size, and the floors' (BENCH_PG_POOL, default the storage's ${DEFAULT_POOL_SIZE})
  --write-pool <n>   carts seeded per write scenario and for bare+tx (BENCH_WRITE_POOL, default 3000 per second of load)

Targets, alternating in every round: the app; "bare", a plain Fastify route sending the app's recorded answer; and
the floors that apply, plain Fastify routes paying one storage step first: bare+pg (PostgreSQL: the stored snapshot
by primary key), bare+redis (REDIS_URL: the body by one key), bare+tx (PostgreSQL: one write transaction).

DATABASE_URL / REDIS_URL: run on PostgreSQL (a throw-away schema) and Redis instead of PGlite and memory counters.
BENCH_APP_NODE_ARGS: extra Node.js options for the app's process only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".`

export class ConfigError extends Error {}

/** Flags win over the environment (`--write-pool`: BENCH_WRITE_POOL); the defaults make a run of about eight minutes. */
export function readConfig (argv: string[], env: NodeJS.ProcessEnv, known: readonly string[]): BenchConfig | 'help' {
  const value = { type: 'string' } as const
  let values
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { duration: value, rounds: value, connections: value, warmup: value, 'write-pool': value, 'pg-pool': value, scenario: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false
    }))
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
  if (values.help === true) return 'help'
  const text = (name: Exclude<keyof typeof values, 'scenario' | 'help'>): string => values[name] ?? env[`BENCH_${name.toUpperCase().replace('-', '_')}`] ?? ''
  const integer = (name: Parameters<typeof text>[0], fallback: number, min: number): number => {
    if (text(name) === '') return fallback
    const parsed = Number(text(name))
    if (!Number.isInteger(parsed) || parsed < min) throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(text(name))}`)
    return parsed
  }
  const url = (found: string | undefined): string | null => found === undefined || found.trim() === '' ? null : found.trim()
  const scenarios = values.scenario ?? (env.BENCH_SCENARIOS ?? '').split(',').map((name) => name.trim()).filter(Boolean)
  const unknown = scenarios.filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new ConfigError(`unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`)
  return {
    duration: integer('duration', 5, 1),
    rounds: integer('rounds', 3, 1),
    connections: integer('connections', 50, 1),
    warmup: integer('warmup', 2, 0),
    scenarios,
    databaseUrl: url(env.DATABASE_URL),
    redisUrl: url(env.REDIS_URL),
    appNodeArgs: (env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    writePool: text('write-pool') === '' ? null : integer('write-pool', 0, 1),
    poolSize: text('pg-pool') === '' ? null : integer('pg-pool', 0, 1)
  }
}
