/**
 * The run as an SVG chart, drawn here (no charting package): app/bare req/s per scenario, and p99 latency. A scenario
 * that ran against a floor (`floors.ts`) has a second row under its own: app/<its floor> req/s and the floor's p99.
 * A bar with a goal (`THROUGHPUT_GOALS`, against bare or a floor) has a tick at the goal and is green when it meets
 * it, red when not; bars without a goal are grey.
 */
import { THROUGHPUT_GOALS } from './goals.ts'
import { floorRatio } from './floors.ts'
import type { BenchReport, Ratio, ScenarioResult, TargetSummary } from './report-types.ts'

const WIDTH = 1000
const ROW = 26
const LEFT = 190
const BAR_MAX = 300
// Room for the figure after a bar as long as 1.2× (a floor row can be), before the p99 column.
const GAP = 200

function escape (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** One row of the chart: the app against one baseline. */
interface ChartRow {
  label: string
  ratio: Ratio
  app: TargetSummary
  baseline: TargetSummary
  /** The scenario's own row (app/bare), or its floor's under it. */
  first: boolean
  /** The req/s ratio the goal asks for against this baseline, if there is one. */
  goal: number | undefined
}

function goalFor (scenario: string, baseline: string): number | undefined {
  return THROUGHPUT_GOALS.find((goal) => goal.scenario === scenario && goal.of === baseline)?.min
}

function chartRows (results: ScenarioResult[]): ChartRow[] {
  return results.flatMap((result) => {
    const { app, bare } = result.targets
    const rows: ChartRow[] = [{ label: result.name, ratio: result.ratio, app, baseline: bare, first: true, goal: goalFor(result.name, 'bare') }]
    const floor = floorRatio(result)
    if (floor !== undefined) {
      rows.push({ label: `vs ${floor.floor}`, ratio: floor.ratio, app, baseline: floor.summary, first: false, goal: goalFor(result.name, floor.floor) })
    }
    return rows
  })
}

export function svgChart (report: BenchReport): string {
  const rows = chartRows(report.scenarios)
  const withFloors = rows.some((row) => !row.first)
  const top = 64
  const height = top + rows.length * ROW + 56
  const maxP99 = Math.max(1, ...rows.flatMap((row) => [row.app.latencyMs.p99, row.baseline.latencyMs.p99]))
  const p99Left = LEFT + BAR_MAX + GAP
  const p99Width = WIDTH - p99Left - 70
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    '<text x="16" y="22" font-size="15" font-weight="600">Cart Drawer Service vs bare Fastify sending the same bytes</text>',
    `<text x="16" y="40" fill="#555">${escape(`${report.storage.backend} + ${report.storage.rateCounter}, ${report.load.connections} connections, ` +
      `${report.machine.cores} cores (${report.machine.cpu}), ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC`)}</text>`,
    `<text x="${LEFT}" y="${top - 8}" font-weight="600">req/s, app / bare${withFloors ? ' or floor' : ''} (bar = 1.0×)</text>`,
    `<text x="${p99Left}" y="${top - 8}" font-weight="600">p99 latency, ms (app ▮, bare${withFloors ? ' or floor' : ''} ▯)</text>`
  ]
  // The 1.0 mark.
  const xOne = LEFT + BAR_MAX
  parts.push(`<line x1="${xOne}" y1="${top}" x2="${xOne}" y2="${top + rows.length * ROW}" stroke="#999" stroke-dasharray="3 3"/>`)
  parts.push(`<text x="${xOne}" y="${top + rows.length * ROW + 14}" text-anchor="middle" fill="#555">1.0</text>`)
  rows.forEach((row, index) => {
    const y = top + index * ROW
    const ratio = Number.isFinite(row.ratio.requestsPerSecond) ? row.ratio.requestsPerSecond : 0
    const barWidth = Math.max(1, Math.min(1.2, ratio) * BAR_MAX)
    const appP99 = row.app.latencyMs.p99
    const baselineP99 = row.baseline.latencyMs.p99
    const fill = row.goal === undefined ? '#8a94a3' : ratio >= row.goal ? '#2f7d4f' : '#c0563b'
    parts.push(`<text x="${LEFT - 8}" y="${y + 16}" text-anchor="end"${row.first ? '' : ' fill="#555"'}>${escape(row.label)}</text>`)
    parts.push(`<rect x="${LEFT}" y="${y + 4}" width="${barWidth.toFixed(1)}" height="16" fill="${fill}"/>`)
    if (row.goal !== undefined) {
      const xGoal = (LEFT + BAR_MAX * row.goal).toFixed(1)
      parts.push(`<line x1="${xGoal}" y1="${y + 1}" x2="${xGoal}" y2="${y + 23}" stroke="#222" stroke-width="2"/>`)
    }
    // The figure after the bar, or after the goal's tick when that is further right.
    const textX = Math.max(LEFT + barWidth, row.goal === undefined ? 0 : LEFT + BAR_MAX * row.goal + 2) + 4
    parts.push(`<text x="${textX.toFixed(1)}" y="${y + 16}">${ratio.toFixed(3)}× (${Math.round(row.app.requestsPerSecond.mean)} / ${Math.round(row.baseline.requestsPerSecond.mean)})</text>`)
    // The app's p99 once per scenario, on its first row; each row shows its baseline's.
    if (row.first) {
      parts.push(`<rect x="${p99Left}" y="${y + 4}" width="${Math.max(1, appP99 / maxP99 * p99Width).toFixed(1)}" height="8" fill="#3b6fc0"/>`)
      parts.push(`<text x="${p99Left + Math.max(1, appP99 / maxP99 * p99Width) + 4}" y="${y + 13}" font-size="11">${appP99.toFixed(1)}</text>`)
    }
    const baselineWidth = Math.max(1, baselineP99 / maxP99 * p99Width)
    parts.push(`<rect x="${p99Left}" y="${y + 13}" width="${baselineWidth.toFixed(1)}" height="7" fill="none" stroke="${row.first ? '#3b6fc0' : '#8a94a3'}"/>`)
    if (!row.first) parts.push(`<text x="${(p99Left + baselineWidth + 4).toFixed(1)}" y="${y + 20}" font-size="11" fill="#555">${baselineP99.toFixed(1)}</text>`)
  })
  parts.push(`<text x="16" y="${height - 12}" fill="#555">${escape('req/s: mean over rounds. Black tick: the goal; bar green when met, red when not; grey: no goal. Every figure: latest.json.')}</text>`)
  if (withFloors) {
    parts.push(`<text x="16" y="${height - 28}" fill="#555">${escape('"vs" rows: app / the scenario\'s floor, bare Fastify paying one storage step per request (docs/benchmarks.md).')}</text>`)
  }
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
