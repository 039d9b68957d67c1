/**
 * `npm run bench`: the Store API against a bare Fastify route sending the same bytes, under the same load.
 *
 * This process only generates load (autocannon) and reports. The app runs in one child process (`server.ts`, the
 * real `buildApp` stack on PGlite or PostgreSQL), the bare baselines in another (`baseline-server.ts`), so neither
 * shares an event loop with the load generator. Only one target is under load at a time. `--help` lists the options.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startChild } from './children.ts'
import { Cleanup } from './cleanup.ts'
import { ConfigError, readConfig, USAGE, type BenchConfig } from './config.ts'
import { send, type BenchRequest, type ProbeResponse } from './http.ts'
import type { AppReady, AppStart, Baseline, BaselineReady, BaselineStart } from './ipc.ts'
import { runLoad, type LoadResult } from './load.ts'
import {
  formatReport, gitState, machine, ratios, summarizeTarget, TARGETS, writeResults,
  type BenchReport, type ScenarioResult, type TargetName
} from './report.ts'
import { appClient, scenarios, type Scenario } from './scenarios.ts'

const RESULTS_DIR = new URL('./results/', import.meta.url)
const ROOT = fileURLToPath(new URL('..', import.meta.url))

class Interrupted extends Error {}

interface Prepared {
  scenario: Scenario
  request: BenchRequest
  recorded: ProbeResponse
  stableBody: boolean
}

const log = (message: string): void => { console.error(`bench: ${message}`) }

function redactedHost (url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'unparsable URL'
  }
}

async function dropSchema (connectionString: string, schema: string): Promise<void> {
  const { createPostgresClient } = await import('../storage/postgres/client.ts')
  const admin = createPostgresClient({ connectionString })
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await admin.close()
  }
}

function selectScenarios (names: string[]): Scenario[] {
  if (names.length === 0) return scenarios
  const unknown = names.filter((name) => !scenarios.some((scenario) => scenario.name === name))
  if (unknown.length > 0) {
    throw new ConfigError(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((scenario) => scenario.name).join(', ')}`)
  }
  return scenarios.filter((scenario) => names.includes(scenario.name))
}

/** Problems that make a run's figures meaningless: error answers, failed requests, or answers other than the recorded one. */
function problems (label: string, run: Pick<LoadResult, 'non2xx' | 'errors' | 'timeouts' | 'mismatches' | 'statusCodes'>): string[] {
  const found: string[] = []
  if (run.non2xx > 0) found.push(`${label}: ${run.non2xx} non-2xx responses (status codes ${JSON.stringify(run.statusCodes)})`)
  if (run.errors > 0) found.push(`${label}: ${run.errors} errors (${run.timeouts} of them timeouts)`)
  if (run.mismatches > 0) found.push(`${label}: ${run.mismatches} responses whose body differs from the recorded one`)
  return found
}

