/**
 * The run as an SVG chart, drawn here (no charting package): app/bare req/s per scenario, and p99 latency. A scenario
 * that ran against bare+pg (PostgreSQL, GET svc/v1/cart) has a second, grey row under its own: app/bare+pg req/s and
 * bare+pg's p99. Only the app/bare bars are coloured by the goal (≥ 0.30), which is defined against bare.
 */
import type { BenchReport, Ratio, ScenarioResult, TargetSummary } from './report.ts'

const WIDTH = 860
const ROW = 26
const LEFT = 190
const BAR_MAX = 300
const GAP = 60

function escape (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** One row of the chart: the app against one baseline. */
interface ChartRow {
  label: string
  ratio: Ratio
  app: TargetSummary
  baseline: TargetSummary
  /** Coloured by the goal (app/bare), or grey (app/bare+pg). */
  judged: boolean
}

function chartRows (results: ScenarioResult[]): ChartRow[] {
  return results.flatMap((result) => {
    const { app, bare, 'bare+pg': barePg } = result.targets
    const rows: ChartRow[] = [{ label: result.name, ratio: result.ratio, app, baseline: bare, judged: true }]
    if (barePg !== undefined && result.ratioToBarePg !== undefined) {
      rows.push({ label: 'vs bare+pg', ratio: result.ratioToBarePg, app, baseline: barePg, judged: false })
    }
    return rows
  })
}

export function svgChart (report: BenchReport): string {
  const rows = chartRows(report.scenarios)
  const withBarePg = rows.some((row) => !row.judged)
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
    `<text x="${LEFT}" y="${top - 8}" font-weight="600">req/s, app / bare${withBarePg ? ' or bare+pg' : ''} (bar = 1.0×)</text>`,
    `<text x="${p99Left}" y="${top - 8}" font-weight="600">p99 latency, ms (app ▮, bare${withBarePg ? ' or bare+pg' : ''} ▯)</text>`
  ]
  // The 0.30 goal line and the 1.0 mark.
  for (const [value, label] of [[0.3, '0.30'], [1, '1.0']] as const) {
    const xLine = LEFT + BAR_MAX * value
    parts.push(`<line x1="${xLine}" y1="${top}" x2="${xLine}" y2="${top + rows.length * ROW}" stroke="#999" stroke-dasharray="3 3"/>`)
    parts.push(`<text x="${xLine}" y="${top + rows.length * ROW + 14}" text-anchor="middle" fill="#555">${label}</text>`)
  }
  rows.forEach((row, index) => {
    const y = top + index * ROW
    const ratio = Number.isFinite(row.ratio.requestsPerSecond) ? row.ratio.requestsPerSecond : 0
    const barWidth = Math.max(1, Math.min(1.2, ratio) * BAR_MAX)
    const appP99 = row.app.latencyMs.p99
    const baselineP99 = row.baseline.latencyMs.p99
    const fill = !row.judged ? '#8a94a3' : ratio >= 0.3 ? '#2f7d4f' : '#c0563b'
    parts.push(`<text x="${LEFT - 8}" y="${y + 16}" text-anchor="end"${row.judged ? '' : ' fill="#555"'}>${escape(row.label)}</text>`)
    parts.push(`<rect x="${LEFT}" y="${y + 4}" width="${barWidth.toFixed(1)}" height="16" fill="${fill}"/>`)
    parts.push(`<text x="${LEFT + barWidth + 4}" y="${y + 16}">${ratio.toFixed(3)}× (${Math.round(row.app.requestsPerSecond.mean)} / ${Math.round(row.baseline.requestsPerSecond.mean)})</text>`)
    // The app's p99 once per scenario, on its first row; each row shows its baseline's.
    if (row.judged) {
      parts.push(`<rect x="${p99Left}" y="${y + 4}" width="${Math.max(1, appP99 / maxP99 * p99Width).toFixed(1)}" height="8" fill="#3b6fc0"/>`)
      parts.push(`<text x="${p99Left + Math.max(1, appP99 / maxP99 * p99Width) + 4}" y="${y + 13}" font-size="11">${appP99.toFixed(1)}</text>`)
    }
    const baselineWidth = Math.max(1, baselineP99 / maxP99 * p99Width)
    parts.push(`<rect x="${p99Left}" y="${y + 13}" width="${baselineWidth.toFixed(1)}" height="7" fill="none" stroke="${row.judged ? '#3b6fc0' : '#8a94a3'}"/>`)
    if (!row.judged) parts.push(`<text x="${(p99Left + baselineWidth + 4).toFixed(1)}" y="${y + 20}" font-size="11" fill="#555">${baselineP99.toFixed(1)}</text>`)
  })
  parts.push(`<text x="16" y="${height - 12}" fill="#555">${escape('req/s: mean over rounds; bars green where app/bare ≥ 0.30 (the goal for GET svc/v1/cart). npm run bench; bench/results/latest.json has every figure.')}</text>`)
  if (withBarePg) {
    parts.push(`<text x="16" y="${height - 28}" fill="#555">${escape('Grey rows: app / bare+pg, bare Fastify reading the cart\'s stored snapshot from PostgreSQL (one prepared statement) per request; not a goal.')}</text>`)
  }
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
