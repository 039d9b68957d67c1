/**
 * `npm run bench`: the app's real routes against bare Fastify sending the same bytes, and against the storage floors,
 * under the same load (`--help` lists the options; docs/benchmarks.md says what each figure means). This process
 * generates the load (autocannon) and reports; the app runs in one child process (`app-server.ts`), the baselines in
 * another (`baseline-server.ts`), so no target shares an event loop with the load generator or another kind of target.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCartTokenSigner } from '../hosts/reference-shop/index.ts'
import { createPostgresClient, DEFAULT_POOL_SIZE } from '../storage/postgres/index.ts'
import type { AppOptions, AppUrls } from './app-server.ts'
import type { BaselineOptions } from './baseline-server.ts'
import { measureBundlePricing } from './bundle-pricing.ts'
import { spawnChild } from './child.ts'
import { ConfigError, readConfig, USAGE, type BenchConfig } from './config.ts'
import { goals } from './goals.ts'
import { measure, type MeasureContext } from './measure.ts'
import { baselineOf, checkBaselines, prepare, type Prepared } from './prepare.ts'
import { gitState, loadAverage, machine, markdownReport, writeResults } from './report.ts'
import type { BenchReport, TargetName } from './report-types.ts'
import { scenarios, type Scenario, type Sql } from './scenarios.ts'
import { problems } from './stats.ts'

/** Bench-only: rate limits times this, so the load is not refused (the limiter still counts every request). */
const RATE_LIMIT_MULTIPLIER = 1_000_000
/** Carts seeded per second of load for each write scenario (a write takes a fresh cart). */
const WRITES_PER_SECOND = 3000

const log = (message: string): void => { console.error(`bench: ${message}`) }

async function bench (config: BenchConfig, selected: Scenario[], signal: AbortSignal, cleanup: Array<() => Promise<void>>): Promise<BenchReport> {
  const startedAt = new Date().toISOString()
  const host = machine()
  if (host.loadAverageAtStart[0]! >= host.cores / 2) log(`the machine is busy (load average ${host.loadAverageAtStart[0]} on ${host.cores} cores): expect noisy figures`)
  // In this process, before any child starts or any load runs.
  const pricing = [measureBundlePricing()]
  log(`${pricing[0]!.description}: ${pricing[0]!.maxMs} ms at most, ${pricing[0]!.medianMs} ms median of ${pricing[0]!.runs} runs`)

  // Storage: a temporary PGlite directory, or a throw-away PostgreSQL schema; removed at the end in any case.
  const schema = `svc_bench_${randomBytes(6).toString('hex')}`
  const { databaseUrl, redisUrl } = config
  let dataDir = ''
  if (databaseUrl === null) {
    const tempDir = await mkdtemp(join(os.tmpdir(), 'svc-bench-'))
    cleanup.push(() => rm(tempDir, { recursive: true, force: true }))
    dataDir = join(tempDir, 'pglite')
  } else {
    cleanup.push(async () => {
      const admin = createPostgresClient({ connectionString: databaseUrl, queryTimeoutMillis: 10 * 60_000 })
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.close())
    })
  }
  const secret = randomBytes(32).toString('base64url')
  const redisKeyPrefix = `bench:${randomBytes(6).toString('hex')}:`
  const app = spawnChild('./app-server.ts', config.appNodeArgs)
  cleanup.push(app.stop)
  const urls = await app.call<AppUrls>('start', {
    dataDir, databaseUrl, schema, redisUrl, redisKeyPrefix, secret, rateLimitMultiplier: RATE_LIMIT_MULTIPLIER, poolSize: config.poolSize
  } satisfies AppOptions)
  signal.throwIfAborted()
  log(`app on ${urls.app}, limiter off on ${urls.unlimited} (pid ${app.pid}), ${urls.storage} storage, ${urls.rateCounter} rate counter`)

  const signer = createCartTokenSigner({ secrets: [secret] })
  const sql: Sql = <Row>(statement: string, params: unknown[] = []) => app.call<Row[]>('sql', statement, params)
  const writePool = config.writePool ?? WRITES_PER_SECOND * (config.warmup + config.rounds * config.duration)
  const floorStorage = { postgres: databaseUrl !== null, redis: redisUrl !== null }
  const context = { sql, signCartToken: (key: string) => signer.sign(key), writePool }
  const prepared: Prepared[] = []
  for (const scenario of selected) {
    prepared.push(await prepare(scenario, urls[scenario.target ?? 'app'], context, floorStorage))
    signal.throwIfAborted()
  }

  // The baselines, from the recorded answers; the floors' PostgreSQL pools as large as the app's.
  const poolSize = config.poolSize ?? DEFAULT_POOL_SIZE
  const bare = spawnChild('./baseline-server.ts')
  cleanup.push(bare.stop)
  const bareUrls = await bare.call<Record<string, Partial<Record<TargetName, string>>>>('start', {
    baselines: prepared.map(baselineOf),
    database: databaseUrl === null ? null : { connectionString: databaseUrl, schema, poolSize, transactionCarts: writePool },
    redis: redisUrl === null ? null : { url: redisUrl, keyPrefix: `${redisKeyPrefix}floor:` }
  } satisfies BaselineOptions)
  log(`bare Fastify baselines and floors in pid ${bare.pid}${databaseUrl === null ? '' : `, pg pools of ${poolSize}`}`)
  for (const item of prepared) {
    Object.assign(item.urls, bareUrls[item.scenario.name])
    await checkBaselines(item)
  }

  const alive = (): void => {
    if (!app.alive() || !bare.alive()) throw new Error(`the ${app.alive() ? 'baseline' : 'app'} server process has exited`)
  }
  const measuring: MeasureContext = { config, signal, log, alive }
  // A scenario with something to do just before its measurement is measured on its own, after the others.
  const results = await measure(measuring, prepared.filter((item) => item.extra.beforeMeasure === undefined))
  for (const item of prepared.filter((found) => found.extra.beforeMeasure !== undefined)) {
    log(`${item.scenario.name}: getting its carts ready through the app`)
    await item.extra.beforeMeasure!()
    results.push(...await measure(measuring, [item]))
  }

  const failures = results.flatMap((result) => Object.entries(result.targets).flatMap(([target, summary]) => problems(`${result.name} ${target}`, summary)))
  if (failures.some((failure) => failure.includes('remove-items') && failure.includes('409'))) {
    failures.push(`a write scenario ran out of its ${writePool} carts: raise --write-pool`)
  }
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    ok: failures.length === 0,
    failures,
    git: gitState(fileURLToPath(new URL('..', import.meta.url))),
    machine: { ...host, loadAverageAtEnd: loadAverage() },
    storage: { backend: urls.storage, rateCounter: urls.rateCounter, detail: databaseUrl === null ? 'PGlite in a temporary directory' : `throw-away schema ${schema}` },
    load: { connections: config.connections, durationSeconds: config.duration, rounds: config.rounds, warmupSeconds: config.warmup, writePool, rateLimitMultiplier: RATE_LIMIT_MULTIPLIER },
    scenarios: results,
    pricing,
    goals: goals(results, pricing)
  }
}

