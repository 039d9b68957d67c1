/**
 * `npm run bench`: the Store API against a bare Fastify route sending the same bytes, under the same load.
 *
 * This process only generates load (autocannon) and reports. The app runs in one child process (`server.ts`, the
 * real `buildApp` stack on PGlite or PostgreSQL), the bare baselines in another (`baseline-server.ts`), so neither
 * shares an event loop with the load generator. Only one target is under load at a time. `--help` lists the options.
 *
 * Where the run's storage allows, scenarios also run against floors (`floors.ts`), bare Fastify routes that pay one
 * storage step before sending the same bytes: bare+pg (PostgreSQL: GET svc/v1/cart's stored snapshot by primary key),
 * bare+redis (Redis: the drawer's reads, the body by one key) and bare+tx (PostgreSQL: the writes, one transaction on
 * a cart of its own). Every baseline's answer is checked against the app's recorded one, byte for byte, before any
 * load; targets alternate in every round.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startChild } from './children.ts'
import { Cleanup } from './cleanup.ts'
import { ConfigError, readConfig, USAGE, type BenchConfig } from './config.ts'
import { DEFAULT_POOL_SIZE } from '../storage/postgres/index.ts'
import { send, type BenchRequest, type ProbeResponse } from './http.ts'
import type { AppReady, AppStart, Baseline, BaselineReady, BaselineStart } from './ipc.ts'
import { floorOf, FLOOR_TARGETS, targetsFor, type FloorStorage } from './floors.ts'
import { runLoad, type LoadResult } from './load.ts'
import {
  formatReport, gitState, latencySummary, machine, ratios, summarizeTarget, targetsOf, writeResults,
  type BenchReport, type FloorTarget, type PerTarget, type Ratio, type ScaleReport, type ScenarioResult, type TargetName, type TargetSummary, type VisitorsReport
} from './report.ts'
import { goals } from './goals.ts'
import { measureBundlePricing } from './bundle-pricing.ts'
import { cartsRunOrder, collectionTimes, fillCarts, settleDatabase, redisProbe, sampleRss, summarizeRss, waitForKeysGone, type HeapSample } from './scale.ts'
import { appClient, cartKeyOf, REMOVE_ITEMS, scenarios, SVC_CART, type AppTarget, type Scenario } from './scenarios.ts'
import { createCartTokenSigner } from '../hosts/reference-shop/index.ts'

const RESULTS_DIR = new URL('./results/', import.meta.url)
const ROOT = fileURLToPath(new URL('..', import.meta.url))

class Interrupted extends Error {}

interface Prepared {
  scenario: Scenario
  /** The scenario's name, or a variant's (the same request prepared again for a scale run). */
  name: string
  target: AppTarget | 'short'
  request: BenchRequest
  recorded: ProbeResponse
  stableBody: boolean
  /** The targets it runs against, in the order they run in a round (`targetsFor`). */
  targets: TargetName[]
  /** The headers of the request number `index` (a write scenario's pool); omitted: the same for all. */
  perRequestHeaders?: (index: number) => Record<string, string>
  /** The app's next request number: each of its requests takes the next cart of the pool (0 was the recording). */
  cursor: { next: number }
  /** `PreparedRequest.beforeMeasure`: measured on its own after the others, right after this. */
  beforeMeasure?: () => Promise<void>
}

/** Bench-only: rate limits times this, so the load is not refused (the limiter still counts every request). */
const RATE_LIMIT_MULTIPLIER = 1_000_000
/** Carts seeded per second of load for each write scenario (a write takes a fresh cart). */
const WRITES_PER_SECOND = 3000
/** The soak's mixed requests, sent in turn on every connection. */
const SOAK_MIX = [SVC_CART, 'store-cart-20-lines', 'drawer-data', 'wc-ajax-add-to-cart']

const log = (message: string): void => { console.error(`bench: ${message}`) }

