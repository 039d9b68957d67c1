/**
 * The run as Markdown: what docs/benchmarks.md shows (bench/results/latest.md, scale.md, copied there by hand).
 * Where some scenario ran against a floor (`floors.ts`), its table has four more columns: which floor the scenario
 * is judged against, its req/s, app/floor and the floor's p99, with – for scenarios without one; a scenario's other
 * floors (GET svc/v1/cart's bare+pg beside bare+redis) are listed under the table, with what each floor is. Without
 * floors the table is as before.
 */
import { mib, pct } from './goals.ts'
import { FLOOR_NOTES, FLOOR_RULE, FLOOR_TARGETS, floorRatio, floorsIn, ratioToFloor } from './floors.ts'
import type { BenchReport, ScenarioResult } from './report-types.ts'

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ms = (value: number): string => value.toFixed(2)
const times = (value: number): string => Number.isFinite(value) ? `${value.toFixed(3)}×` : 'n/a'

/** The floor's name, req/s, app/floor and p99, or dashes for a scenario without a floor. */
function floorCells (result: ScenarioResult): string {
  const floor = floorRatio(result)
  if (floor === undefined) return ' – | – | – | – |'
  return ` ${floor.floor} | ${integer.format(floor.summary.requestsPerSecond.mean)} | ${times(floor.ratio.requestsPerSecond)} | ${ms(floor.summary.latencyMs.p99)} |`
}

/** The floors a scenario ran against besides the one it is judged against, as one line each. */
function otherFloorLines (results: ScenarioResult[]): string[] {
  return results.flatMap((result) => FLOOR_TARGETS.flatMap((floor) => {
    const summary = result.targets[floor]
    const ratio = ratioToFloor(result, floor)
    if (summary === undefined || ratio === undefined || floorRatio(result)?.floor === floor) return []
    return [`${result.name} against ${floor} too: ${integer.format(summary.requestsPerSecond.mean)} req/s, app/${floor} ` +
      `${times(ratio.requestsPerSecond)}, ${floor} p99 ${ms(summary.latencyMs.p99)} ms.`]
  }))
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
      `${times(result.ratio.requestsPerSecond)} |${withFloors ? floorCells(result) : ''} ${ms(app.latencyMs.p50)} | ${ms(app.latencyMs.p97_5)} | ${ms(app.latencyMs.p99)} | ` +
      `${ms(bare.latencyMs.p99)} | ${app.non2xx} | ${app.errors} | ${integer.format(result.bodyBytes.app)} |`)
  }
  if (withFloors) {
    const notes = [
      ...otherFloorLines(results),
      ...floors.map((floor) => FLOOR_NOTES[floor]),
      FLOOR_RULE
    ]
    // A paragraph each.
    rows.push(...notes.flatMap((note) => ['', note]))
  }
  return rows
}

/** "app, bare and bare+pg" or the like: the targets these results alternated between. */
function alternating (results: ScenarioResult[]): string {
  const names = ['app', 'bare', ...floorsIn(results)]
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`
}

export function markdownReport (report: BenchReport): string {
  const { machine: m, load } = report
  const lines = [
    `Run ${report.startedAt} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, autocannon ${m.autocannon}; ` +
      `load average ${m.loadAverageAtStart.join(' ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' ')} at end` : ''}.`,
    `Storage: ${report.storage.backend}, rate counter ${report.storage.rateCounter}. Load: ${load.connections} connections, pipelining 1, ` +
      `${load.rounds} rounds × ${load.durationSeconds} s per target after ${load.warmupSeconds} s warm-up, ` +
      `${alternating([...report.scenarios, ...(report.scale.carts ?? []).map(({ result }) => result)])} alternating. ` +
      `Commit ${report.git.commit?.slice(0, 12) ?? 'unknown'}${report.git.dirty ? ' (with local changes)' : ''}.`,
    ''
  ]
  if (report.scenarios.length > 0) lines.push(...scenarioRows(report.scenarios), '')
  const { carts, visitors, soak } = report.scale
  if (carts !== undefined) {
    lines.push('**Carts stored** (GET svc/v1/cart, 3-line cart):', '', ...scenarioRows(carts.map(({ result }) => result)), '')
  }
  if (visitors !== undefined) {
    lines.push(`**Rate limiter, ${integer.format(visitors.visitors)} distinct visitors** (window ${visitors.windowSeconds} s, ` +
      `${integer.format(visitors.requestsPerSecond)} req/s, status codes ${JSON.stringify(visitors.statusCodes)}): Redis used_memory ` +
      `${mib(visitors.before.usedMemoryBytes)} before, ${mib(visitors.peakMemoryBytes)} at most during the load, ` +
      `${mib(visitors.afterLoad.usedMemoryBytes)} with ${integer.format(visitors.afterLoad.keys)} keys after the load, ${mib(visitors.afterWindow.usedMemoryBytes)} with ${visitors.afterWindow.keys} keys after the window` +
      `${visitors.keysGoneAfterMs === null ? '' : ` (all gone ${(visitors.keysGoneAfterMs / 1000).toFixed(1)} s after the load)`}.`, '')
  }
  if (soak !== undefined) {
    const heap = soak.rss.heapAfterCollection
    lines.push(`**Mixed run, ${soak.seconds} s** (${soak.mix.join(', ')} in turn): ${integer.format(soak.requestsPerSecond)} req/s, ` +
      `p99 ${ms(soak.latencyMs.p99)} ms, ${soak.non2xx} non-2xx, ${soak.errors} errors; app RSS ${soak.rss.referenceMiB} MiB after warm-up, ` +
      `${soak.rss.minMiB}–${soak.rss.maxMiB} MiB, ${soak.rss.lastMiB} MiB at the end` +
      (heap === undefined
        ? '.'
        : `; the heap kept after a full collection ${heap.first.heapMiB} MiB at ${heap.first.t} s and ${heap.last.heapMiB} MiB at ` +
          `${heap.last.t} s (drift ${pct(heap.drift)}).`), '')
  }
  if (report.goals.length > 0) {
    lines.push('| goal | figure | met |', '|---|---|---|')
    for (const goal of report.goals) lines.push(`| ${goal.goal} | ${goal.figure} | ${goal.met ? 'yes' : '**no**'} |`)
    lines.push('')
  }
  if (!report.ok) lines.push(`Problems: ${report.failures.join('; ')}`, '')
  return `${lines.join('\n')}`
}

/** The goals and scale figures as plain lines for the terminal. */
export function plainScaleLines (report: BenchReport): string[] {
  const md = markdownReport({ ...report, scenarios: [] }).split('\n').slice(3)
  return md.filter((line) => !line.startsWith('|---')).map((line) => line.replace(/\*\*/g, ''))
}
