/**
 * The run as Markdown: what docs/benchmarks.md shows (bench/results/latest.md, scale.md, copied there by hand).
 * Where some scenario ran against bare+pg (PostgreSQL, GET svc/v1/cart), its table has two more columns, bare+pg
 * req/s and app/bare+pg, and a note on what bare+pg is; the others show – there. Without bare+pg the table is as
 * before.
 */
import { mib } from './goals.ts'
import type { BenchReport, ScenarioResult } from './report.ts'

/** What bare+pg is, under the tables that show it. */
export const BARE_PG_NOTE = 'bare+pg: bare Fastify reading the cart\'s stored snapshot by primary key (one named prepared statement, ' +
  'a pg pool of the app\'s size) and sending it; app/bare+pg is the app\'s cost beyond that one round trip. The goals stay against bare.'

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ms = (value: number): string => value.toFixed(2)
const times = (value: number): string => Number.isFinite(value) ? `${value.toFixed(3)}×` : 'n/a'

const hasBarePg = (results: ScenarioResult[]): boolean => results.some((result) => result.targets['bare+pg'] !== undefined)

/** bare+pg req/s and app/bare+pg, or dashes for a scenario without bare+pg. */
function barePgCells (result: ScenarioResult): string {
  const barePg = result.targets['bare+pg']
  if (barePg === undefined || result.ratioToBarePg === undefined) return ' – | – |'
  return ` ${integer.format(barePg.requestsPerSecond.mean)} | ${times(result.ratioToBarePg.requestsPerSecond)} |`
}

function scenarioRows (results: ScenarioResult[]): string[] {
  const withBarePg = hasBarePg(results)
  const rows = [
    `| scenario | app req/s | bare req/s | app/bare |${withBarePg ? ' bare+pg req/s | app/bare+pg |' : ''} p50 ms | p97.5 ms | p99 ms | bare p99 ms | non-2xx | errors | body B |`,
    `|---|--:|--:|--:|${withBarePg ? '--:|--:|' : ''}--:|--:|--:|--:|--:|--:|--:|`
  ]
  for (const result of results) {
    const { app, bare } = result.targets
    rows.push(`| ${result.name} | ${integer.format(app.requestsPerSecond.mean)} | ${integer.format(bare.requestsPerSecond.mean)} | ` +
      `${times(result.ratio.requestsPerSecond)} |${withBarePg ? barePgCells(result) : ''} ${ms(app.latencyMs.p50)} | ${ms(app.latencyMs.p97_5)} | ${ms(app.latencyMs.p99)} | ` +
      `${ms(bare.latencyMs.p99)} | ${app.non2xx} | ${app.errors} | ${integer.format(result.bodyBytes.app)} |`)
  }
  if (withBarePg) rows.push('', BARE_PG_NOTE)
  return rows
}

export function markdownReport (report: BenchReport): string {
  const { machine: m, load } = report
  const lines = [
    `Run ${report.startedAt} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, autocannon ${m.autocannon}; ` +
      `load average ${m.loadAverageAtStart.join(' ')} at start${m.loadAverageAtEnd ? `, ${m.loadAverageAtEnd.join(' ')} at end` : ''}.`,
    `Storage: ${report.storage.backend}, rate counter ${report.storage.rateCounter}. Load: ${load.connections} connections, pipelining 1, ` +
      `${load.rounds} rounds × ${load.durationSeconds} s per target after ${load.warmupSeconds} s warm-up, ` +
      `${hasBarePg([...report.scenarios, ...(report.scale.carts ?? []).map(({ result }) => result)]) ? 'app, bare and bare+pg' : 'app and bare'} alternating. ` +
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
