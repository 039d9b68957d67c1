/** The run as Markdown: what the README shows (bench/results/latest.md, scale.md). */
import { mib } from './goals.ts'
import type { BenchReport, ScenarioResult } from './report.ts'

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ms = (value: number): string => value.toFixed(2)
const times = (value: number): string => Number.isFinite(value) ? `${value.toFixed(3)}×` : 'n/a'

function scenarioRows (results: ScenarioResult[]): string[] {
  const rows = [
    '| scenario | app req/s | bare req/s | app/bare | p50 ms | p97.5 ms | p99 ms | bare p99 ms | non-2xx | errors | body B |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|'
  ]
  for (const result of results) {
    const { app, bare } = result.targets
    rows.push(`| ${result.name} | ${integer.format(app.requestsPerSecond.mean)} | ${integer.format(bare.requestsPerSecond.mean)} | ` +
      `${times(result.ratio.requestsPerSecond)} | ${ms(app.latencyMs.p50)} | ${ms(app.latencyMs.p97_5)} | ${ms(app.latencyMs.p99)} | ` +
      `${ms(bare.latencyMs.p99)} | ${app.non2xx} | ${app.errors} | ${integer.format(result.bodyBytes.app)} |`)
  }
  return rows
}

export function markdownReport (report: BenchReport): string {
  const { machine: m, load } = report
  const lines = [
    `Run ${report.startedAt} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, autocannon ${m.autocannon}; ` +
      `load average ${m.loadAverageAtStart.join(' ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' ')} at end` : ''}.`,
    `Storage: ${report.storage.backend}, rate counter ${report.storage.rateCounter}. Load: ${load.connections} connections, pipelining 1, ` +
      `${load.rounds} rounds × ${load.durationSeconds} s per target after ${load.warmupSeconds} s warm-up, app and bare alternating. ` +
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
    lines.push(`**Mixed run, ${soak.seconds} s** (${soak.mix.join(', ')} in turn): ${integer.format(soak.requestsPerSecond)} req/s, ` +
      `p99 ${ms(soak.latencyMs.p99)} ms, ${soak.non2xx} non-2xx, ${soak.errors} errors; app RSS ${soak.rss.referenceMiB} MiB after warm-up, ` +
      `${soak.rss.minMiB}–${soak.rss.maxMiB} MiB, ${soak.rss.lastMiB} MiB at the end.`, '')
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
