/**
 * Aggregates the runs per target, prints the table and writes the JSON results. Targets: the app; bare, Fastify
 * sending the app's recorded answer; and, where a scenario has them, the floors (`floors.ts`: bare+pg, bare+redis,
 * bare+tx), Fastify paying one storage step before sending the same answer. Each baseline has its ratio row: app/bare
 * (what most goals are defined against) and app/<floor> (the app's cost beyond what that floor pays); the scenario's
 * own floor (`floorOf`) is marked.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import { markdownReport, plainScaleLines } from './markdown.ts'
import { svgChart } from './chart.ts'
import { FLOOR_NOTES, FLOOR_RULE, FLOOR_TARGETS, floorRatio, floorsIn, ratioToFloor, TARGETS, type TargetName } from './floors.ts'
import type { LoadResult } from './load.ts'
import type { BenchReport, LatencySummary, Machine, Ratio, ScaleReport, ScenarioResult, TargetSummary } from './report-types.ts'

export type * from './report-types.ts'
export { TARGETS }

/** The targets a scenario ran against, in the order they ran. */
export function targetsOf (result: Pick<ScenarioResult, 'targets'>): TargetName[] {
  return TARGETS.filter((target) => result.targets[target] !== undefined)
}

export function machine (): Machine {
  const cpus = os.cpus()
  const require = createRequire(import.meta.url)
  const { version } = require('autocannon/package.json') as { version: string }
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    availableParallelism: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    autocannon: version,
    loadAverageAtStart: os.loadavg().map(round2)
  }
}

export function gitState (cwd: string): BenchReport['git'] {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const status = execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    return { commit, dirty: status.trim() !== '' }
  } catch {
    return { commit: null, dirty: null }
  }
}

function round2 (value: number): number { return Math.round(value * 100) / 100 }
function round3 (value: number): number { return Math.round(value * 1000) / 1000 }

/** Nearest-rank percentiles of response times in milliseconds. */
export function latencySummary (samples: Float64Array): LatencySummary {
  const sorted = samples.slice().sort()
  const n = sorted.length
  if (n === 0) return { p50: 0, p97_5: 0, p99: 0, mean: 0, max: 0 }
  const at = (p: number): number => round3(sorted[Math.min(n - 1, Math.max(0, Math.ceil(p / 100 * n) - 1))]!)
  let sum = 0
  for (const value of sorted) sum += value
  return { p50: at(50), p97_5: at(97.5), p99: at(99), mean: round3(sum / n), max: round3(sorted[n - 1]!) }
}

export function summarizeTarget (url: string, runs: LoadResult[]): TargetSummary {
  const total = runs.reduce((sum, run) => sum + run.latencies.length, 0)
  const pooled = new Float64Array(total)
  let offset = 0
  for (const run of runs) {
    pooled.set(run.latencies, offset)
    offset += run.latencies.length
  }
  const rates = runs.map((run) => run.requestsPerSecond)
  const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length
  const stddev = Math.sqrt(rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0) / rates.length)
  const sum = (pick: (run: LoadResult) => number): number => runs.reduce((acc, run) => acc + pick(run), 0)
  const statusCodes: Record<string, number> = {}
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  }
  const responses = sum((run) => run.responses)
  return {
    url,
    requestsPerSecond: { mean: round2(mean), stddev: round2(stddev), min: round2(Math.min(...rates)), max: round2(Math.max(...rates)) },
    latencyMs: latencySummary(pooled),
    responses,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    mismatches: sum((run) => run.mismatches),
    statusCodes,
    wireBytesPerResponse: responses === 0 ? 0 : Math.round(sum((run) => run.bytes) / responses),
    rounds: runs.map(({ latencies, ...run }, index) => ({ round: index + 1, ...run, latencyMs: latencySummary(latencies) }))
  }
}

