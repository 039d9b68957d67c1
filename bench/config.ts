import { parseArgs } from 'node:util'

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
}

export const USAGE = `Usage: npm run bench -- [options]

  --duration <s>     measured seconds per target and round  (BENCH_DURATION, default 10)
  --rounds <n>       rounds; each runs every target once     (BENCH_ROUNDS, default 3)
  --connections <n>  autocannon connections, pipelining 1   (BENCH_CONNECTIONS, default 10)
  --warmup <s>       unrecorded seconds per target first     (BENCH_WARMUP, default 3)
  --scenario <name>  run only this scenario (repeatable)     (BENCH_SCENARIOS, comma-separated)

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

/** Flags win over the environment; the defaults keep a whole run under two minutes. */
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
        help: { type: 'boolean', short: 'h' }
      },
      strict: true,
      allowPositionals: false
    }))
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
  if (values.help === true) return 'help'
  const scenarios = values.scenario ?? (env.BENCH_SCENARIOS ?? '').split(',').map((name) => name.trim()).filter(Boolean)
  return {
    duration: integer('duration', values.duration ?? env.BENCH_DURATION, 10, 1),
    rounds: integer('rounds', values.rounds ?? env.BENCH_ROUNDS, 3, 1),
    connections: integer('connections', values.connections ?? env.BENCH_CONNECTIONS, 10, 1),
    warmup: integer('warmup', values.warmup ?? env.BENCH_WARMUP, 3, 0),
    scenarios,
    databaseUrl: url(env.DATABASE_URL),
    redisUrl: url(env.REDIS_URL),
    appNodeArgs: (env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
  }
}
