/** A target's rounds summed up, and the ratios of the app's figures to a baseline's. */
import type { LoadResult } from './load.ts'
import type { Counts, LatencySummary, Ratio, TargetSummary } from './report-types.ts'

const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits

/** Nearest-rank percentiles of response times in milliseconds. */
export function latencySummary (samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort()
  const n = sorted.length
  if (n === 0) return { p50: 0, p97_5: 0, p99: 0, mean: 0, max: 0 }
  const at = (p: number): number => round(sorted[Math.min(n - 1, Math.max(0, Math.ceil(p / 100 * n) - 1))]!)
  return { p50: at(50), p97_5: at(97.5), p99: at(99), mean: round(sorted.reduce((sum, value) => sum + value, 0) / n), max: round(sorted[n - 1]!) }
}

export function summarizeTarget (runs: readonly LoadResult[]): TargetSummary {
  const rates = runs.map((run) => run.requestsPerSecond)
  const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length
  const sum = (pick: (run: LoadResult) => number): number => runs.reduce((total, run) => total + pick(run), 0)
  const statusCodes: Record<string, number> = {}
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  }
  return {
    requestsPerSecond: { mean: round(mean, 2), stddev: round(Math.sqrt(rates.reduce((total, rate) => total + (rate - mean) ** 2, 0) / rates.length), 2) },
    perRound: rates.map((rate) => round(rate, 2)),
    latencyMs: latencySummary(runs.flatMap((run) => run.latencies)),
    responses: sum((run) => run.responses),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    mismatches: sum((run) => run.mismatches),
    statusCodes
  }
}

export function ratios (app: TargetSummary, baseline: TargetSummary): Ratio {
  const ratio = (a: number, b: number): number => b === 0 ? Number.NaN : round(a / b)
  return {
    requestsPerSecond: ratio(app.requestsPerSecond.mean, baseline.requestsPerSecond.mean),
    p50: ratio(app.latencyMs.p50, baseline.latencyMs.p50),
    p97_5: ratio(app.latencyMs.p97_5, baseline.latencyMs.p97_5),
    p99: ratio(app.latencyMs.p99, baseline.latencyMs.p99)
  }
}

/** Problems that make a run's figures meaningless: error answers, failed requests, answers other than the recorded one. */
export function problems (label: string, run: Counts): string[] {
  const found: string[] = []
  if (run.non2xx > 0) found.push(`${label}: ${run.non2xx} non-2xx responses (status codes ${JSON.stringify(run.statusCodes)})`)
  if (run.errors > 0) found.push(`${label}: ${run.errors} errors (${run.timeouts} of them timeouts)`)
  if (run.mismatches > 0) found.push(`${label}: ${run.mismatches} responses whose body differs from the recorded one`)
  return found
}