export function ratios (app: TargetSummary, bare: TargetSummary): Ratio {
  const ratio = (a: number, b: number): number => b === 0 ? Number.NaN : round3(a / b)
  return {
    requestsPerSecond: ratio(app.requestsPerSecond.mean, bare.requestsPerSecond.mean),
    p50: ratio(app.latencyMs.p50, bare.latencyMs.p50),
    p97_5: ratio(app.latencyMs.p97_5, bare.latencyMs.p97_5),
    p99: ratio(app.latencyMs.p99, bare.latencyMs.p99)
  }
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const decimal = (digits: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const ms = decimal(2)
const times = (value: number): string => Number.isFinite(value) ? `${decimal(3).format(value)}×` : 'n/a'

function table (rows: string[][], rightAligned: Set<number>): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)))
  return rows.map((row) => row.map((cell, column) => rightAligned.has(column)
    ? cell.padStart(widths[column]!)
    : cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n')
}

export function formatReport (report: BenchReport): string {
  const { machine: m, load } = report
  const lines = [
    `Machine   ${m.cpu}, ${m.cores} cores (available parallelism ${m.availableParallelism}), ${m.memoryGiB} GiB, ${m.os}`,
    `          Node ${m.node}, autocannon ${m.autocannon}; load average at start ${m.loadAverageAtStart.join(' ')}` +
      (m.loadAverageAtEnd ? `, at end ${m.loadAverageAtEnd.join(' ')}` : ''),
    ...(m.loadAverageAtStart[0]! >= m.cores / 2
      ? [`          busy machine: load average ${m.loadAverageAtStart[0]} on ${m.cores} cores at start, so other processes competed for the CPU`]
      : []),
    `Storage   ${report.storage.backend} (${report.storage.detail}), rate counter ${report.storage.rateCounter}`,
    `Load      ${load.connections} connections, pipelining 1, ${load.rounds} rounds × ${load.durationSeconds} s per target ` +
      `(${load.order}), ${load.warmupSeconds} s warm-up per target not recorded`,
    `          ${load.processes}`,
    ''
  ]
  const header = ['scenario', 'target', 'req/s', '± sd', 'p50 ms', 'p97.5 ms', 'p99 ms', 'non-2xx', 'errors', 'timeouts', 'mismatches', 'body B', 'wire B/resp']
  const rows: string[][] = [header]
  const ratioRow = (scenario: string, label: string, ratio: Ratio): string[] =>
    [scenario, label, times(ratio.requestsPerSecond), '', times(ratio.p50), times(ratio.p97_5), times(ratio.p99), '', '', '', '', '', '']
  for (const scenario of report.scenarios) {
    for (const target of targetsOf(scenario)) {
      const s = scenario.targets[target]!
      rows.push([
        scenario.name, target,
        integer.format(s.requestsPerSecond.mean), integer.format(s.requestsPerSecond.stddev),
        ms.format(s.latencyMs.p50), ms.format(s.latencyMs.p97_5), ms.format(s.latencyMs.p99),
        integer.format(s.non2xx), integer.format(s.errors), integer.format(s.timeouts), integer.format(s.mismatches),
        integer.format(scenario.bodyBytes[target]!), integer.format(s.wireBytesPerResponse)
      ])
    }
    rows.push(ratioRow(scenario.name, 'app/bare', scenario.ratio))
    for (const floor of FLOOR_TARGETS) {
      const ratio = ratioToFloor(scenario, floor)
      if (ratio !== undefined) rows.push(ratioRow(scenario.name, `app/${floor}${scenario.floor === floor ? ' (floor)' : ''}`, ratio))
    }
  }
  if (report.scenarios.length > 0) lines.push(table(rows, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])))
  lines.push('')
  for (const scenario of report.scenarios) {
    const perRound = targetsOf(scenario).map((target) => `${target} ${scenario.targets[target]!.rounds.map((round) => integer.format(round.requestsPerSecond)).join(' / ')}`)
    lines.push(`req/s per round, ${scenario.name}: ${perRound.join('; ')}`)
  }
  lines.push('Latencies are exact percentiles over every response of every round; req/s is the mean over rounds of autocannon\'s per-second mean.')
  for (const floor of floorsIn(report.scenarios)) lines.push(FLOOR_NOTES[floor])
  if (floorsIn(report.scenarios).length > 0) {
    lines.push(`${FLOOR_RULE} (marked "(floor)" in the table)`)
  }
  const { carts } = report.scale
  if (carts !== undefined) {
    lines.push('', 'Carts stored, GET svc/v1/cart:')
    for (const { carts: count, seedSeconds, result } of carts) {
      const app = result.targets.app
      const floor = floorRatio(result)
      const ofFloor = floor === undefined ? '' : `, ${times(floor.ratio.requestsPerSecond)} of ${floor.floor}`
      lines.push(`  ${integer.format(count)} carts (seeded in ${seedSeconds} s): ${integer.format(app.requestsPerSecond.mean)} req/s, ` +
        `${times(result.ratio.requestsPerSecond)} of bare${ofFloor}, p50 ${ms.format(app.latencyMs.p50)} ms, p99 ${ms.format(app.latencyMs.p99)} ms, ${app.non2xx} non-2xx`)
    }
  }
  lines.push('', ...plainScaleLines({ ...report, scale: { ...report.scale, carts: undefined } as ScaleReport }))
  return lines.join('\n')
}

/**
 * `<timestamp>.json` always; `latest.{json,md,svg}` when scenarios ran, `scale.{json,md}` when a scale run did (so a
 * scale-only run leaves the scenarios' latest figures as they were).
 */
export async function writeResults (report: BenchReport, directory: URL): Promise<URL[]> {
  await mkdir(directory, { recursive: true })
  const json = `${JSON.stringify(report, null, 2)}\n`
  const written: Array<[URL, string]> = [[new URL(`${report.startedAt.replace(/[:.]/g, '-')}.json`, directory), json]]
  if (report.scenarios.length > 0) {
    written.push([new URL('latest.json', directory), json])
    written.push([new URL('latest.md', directory), markdownReport(report)])
    written.push([new URL('latest.svg', directory), svgChart(report)])
  }
  if (Object.keys(report.scale).length > 0) {
    written.push([new URL('scale.json', directory), json])
    written.push([new URL('scale.md', directory), markdownReport(report)])
  }
  for (const [file, text] of written) await writeFile(file, text)
  return written.map(([file]) => file)
}
