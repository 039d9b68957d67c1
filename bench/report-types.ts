/** The shape of a run's results: what `run.ts` assembles, `goals.ts` judges and `report.ts` writes. */

/** The baselines that pay one storage step before they answer (`floors.ts`); every scenario also runs on app and bare. */
export type FloorTarget = 'bare+pg' | 'bare+redis' | 'bare+tx'
export type TargetName = 'app' | 'bare' | FloorTarget
/** One value per target a scenario ran against: app and bare always, each floor where it applies. */
export type PerTarget<Value> = Record<'app' | 'bare', Value> & Partial<Record<FloorTarget, Value>>

export interface LatencySummary { p50: number, p97_5: number, p99: number, mean: number, max: number }

/** Answers under load: errors count connection errors and timeouts; mismatches, bodies other than the recorded one. */
export interface Counts {
  responses: number
  non2xx: number
  errors: number
  timeouts: number
  mismatches: number
  statusCodes: Record<string, number>
}

export interface TargetSummary extends Counts {
  /** The mean and spread over rounds of autocannon's per-second mean; `perRound` each round's. */
  requestsPerSecond: { mean: number, stddev: number }
  perRound: number[]
  /** Exact, over every response of every round. */
  latencyMs: LatencySummary
}

/** App figure / baseline figure: below 1 for req/s and above 1 for latencies where the app is slower. */
export interface Ratio { requestsPerSecond: number, p50: number, p97_5: number, p99: number }

export interface ScenarioResult {
  name: string
  description: string
  /** The body's size; every baseline sends the same bytes (checked before the load). */
  bodyBytes: number
  targets: PerTarget<TargetSummary>
  /** app / bare. */
  ratio: Ratio
  /** app / each floor the scenario ran against. */
  ratioTo: Partial<Record<FloorTarget, Ratio>>
  /** The floor it is judged against in the table (`floorOf`). */
  floor?: FloorTarget
}

/** A pricing measured in the orchestrator's process (bundle-pricing.ts): no I/O, so no load and no baseline. */
export interface PricingResult {
  name: string
  description: string
  runs: number
  firstMs: number
  medianMs: number
  maxMs: number
  /** The bundles' discount on the priced cart (minor units): the figure priced what it should. */
  bundleDiscount: number
}

export interface Goal { goal: string, figure: string, met: boolean }

export interface BenchReport {
  startedAt: string
  finishedAt: string
  ok: boolean
  failures: string[]
  git: { commit: string | null, dirty: boolean | null }
  machine: { cpu: string, cores: number, memoryGiB: number, os: string, node: string, autocannon: string, loadAverageAtStart: number[], loadAverageAtEnd?: number[] }
  storage: { backend: string, rateCounter: string, detail: string }
  load: { connections: number, durationSeconds: number, rounds: number, warmupSeconds: number, writePool: number, rateLimitMultiplier: number }
  scenarios: ScenarioResult[]
  pricing: PricingResult[]
  goals: Goal[]
}