/** Where a connection URL points, without its credentials: `host:port`, or the socket directory of a local server. */
function redactedHost (url: string): string {
  const socket = /[?&]host=(\/[^&]*)/.exec(url)?.[1]
  if (socket !== undefined) return `the socket in ${decodeURIComponent(socket)}`
  try {
    return new URL(url).host
  } catch {
    return 'unparsable URL'
  }
}

async function dropSchema (connectionString: string, schema: string): Promise<void> {
  const { createPostgresClient } = await import('../storage/postgres/index.ts')
  const admin = createPostgresClient({ connectionString, queryTimeoutMillis: 10 * 60_000 })
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
  // In this process, before any child starts or any load runs.
  const pricing = [measureBundlePricing()]
  log(`${pricing[0]!.description}: ${pricing[0]!.maxMs} ms at most, ${pricing[0]!.medianMs} ms median of ${pricing[0]!.runs} runs`)
  const floorStorage: FloorStorage = { postgres: config.databaseUrl !== null, redis: config.redisUrl !== null }
  const perTarget = config.rounds * config.duration + config.warmup
  const scenarioTargets = selected.reduce((sum, scenario) => sum + targetsFor(scenario, floorStorage).length, 0)
  log(`${selected.length} scenario(s), ${scenarioTargets} targets in all × (${config.warmup} s warm-up + ${config.rounds} × ${config.duration} s) ` +
    `≈ ${scenarioTargets * perTarget} s of load, ${config.connections} connections`)

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
  if (config.visitors > 0 && config.redisUrl === null) throw new ConfigError('--visitors measures Redis memory: set REDIS_URL')
  const secret = randomBytes(32).toString('base64url')
  const redisKeyPrefix = `bench:${randomBytes(6).toString('hex')}:rl:`
  const appStart: AppStart = {
    type: 'start',
    dataDir,
    databaseUrl: config.databaseUrl,
    schema,
    redisUrl: config.redisUrl,
    redisKeyPrefix,
    secret,
    rateLimitMultiplier: RATE_LIMIT_MULTIPLIER,
    shortWindowMs: config.visitors > 0 ? config.visitorWindow * 1000 : null,
    poolSize: config.poolSize
  }
  // `--expose-gc`: the soak asks the app for two full collections and the heap each kept (./scale.ts).
  const app = await startChild<AppReady>('app server', './server.ts', appStart, cleanup, ['--expose-gc', ...config.appNodeArgs])
  checkpoint()
  log(`app on ${app.ready.url}, limiter off on ${app.ready.unlimitedUrl} (pid ${app.pid}), ${app.ready.storage} storage, ${app.ready.rateCounter} rate counter`)
  const signer = createCartTokenSigner({ secrets: [secret] })
  const appUrl = (target: AppTarget | 'short'): string =>
    target === 'app' ? app.ready.url : target === 'unlimited' ? app.ready.unlimitedUrl : app.ready.shortWindowUrl!
  const measuredSeconds = config.warmup + config.rounds * config.duration
  const writePool = config.writePool ?? WRITES_PER_SECOND * measuredSeconds

  // Each scenario's request, and the app's answer to it: the baseline's body.
  const prepare = async (scenario: Scenario, name = scenario.name, pool = writePool, target: AppTarget | 'short' = scenario.target ?? 'app'): Promise<Prepared> => {
    const client = appClient(appUrl(target))
    const extra = await scenario.prepare({ app: client, sql: app.sql, signCartToken: (key) => signer.sign(key), writePool: pool })
    const body = extra.body ?? scenario.body
    const request: BenchRequest = {
      method: scenario.method,
      path: scenario.path,
      headers: { ...scenario.headers, ...extra.headers },
      ...(body === undefined ? {} : { body })
    }
    const recorded = await client.send(request)
    if (recorded.status < 200 || recorded.status > 299) {
      throw new Error(`${name}: the app answered ${recorded.status}: ${recorded.body.slice(0, 500)}`)
    }
    scenario.check?.(recorded)
    const stableBody = scenario.stableBody ?? true
    if (stableBody) {
      const again = await client.send(request)
      if (again.body !== recorded.body) throw new Error(`${name}: two calls answered different bodies; mark it stableBody: false`)
    }
    checkpoint()
    const targets = targetsFor(scenario, floorStorage)
    const { perRequestHeaders, beforeMeasure } = extra
    const item: Prepared = { scenario, name, target, request, recorded, stableBody, targets, cursor: { next: 1 } }
    if (perRequestHeaders) item.perRequestHeaders = perRequestHeaders
    if (beforeMeasure) item.beforeMeasure = beforeMeasure
    return item
  }

  const prepared: Prepared[] = []
  if (!config.scaleOnly) for (const scenario of selected) prepared.push(await prepare(scenario))
  const svcCart = scenarios.find((scenario) => scenario.name === SVC_CART)!
  // The carts run measures the cart table's size: of the floors, only bare+pg reads that table.
  const cartsItem = config.carts.length > 0
    ? { ...await prepare(svcCart, `${SVC_CART} (carts run)`), targets: targetsFor(svcCart, floorStorage, ['bare+pg']) }
    : null
  const soakItems = config.soak > 0 ? await Promise.all(SOAK_MIX.map((name) => prepare(scenarios.find((scenario) => scenario.name === name)!, `${name} (soak)`))) : []

  const baselineItems = [...prepared, ...(cartsItem ? [cartsItem] : [])]
  const baselines: Baseline[] = baselineItems.map(({ name, request, recorded, targets }) => ({
    name,
    method: request.method,
    path: request.path,
    statusCode: recorded.status,
    contentType: recorded.headers.get('content-type') ?? 'application/json',
    body: recorded.body,
    ...(targets.includes('bare+pg') ? { snapshotCartKey: cartKeyOf(request.headers['Cart-Token'] ?? '') } : {}),
    ...(targets.includes('bare+redis') ? { redisFloor: true } : {}),
    ...(targets.includes('bare+tx') ? { transactionFloor: true } : {})
  }))
  // The floors' PostgreSQL pools are as large as the app's (bare+tx's a pool of its own), so neither side waits more.
  const floorPoolSize = config.poolSize ?? DEFAULT_POOL_SIZE
  const postgres = config.databaseUrl === null
    ? null
    : { connectionString: config.databaseUrl, schema, poolSize: floorPoolSize, transactionCarts: writePool }
  const redis = config.redisUrl === null ? null : { url: config.redisUrl, keyPrefix: `bench:${randomBytes(6).toString('hex')}:floor:` }
  const bare = await startChild<BaselineReady>('bare server', './baseline-server.ts', { type: 'start', baselines, postgres, redis } satisfies BaselineStart, cleanup)
  checkpoint()
  const floorsRunning = FLOOR_TARGETS.filter((floor) => baselineItems.some((item) => item.targets.includes(floor)))
  const floorCounts = floorsRunning.map((floor) => `${floor} on ${Object.values(bare.ready.floorUrls).filter((found) => found[floor] !== undefined).length}`)
  log(`bare Fastify baselines on ${Object.values(bare.ready.urls).length} port(s)` +
    `${floorCounts.length === 0 ? '' : `, ${floorCounts.join(', ')}`}` +
    `${postgres === null || !floorsRunning.some((floor) => floor !== 'bare+redis') ? '' : ` (pg pools of ${floorPoolSize})`} (pid ${bare.pid})`)

  const urls = (item: Prepared): PerTarget<string> => {
    const floors: Partial<Record<FloorTarget, string>> = {}
    for (const floor of FLOOR_TARGETS) {
      if (!item.targets.includes(floor)) continue
      const url = bare.ready.floorUrls[item.name]?.[floor]
      if (url === undefined) throw new Error(`${item.name}: the baseline process started no ${floor} server`)
      floors[floor] = url
    }
    return { app: appUrl(item.target), bare: bare.ready.urls[item.name]!, ...floors }
  }
  // Each baseline's answer, byte for byte the app's recorded one, before any load.
  const bodyBytes = new Map<string, PerTarget<number>>()
  for (const item of baselineItems) {
    const targetUrls = urls(item)
    const bytes: PerTarget<number> = { app: item.recorded.bytes, bare: await checkedBaselineBytes(item, 'bare', targetUrls.bare) }
    for (const floor of FLOOR_TARGETS) {
      const url = targetUrls[floor]
      if (url !== undefined) bytes[floor] = await checkedBaselineBytes(item, floor, url)
    }
    bodyBytes.set(item.name, bytes)
  }

  const alive = (): void => {
    if (!app.alive() || !bare.alive()) throw new Error(`the ${app.alive() ? 'bare' : 'app'} server process has exited`)
  }
  // The app consumes a write scenario's pool of carts; the bare target walks the same headers from the start each
  // run, so the load generator does the same work for both.
  const load = (target: TargetName, item: Prepared, duration: number): Promise<LoadResult> => {
    checkpoint()
    alive()
    let bareIndex = 0
    const at = item.perRequestHeaders
    const headers = at === undefined
      ? undefined
      : target === 'app' ? () => at(item.cursor.next++) : () => at(bareIndex++)
    return runLoad(urls(item)[target]!, item.request, {
      connections: config.connections,
      duration,
      ...(item.stableBody ? { expectBody: item.recorded.body } : {}),
      ...(headers === undefined ? {} : { perRequestHeaders: headers }),
      signal
    })
  }

  const measure = async (items: Prepared[], label = ''): Promise<ScenarioResult[]> => {
    if (config.warmup > 0) {
      for (const item of items) {
        for (const target of item.targets) {
          log(`warm-up ${item.name}${label} ${target} (${config.warmup} s)`)
          const found = problems(`warm-up ${item.name} ${target}`, await load(target, item, config.warmup))
          if (found.length > 0) throw new Error(found.join('\n'))
        }
      }
    }
    const runs = new Map(items.map((item) => [item.name, new Map(item.targets.map((target) => [target, [] as LoadResult[]]))]))
    for (let round = 1; round <= config.rounds; round++) {
      for (const item of items) {
        for (const target of item.targets) {
          const result = await load(target, item, config.duration)
          runs.get(item.name)!.get(target)!.push(result)
          log(`round ${round}/${config.rounds} ${item.name}${label} ${target}: ${Math.round(result.requestsPerSecond)} req/s, ` +
            `${result.responses} responses, ${result.non2xx} non-2xx, ${result.errors} errors`)
        }
      }
    }
    alive()
    return items.map((item) => {
      const targetRuns = runs.get(item.name)!
      const summary = (target: TargetName): TargetSummary => summarizeTarget(urls(item)[target]!, targetRuns.get(target)!)
      const targets: PerTarget<TargetSummary> = { app: summary('app'), bare: summary('bare') }
      const ratioTo: Partial<Record<FloorTarget, Ratio>> = {}
      for (const floor of FLOOR_TARGETS) {
        if (!item.targets.includes(floor)) continue
        targets[floor] = summary(floor)
        ratioTo[floor] = ratios(targets.app, targets[floor])
      }
      const floor = floorOf(item.targets)
      return {
        name: `${item.scenario.name}${label}`,
        description: item.scenario.description,
        request: item.request,
        status: item.recorded.status,
        contentType: item.recorded.headers.get('content-type') ?? '',
        bodyBytes: bodyBytes.get(item.name)!,
        targets,
        ratio: ratios(targets.app, targets.bare),
        ...(ratioTo['bare+pg'] === undefined ? {} : { ratioToBarePg: ratioTo['bare+pg'] }),
        ...(floor === undefined ? {} : { ratioTo, floor })
      }
    })
  }

  const together = prepared.filter((item) => item.beforeMeasure === undefined)
  const results = together.length > 0 ? await measure(together) : []
  for (const item of prepared) {
    if (item.beforeMeasure === undefined) continue
    log(`${item.name}: getting its carts ready through the app`)
    const started = Date.now()
    await item.beforeMeasure()
    log(`${item.name}: ready in ${Math.round((Date.now() - started) / 100) / 10} s`)
    results.push(...await measure([item]))
  }

  const scale: ScaleReport = {}
  if (cartsItem !== null) {
    const keep = signer.verify(cartsItem.request.headers['Cart-Token']!)
    if (keep === null) throw new Error('the carts run\'s Cart-Token does not verify')
    scale.carts = []
    for (const [index, size] of cartsRunOrder(config.carts).entries()) {
      const again = index > 0 && scale.carts.some((run) => run.carts === size)
      log(`carts run: filling the cart table to ${size} carts`)
      const started = Date.now()
      const stored = await fillCarts(app.sql, keep, size)
      const seedSeconds = Math.round((Date.now() - started) / 100) / 10
      log(`carts run: ${stored} carts stored in ${seedSeconds} s`)
      await settleDatabase(app.sql, log)
      const [result] = await measure([cartsItem], ` @ ${size} carts${again ? ', again' : ''}`)
      scale.carts.push({ carts: stored, seedSeconds, result: result! })
    }
  }
  if (config.visitors > 0) {
    scale.visitors = await visitorsRun(config, redisKeyPrefix, prepare, (item) => runLoad(appUrl('short'), item.request, {
      connections: config.connections,
      duration: 1,
      amount: config.visitors,
      perRequestHeaders: () => item.perRequestHeaders!(item.cursor.next++),
      signal
    }))
  }
  if (soakItems.length > 0) {
    log(`soak: ${config.soak} s of mixed load (${SOAK_MIX.join(', ')}), app RSS sampled every second`)
    const sampler = sampleRss(app.pid!)
    const soakStarted = Date.now()
    // Under the load, halfway through the warm-up and near the end: a full collection, and the heap it kept.
    const collections = collectionTimes(config.soak).map((at) => new Promise<void>((resolve) => { setTimeout(resolve, at * 1000).unref() })
      .then(async (): Promise<HeapSample> => {
        const bytes = await app.collectGarbage()
        return { t: Math.round((Date.now() - soakStarted) / 100) / 10, heapMiB: Math.round(bytes / 1024 / 1024 * 10) / 10 }
      }))
    const run = await runLoad(app.ready.url, soakItems[0]!.request, {
      connections: config.connections,
      duration: config.soak,
      mix: soakItems.map((item) => item.request),
      signal
    })
    alive()
    const collected = await Promise.all(collections).then(([first, last]) => [first!, last!] as const, (error: unknown) => {
      log(`soak: no full collection could be made (${String(error)})`)
      return undefined
    })
    const rss = summarizeRss(sampler.stop(), config.soak, collected)
    scale.soak = {
      seconds: config.soak,
      mix: SOAK_MIX,
      requestsPerSecond: Math.round(run.requestsPerSecond),
      responses: run.responses,
      non2xx: run.non2xx,
      errors: run.errors,
      latencyMs: latencySummary(run.latencies),
      rss
    }
    log(`soak: RSS ${rss.referenceMiB} MiB after warm-up, ${rss.minMiB}–${rss.maxMiB} MiB, ${rss.lastMiB} MiB at the end` +
      (rss.heapAfterCollection === undefined ? '' : `; heap after a full collection ${rss.heapAfterCollection.first.heapMiB} MiB at ${rss.heapAfterCollection.first.t} s, ${rss.heapAfterCollection.last.heapMiB} MiB at ${rss.heapAfterCollection.last.t} s`))
  }

  const failures = [
    ...results.flatMap(targetProblems),
    ...(scale.carts ?? []).flatMap(({ result }) => targetProblems(result)),
    ...(scale.soak && (scale.soak.non2xx > 0 || scale.soak.errors > 0) ? [`soak: ${scale.soak.non2xx} non-2xx, ${scale.soak.errors} errors`] : [])
  ]
  if (failures.some((failure) => failure.includes('remove-items') && failure.includes('409'))) {
    failures.push(`a write scenario ran out of its ${writePool} carts: raise --write-pool`)
  }
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
      order: `alternating app${floorsRunning.length === 0 ? ' and bare' : `, bare and, where they apply, ${floorsRunning.join(', ')}`} in every round`,
      processes: `autocannon in the orchestrator (pid ${process.pid}); the app in child pid ${app.pid}; ` +
        `the bare Fastify baseline(s) in child pid ${bare.pid}` +
        (floorsRunning.length === 0 ? '' : `, the floors there too (${floorsRunning.map((floor) => floorResources(floor, floorPoolSize)).join('; ')})`),
      rateLimitMultiplier: RATE_LIMIT_MULTIPLIER,
      writePool
    },
    scenarios: results,
    scale,
    pricing,
    goals: goals(results, scale, pricing)
  }
}

