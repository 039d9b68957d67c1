/** The shapes of a bench run's results: what report.ts aggregates and markdown.ts and chart.ts write. */
import type { LoadResult } from './load.ts'
import type { RedisSnapshot, RssSummary } from './scale.ts'

/** Every target, in the order they run in a round; the floors only where a scenario has them. */
export const TARGETS = ['app', 'bare', 'bare+pg', 'bare+redis', 'bare+tx'] as const
export type TargetName = typeof TARGETS[number]
export type FloorTarget = Exclude<TargetName, 'app' | 'bare'>

/** The targets every scenario has. */
type EveryScenarioTarget = 'app' | 'bare'
/** One value per target a scenario ran against: app and bare always, each floor where it applies. */
export type PerTarget<Value> = Record<EveryScenarioTarget, Value> & Partial<Record<FloorTarget, Value>>

export interface LatencySummary { p50: number, p97_5: number, p99: number, mean: number, max: number }

export interface RoundSummary extends Omit<LoadResult, 'latencies'> {
  round: number
  latencyMs: LatencySummary
}

export interface TargetSummary {
  url: string
  requestsPerSecond: { mean: number, stddev: number, min: number, max: number }
  /** Exact, over every response of every round. */
  latencyMs: LatencySummary
  responses: number
  non2xx: number
  errors: number
  timeouts: number
  mismatches: number
  statusCodes: Record<string, number>
  /** Bytes received per response, status line and headers included. */
  wireBytesPerResponse: number
  rounds: RoundSummary[]
}

export interface ScenarioResult {
  name: string
  description: string
  request: { method: string, path: string, headers: Record<string, string>, body?: string }
  status: number
  contentType: string
  /** The body's size in bytes from each target; the bench refuses to run when they differ. */
  bodyBytes: PerTarget<number>
  targets: PerTarget<TargetSummary>
  /** app / bare: what most goals are defined against. */
  ratio: Ratio
  /** app / bare+pg, where the scenario ran against bare+pg (also in `ratioTo`; kept for readers of older results). */
  ratioToBarePg?: Ratio
  /** app / each floor the scenario ran against. */
  ratioTo?: Partial<Record<FloorTarget, Ratio>>
  /** The floor the scenario is judged against (`floorOf`): bare+tx for a write, else bare+redis, else bare+pg. */
  floor?: FloorTarget
}

/** App figure / baseline figure: below 1 for req/s and above 1 for latencies where the app is slower. */
export interface Ratio { requestsPerSecond: number, p50: number, p97_5: number, p99: number }

export interface Machine {
  cpu: string
  cores: number
  availableParallelism: number
  memoryGiB: number
  os: string
  node: string
  autocannon: string
  loadAverageAtStart: number[]
  loadAverageAtEnd?: number[]
}

export interface BenchReport {
  startedAt: string
  finishedAt: string
  ok: boolean
  failures: string[]
  git: { commit: string | null, dirty: boolean | null }
  machine: Machine
  storage: { backend: string, rateCounter: string, detail: string }
  load: {
    tool: string
    connections: number
    pipelining: 1
    durationSeconds: number
    rounds: number
    warmupSeconds: number
    order: string
    processes: string
    rateLimitMultiplier: number
    writePool: number
  }
  scenarios: ScenarioResult[]
  scale: ScaleReport
  /** In-process pricing times, measured before the load (absent from results written before they were). */
  pricing?: PricingResult[]
  goals: Goal[]
}

/** A pricing measured in the orchestrator's process (bench/bundle-pricing.ts): no I/O, so no load and no baseline. */
export interface PricingResult {
  name: string
  description: string
  runs: number
  /** The first run, before the JIT has seen the code. */
  firstMs: number
  medianMs: number
  maxMs: number
  /** The bundles' discount on the priced cart (minor units), to show the figure priced what it should. */
  bundleDiscount: number
}

export interface VisitorsReport {
  visitors: number
  windowSeconds: number
  requestsPerSecond: number
  responses: number
  statusCodes: Record<string, number>
  errors: number
  before: RedisSnapshot
  afterLoad: RedisSnapshot
  /** The largest used_memory sampled (every second) during the load. */
  peakMemoryBytes: number
  afterWindow: RedisSnapshot
  /** Milliseconds from the end of the load until no key of the run was left; null: some were left. */
  keysGoneAfterMs: number | null
}

export interface SoakReport {
  seconds: number
  mix: string[]
  requestsPerSecond: number
  responses: number
  non2xx: number
  errors: number
  latencyMs: LatencySummary
  rss: RssSummary
}

export interface ScaleReport {
  carts?: Array<{ carts: number, seedSeconds: number, result: ScenarioResult }>
  visitors?: VisitorsReport
  soak?: SoakReport
}

/** One goal of the performance issue, with the figure that meets it or not. */
export interface Goal {
  goal: string
  figure: string
  met: boolean
}