async function bench (config: BenchConfig, selected: Scenario[], cleanup: Cleanup, signal: AbortSignal): Promise<BenchReport> {
  const startedAt = new Date()
  const checkpoint = (): void => { if (signal.aborted) throw new Interrupted('interrupted') }
  const host = machine()
  if (host.loadAverageAtStart[0]! >= host.cores / 2) {
    log(`the machine is busy (load average ${host.loadAverageAtStart[0]} on ${host.cores} cores): expect noisy figures`)
  }
  const perTarget = config.rounds * config.duration + config.warmup
  log(`${selected.length} scenario(s) × ${TARGETS.length} targets × (${config.warmup} s warm-up + ${config.rounds} × ${config.duration} s) ` +
    `≈ ${selected.length * TARGETS.length * perTarget} s of load, ${config.connections} connections`)

  // Storage: a temporary PGlite directory, or a throw-away PostgreSQL schema; removed by the cleanup in any case.
  let dataDir = 'memory://'
  const schema = `svc_bench_${randomBytes(6).toString('hex')}`
  if (config.databaseUrl === null) {
    const tempDir = await mkdtemp(join(os.tmpdir(), 'svc-bench-'))
    cleanup.add(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }))
    dataDir = join(tempDir, 'pglite')
  } else {
    const url = config.databaseUrl
    cleanup.add(`drop schema ${schema}`, () => dropSchema(url, schema))
  }
  const appStart: AppStart = {
    type: 'start',
    dataDir,
    databaseUrl: config.databaseUrl,
    schema,
    redisUrl: config.redisUrl,
    redisKeyPrefix: `bench:${randomBytes(6).toString('hex')}:rl:`
  }
  const app = await startChild<AppReady>('app server', './server.ts', appStart, cleanup, config.appNodeArgs)
  checkpoint()
  log(`app on ${app.ready.url} (pid ${app.pid}), ${app.ready.storage} storage, ${app.ready.rateCounter} rate counter`)

  // Each scenario's request, and the app's answer to it: the baseline's body.
  const client = appClient(app.ready.url)
  const prepared: Prepared[] = []
  for (const scenario of selected) {
    const extra = await scenario.prepare(client)
    const body = extra.body ?? scenario.body
    const request: BenchRequest = {
      method: scenario.method,
      path: scenario.path,
      headers: { ...scenario.headers, ...extra.headers },
      ...(body === undefined ? {} : { body })
    }
    const recorded = await client.send(request)
    if (recorded.status < 200 || recorded.status > 299) {
      throw new Error(`${scenario.name}: the app answered ${recorded.status}: ${recorded.body.slice(0, 500)}`)
    }
    scenario.check?.(recorded)
    const stableBody = scenario.stableBody ?? true
    if (stableBody) {
      const again = await client.send(request)
      if (again.body !== recorded.body) throw new Error(`${scenario.name}: two calls answered different bodies; mark it stableBody: false`)
    }
    prepared.push({ scenario, request, recorded, stableBody })
    checkpoint()
  }

  const baselines: Baseline[] = prepared.map(({ scenario, request, recorded }) => ({
    name: scenario.name,
    method: request.method,
    path: request.path,
    statusCode: recorded.status,
    contentType: recorded.headers.get('content-type') ?? 'application/json',
    body: recorded.body
  }))
  const bare = await startChild<BaselineReady>('bare server', './baseline-server.ts', { type: 'start', baselines } satisfies BaselineStart, cleanup)
  checkpoint()
  log(`bare Fastify baselines on ${Object.values(bare.ready.urls).join(', ')} (pid ${bare.pid})`)

  const urls = (name: string): Record<TargetName, string> => ({ app: app.ready.url, bare: bare.ready.urls[name]! })
  const bareBytes = new Map<string, number>()
  for (const { scenario, request, recorded } of prepared) {
    const fromBare = await send(urls(scenario.name).bare, request)
    if (fromBare.status !== recorded.status || fromBare.body !== recorded.body) {
      throw new Error(`${scenario.name}: the bare route's answer differs from the app's ` +
        `(status ${fromBare.status} vs ${recorded.status}, body ${fromBare.bytes} B vs ${recorded.bytes} B)`)
    }
    bareBytes.set(scenario.name, fromBare.bytes)
  }

  const load = (target: TargetName, item: Prepared, duration: number): Promise<LoadResult> => {
    checkpoint()
    if (!app.alive() || !bare.alive()) throw new Error(`the ${app.alive() ? 'bare' : 'app'} server process has exited`)
    return runLoad(urls(item.scenario.name)[target], item.request, {
      connections: config.connections,
      duration,
      ...(item.stableBody ? { expectBody: item.recorded.body } : {}),
      signal
    })
  }

  if (config.warmup > 0) {
    for (const item of prepared) {
      for (const target of TARGETS) {
        log(`warm-up ${item.scenario.name} ${target} (${config.warmup} s)`)
        const found = problems(`warm-up ${item.scenario.name} ${target}`, await load(target, item, config.warmup))
        if (found.length > 0) throw new Error(found.join('\n'))
      }
    }
  }

  const runs = new Map(prepared.map((item) => [item.scenario.name, { app: [] as LoadResult[], bare: [] as LoadResult[] }]))
  for (let round = 1; round <= config.rounds; round++) {
    for (const item of prepared) {
      for (const target of TARGETS) {
        const result = await load(target, item, config.duration)
        runs.get(item.scenario.name)![target].push(result)
        log(`round ${round}/${config.rounds} ${item.scenario.name} ${target}: ${Math.round(result.requestsPerSecond)} req/s, ` +
          `${result.responses} responses, ${result.non2xx} non-2xx, ${result.errors} errors`)
      }
    }
  }
  if (!app.alive() || !bare.alive()) throw new Error(`the ${app.alive() ? 'bare' : 'app'} server process has exited`)

  const results: ScenarioResult[] = prepared.map(({ scenario, request, recorded }) => {
    const targetRuns = runs.get(scenario.name)!
    const targets = {
      app: summarizeTarget(urls(scenario.name).app, targetRuns.app),
      bare: summarizeTarget(urls(scenario.name).bare, targetRuns.bare)
    }
    return {
      name: scenario.name,
      description: scenario.description,
      request,
      status: recorded.status,
      contentType: recorded.headers.get('content-type') ?? '',
      bodyBytes: { app: recorded.bytes, bare: bareBytes.get(scenario.name)! },
      targets,
      ratio: ratios(targets.app, targets.bare)
    }
  })
  const failures = results.flatMap((result) => TARGETS.flatMap((target) => problems(`${result.name} ${target}`, result.targets[target])))
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    ok: failures.length === 0,
    failures,
    git: gitState(ROOT),
    machine: { ...host, loadAverageAtEnd: os.loadavg().map((value) => Math.round(value * 100) / 100) },
    storage: config.databaseUrl === null
      ? { backend: app.ready.storage, rateCounter: app.ready.rateCounter, detail: 'PGlite in a temporary data directory, removed at the end' }
      : {
          backend: app.ready.storage,
          rateCounter: app.ready.rateCounter,
          detail: `PostgreSQL on ${redactedHost(config.databaseUrl)}, throw-away schema ${schema}, dropped at the end` +
            (config.redisUrl === null ? '' : `; Redis on ${redactedHost(config.redisUrl)}`)
        },
    load: {
      tool: 'autocannon',
      connections: config.connections,
      pipelining: 1,
      durationSeconds: config.duration,
      rounds: config.rounds,
      warmupSeconds: config.warmup,
      order: `alternating ${TARGETS.join(', ')} in every round`,
      processes: `autocannon in the orchestrator (pid ${process.pid}); the app in child pid ${app.pid}; ` +
        `the bare Fastify baseline(s) in child pid ${bare.pid}`
    },
    scenarios: results
  }
}