/** What a floor holds open while it runs, for the report's processes line. */
function floorResources (floor: FloorTarget, poolSize: number): string {
  if (floor === 'bare+redis') return 'bare+redis: one Redis connection'
  return `${floor}: a pg pool of ${poolSize} connections`
}

/** The problems of every target a scenario ran against. */
function targetProblems (result: ScenarioResult): string[] {
  return targetsOf(result).flatMap((target) => problems(`${result.name} ${target}`, result.targets[target]!))
}

/** A baseline's answer to the scenario's request, which must be the app's recorded one byte for byte; its size. */
async function checkedBaselineBytes (item: Prepared, target: TargetName, url: string): Promise<number> {
  const answer = await send(url, item.request)
  if (answer.status !== item.recorded.status || answer.body !== item.recorded.body) {
    throw new Error(`${item.name}: the ${target} route's answer differs from the app's ` +
      `(status ${answer.status} vs ${item.recorded.status}, body ${answer.bytes} B vs ${item.recorded.bytes} B)`)
  }
  return answer.bytes
}

type PrepareFn = (scenario: Scenario, name?: string, pool?: number, target?: AppTarget | 'short') => Promise<Prepared>

/** 100,000 (or `--visitors`) distinct visitors, each a cart of its own, through the short-window app's limiter. */
async function visitorsRun (config: BenchConfig, prefix: string, prepare: PrepareFn, run: (item: Prepared) => Promise<LoadResult>): Promise<VisitorsReport> {
  const probe = redisProbe(config.redisUrl!, `${prefix}short:`)
  try {
    const removeItems = scenarios.find((scenario) => scenario.name === REMOVE_ITEMS)!
    log(`visitors run: seeding ${config.visitors} carts`)
    const item = await prepare(removeItems, `${REMOVE_ITEMS} (visitors run)`, config.visitors, 'short')
    const before = await probe.snapshot()
    log(`visitors run: ${config.visitors} requests, one visitor each, window ${config.visitorWindow} s`)
    // Redis memory every second while the load runs: windows that end during a long run are gone by its end.
    let peakMemoryBytes = before.usedMemoryBytes
    const sampler = setInterval(() => {
      probe.usedMemory().then((bytes) => { peakMemoryBytes = Math.max(peakMemoryBytes, bytes) }, () => {})
    }, 1000)
    let result: LoadResult
    try {
      result = await run(item)
    } finally {
      clearInterval(sampler)
    }
    const after = await probe.snapshot()
    peakMemoryBytes = Math.max(peakMemoryBytes, after.usedMemoryBytes)
    log(`visitors run: ${after.keys} keys, used_memory ${before.usedMemoryBytes} → ${after.usedMemoryBytes} B; waiting for the window to end`)
    await new Promise((resolve) => setTimeout(resolve, config.visitorWindow * 1000))
    const expired = await waitForKeysGone(probe, 30_000)
    log(`visitors run: ${expired.snapshot.keys} keys ${expired.waitedMs} ms after the window, used_memory ${expired.snapshot.usedMemoryBytes} B`)
    return {
      visitors: config.visitors,
      windowSeconds: config.visitorWindow,
      requestsPerSecond: Math.round(result.requestsPerSecond),
      responses: result.responses,
      statusCodes: result.statusCodes,
      errors: result.errors,
      before,
      afterLoad: after,
      peakMemoryBytes,
      afterWindow: expired.snapshot,
      keysGoneAfterMs: expired.snapshot.keys === 0 ? config.visitorWindow * 1000 + expired.waitedMs : null
    }
  } finally {
    await probe.close()
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