async function main (): Promise<number> {
  let config: BenchConfig | 'help'
  try {
    config = readConfig(process.argv.slice(2), process.env, scenarios.map((scenario) => scenario.name))
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`bench: ${error.message}\n\n${USAGE}`)
    return 2
  }
  if (config === 'help') {
    console.log(USAGE)
    return 0
  }
  // Ctrl-C stops the load (the children get it too and close). npm passes the terminal's signal on too: a second one
  // within 2 s is that copy; a later one exits without waiting for the cleanup.
  const controller = new AbortController()
  let stoppedAt = 0
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.on(name, () => {
      if (stoppedAt > 0 && Date.now() - stoppedAt > 2000) process.exit(130)
      if (stoppedAt > 0) return
      stoppedAt = Date.now()
      log(`${name}: stopping the load and the servers, cleaning up`)
      controller.abort(new Error(`stopped by ${name}`))
    })
  }
  const cleanup: Array<() => Promise<void>> = []
  try {
    const selected = scenarios.filter((scenario) => config.scenarios.length === 0 || config.scenarios.includes(scenario.name))
    const report = await bench(config, selected, controller.signal, cleanup)
    console.log(`\n${markdownReport(report)}`)
    const files = await writeResults(report, new URL('./results/', import.meta.url))
    log(`results in ${files.map((file) => fileURLToPath(file)).join(' and ')}`)
    if (!report.ok) console.error(`\nbench FAILED: the figures are not meaningful:\n  ${report.failures.join('\n  ')}`)
    return report.ok ? 0 : 1
  } catch (error) {
    console.error(`bench FAILED: ${error instanceof Error ? error.message : String(error)}`)
    return controller.signal.aborted ? 130 : 1
  } finally {
    // Newest first: the servers stop before their storage goes.
    for (const step of cleanup.reverse()) await step().catch((error: unknown) => console.error('bench: cleanup failed:', error))
  }
}

process.exit(await main())