async function main (): Promise<number> {
  let config: BenchConfig | 'help'
  let selected: Scenario[] = []
  try {
    config = readConfig(process.argv.slice(2), process.env)
    if (config !== 'help') selected = selectScenarios(config.scenarios)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`bench: ${error.message}\n\n${USAGE}`)
    return 2
  }
  if (config === 'help') {
    console.log(USAGE)
    return 0
  }

  const cleanup = new Cleanup()
  const controller = new AbortController()
  let interrupted = false
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (interrupted) {
        console.error('bench: stopped again: exiting without waiting for the cleanup')
        process.exit(130)
      }
      interrupted = true
      log(`${signal}: stopping the load and the servers, cleaning up`)
      controller.abort(new Interrupted(signal))
      cleanup.run().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143)).catch(() => {})
    })
  }

  try {
    const report = await bench(config, selected, cleanup, controller.signal)
    console.log(`\n${formatReport(report)}\n`)
    const files = await writeResults(report, RESULTS_DIR)
    log(`results in ${files.map((file) => fileURLToPath(file)).join(' and ')}`)
    if (!report.ok) {
      console.error(`\nbench FAILED: the figures are not meaningful:\n  ${report.failures.join('\n  ')}`)
      return 1
    }
    return 0
  } catch (error) {
    if (interrupted) return new Promise<number>(() => {}) // the signal handler exits once the cleanup is done
    console.error(`bench FAILED: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    if (!interrupted) await cleanup.run()
  }
}

process.exit(await main())
