/** The run as an SVG chart, drawn here (no charting package): app/bare req/s per scenario, and p99 latency. */
import type { BenchReport } from './report.ts'

const WIDTH = 860
const ROW = 26
const LEFT = 190
const BAR_MAX = 300
const GAP = 60

function escape (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function svgChart (report: BenchReport): string {
  const rows = report.scenarios
  const top = 64
  const height = top + rows.length * ROW + 56
  const maxP99 = Math.max(1, ...rows.flatMap((row) => [row.targets.app.latencyMs.p99, row.targets.bare.latencyMs.p99]))
  const p99Left = LEFT + BAR_MAX + GAP
  const p99Width = WIDTH - p99Left - 70
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    '<text x="16" y="22" font-size="15" font-weight="600">Cart Drawer Service vs bare Fastify sending the same bytes</text>',
    `<text x="16" y="40" fill="#555">${escape(`${report.storage.backend} + ${report.storage.rateCounter}, ${report.load.connections} connections, ` +
      `${report.machine.cores} cores (${report.machine.cpu}), ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC`)}</text>`,
    `<text x="${LEFT}" y="${top - 8}" font-weight="600">req/s, app / bare (bar = 1.0×)</text>`,
    `<text x="${p99Left}" y="${top - 8}" font-weight="600">p99 latency, ms (app ▮, bare ▯)</text>`
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
    const appP99 = row.targets.app.latencyMs.p99
    const bareP99 = row.targets.bare.latencyMs.p99
    parts.push(`<text x="${LEFT - 8}" y="${y + 16}" text-anchor="end">${escape(row.name)}</text>`)
    parts.push(`<rect x="${LEFT}" y="${y + 4}" width="${barWidth.toFixed(1)}" height="16" fill="${ratio >= 0.3 ? '#2f7d4f' : '#c0563b'}"/>`)
    parts.push(`<text x="${LEFT + barWidth + 4}" y="${y + 16}">${ratio.toFixed(3)}× (${Math.round(row.targets.app.requestsPerSecond.mean)} / ${Math.round(row.targets.bare.requestsPerSecond.mean)})</text>`)
    parts.push(`<rect x="${p99Left}" y="${y + 4}" width="${Math.max(1, appP99 / maxP99 * p99Width).toFixed(1)}" height="8" fill="#3b6fc0"/>`)
    parts.push(`<rect x="${p99Left}" y="${y + 13}" width="${Math.max(1, bareP99 / maxP99 * p99Width).toFixed(1)}" height="7" fill="none" stroke="#3b6fc0"/>`)
    parts.push(`<text x="${p99Left + Math.max(1, appP99 / maxP99 * p99Width) + 4}" y="${y + 13}" font-size="11">${appP99.toFixed(1)}</text>`)
  })
  parts.push(`<text x="16" y="${height - 12}" fill="#555">${escape('req/s: mean over rounds; bars green where app/bare ≥ 0.30 (the goal for GET svc/v1/cart). npm run bench; bench/results/latest.json has every figure.')}</text>`)
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
