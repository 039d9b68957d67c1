/**
 * The run's report: the machine and commit it ran on, and its results as Markdown (printed at the end of `npm run
 * bench`, and copied into docs/benchmarks.md by hand) and JSON, written to bench/results/latest.md and latest.json.
 * The Markdown has one row per scenario: the app, bare, and the floor it is judged against (`floorOf`), with – for a
 * scenario without one; its other floors (svc-cart-3-lines' bare+pg beside bare+redis) are listed under the table.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import { FLOOR_NOTES, FLOOR_RULE, FLOOR_TARGETS, floorsIn } from './floors.ts'
import type { BenchReport, ScenarioResult } from './report-types.ts'

export const loadAverage = (): number[] => os.loadavg().map((value) => Math.round(value * 100) / 100)

export function machine (): BenchReport['machine'] {
  const { version } = createRequire(import.meta.url)('autocannon/package.json') as { version: string }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    autocannon: version,
    loadAverageAtStart: loadAverage()
  }
}

export function gitState (cwd: string): BenchReport['git'] {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  try {
    return { commit: git('rev-parse', 'HEAD').trim(), dirty: git('status', '--porcelain').trim() !== '' }
  } catch {
    return { commit: null, dirty: null }
  }
}

/** Writes latest.json and latest.md into `directory`, replacing the last run's; returns their paths. */
export async function writeResults (report: BenchReport, directory: URL): Promise<URL[]> {
  await mkdir(directory, { recursive: true })
  const files: Array<[URL, string]> = [
    [new URL('latest.json', directory), `${JSON.stringify(report, null, 2)}\n`],
    [new URL('latest.md', directory), markdownReport(report)]
  ]
  for (const [file, text] of files) await writeFile(file, text)
  return files.map(([file]) => file)
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ms = (value: number): string => value.toFixed(2)
const times = (value: number): string => Number.isFinite(value) ? `${value.toFixed(3)}×` : 'n/a'

function floorCells ({ floor, targets, ratioTo }: ScenarioResult): string {
  const summary = floor === undefined ? undefined : targets[floor]
  if (floor === undefined || summary === undefined) return ' – | – | – | – |'
  return ` ${floor} | ${integer.format(summary.requestsPerSecond.mean)} | ${times(ratioTo[floor]!.requestsPerSecond)} | ${ms(summary.latencyMs.p99)} |`
}

function scenarioRows (results: ScenarioResult[]): string[] {
  const floors = floorsIn(results)
  const withFloors = floors.length > 0
  const rows = [
    `| scenario | app req/s | bare req/s | app/bare |${withFloors ? ' floor | floor req/s | app/floor | floor p99 ms |' : ''} p50 ms | p97.5 ms | p99 ms | bare p99 ms | non-2xx | errors | body B |`,
    `|---|--:|--:|--:|${withFloors ? '---|--:|--:|--:|' : ''}--:|--:|--:|--:|--:|--:|--:|`
  ]
  for (const result of results) {
    const { app, bare } = result.targets
    rows.push(`| ${result.name} | ${integer.format(app.requestsPerSecond.mean)} | ${integer.format(bare.requestsPerSecond.mean)} | ` +
      `${times(result.ratio.requestsPerSecond)} |${withFloors ? floorCells(result) : ''} ${ms(app.latencyMs.p50)} | ${ms(app.latencyMs.p97_5)} | ` +
      `${ms(app.latencyMs.p99)} | ${ms(bare.latencyMs.p99)} | ${app.non2xx} | ${app.errors} | ${integer.format(result.bodyBytes)} |`)
  }
  const others = results.flatMap((result) => FLOOR_TARGETS.filter((floor) => floor !== result.floor && result.targets[floor] !== undefined)
    .map((floor) => `${result.name} against ${floor} too: ${integer.format(result.targets[floor]!.requestsPerSecond.mean)} req/s, ` +
      `app/${floor} ${times(result.ratioTo[floor]!.requestsPerSecond)}, ${floor} p99 ${ms(result.targets[floor]!.latencyMs.p99)} ms.`))
  // A paragraph each.
  if (withFloors) rows.push(...[...others, ...floors.map((floor) => FLOOR_NOTES[floor]), FLOOR_RULE].flatMap((note) => ['', note]))
  return rows
}

export function markdownReport (report: BenchReport): string {
  const { machine: m, load } = report
  const targets = ['app', 'bare', ...floorsIn(report.scenarios)]
  const lines = [
    `Run ${report.startedAt} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, autocannon ${m.autocannon}; ` +
      `load average ${m.loadAverageAtStart.join(' ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' ')} at end` : ''}.`,
    `Storage: ${report.storage.backend}, rate counter ${report.storage.rateCounter}. Load: ${load.connections} connections, pipelining 1, ` +
      `${load.rounds} rounds × ${load.durationSeconds} s per target after ${load.warmupSeconds} s warm-up, ` +
      `${targets.slice(0, -1).join(', ')} and ${targets.at(-1)!} alternating. ` +
      `Commit ${report.git.commit?.slice(0, 12) ?? 'unknown'}${report.git.dirty === true ? ' (with local changes)' : ''}.`,
    ''
  ]
  if (report.scenarios.length > 0) lines.push(...scenarioRows(report.scenarios), '')
  if (report.goals.length > 0) {
    lines.push('| goal | figure | met |', '|---|---|---|', ...report.goals.map((goal) => `| ${goal.goal} | ${goal.figure} | ${goal.met ? 'yes' : '**no**'} |`), '')
  }
  if (!report.ok) lines.push(`Problems: ${report.failures.join('; ')}`, '')
  return lines.join('\n')
}
