const SVG = 'http://www.w3.org/2000/svg'

export interface Series {
  name: string
  label: string
  color: string
  values: number[]
}

/** The chart's words and numbers, in the screens' language. */
export interface ChartText {
  /** A day on the x axis (`2026-07-03` → `Jul 3`). */
  day (day: string): string
  /** A number on the y axis. */
  number (value: number): string
  /** A point's title: its day, value and series (`Jul 3, 2026: 5 drawer opens`). */
  point (day: string, value: number, series: Series): string
}

function svg<K extends keyof SVGElementTagNameMap> (tag: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value))
  if (text !== undefined) element.textContent = text
  return element
}

/** A round top for the y axis: 1, 2, 5 × 10ⁿ at or above the largest value. */
export function niceMax (value: number): number {
  if (value <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power
  return 10 * power
}

/**
 * A line chart of daily counts drawn as SVG by the page: one polyline per series, a point per day with its value in
 * a `<title>` (shown on hover, read by screen readers), y grid lines and the first, middle and last day on the x axis.
 * `width` is the width it is shown at, in CSS pixels: drawn at that size, its text stays readable on a phone. Time runs
 * left to right in every language (the chart is drawn left to right on a right-to-left page too).
 */
export function lineChart (days: string[], series: Series[], title: string, text: ChartText, width = 720): SVGSVGElement {
  const height = width < 480 ? 220 : 260
  const left = 44
  const right = 12
  const top = 12
  const bottom = 28
  const plotWidth = width - left - right
  const plotHeight = height - top - bottom
  // Four whole steps from zero: counts are whole numbers.
  const step = niceMax(Math.max(1, Math.ceil(Math.max(0, ...series.flatMap((one) => one.values)) / 4)))
  const max = step * 4
  const x = (index: number) => left + (days.length <= 1 ? plotWidth / 2 : (index / (days.length - 1)) * plotWidth)
  const y = (value: number) => top + plotHeight - (value / max) * plotHeight
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title, 'data-role': 'chart', 'data-max': max, direction: 'ltr' })
  chart.appendChild(svg('title', {}, title))
  for (let tick = 0; tick <= 4; tick++) {
    const value = step * tick
    chart.appendChild(svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(value), y2: y(value) }))
    chart.appendChild(svg('text', { x: left - 6, y: y(value) + 4, 'text-anchor': 'end' }, text.number(value)))
  }
  chart.appendChild(svg('line', { class: 'axis', x1: left, x2: width - right, y1: y(0), y2: y(0) }))
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])
  for (const index of labelled) {
    const day = days[index]
    if (day === undefined) continue
    const anchor = index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle'
    chart.appendChild(svg('text', { x: x(index), y: height - 8, 'text-anchor': anchor, 'data-day': day }, text.day(day)))
  }
  for (const one of series) {
    const group = svg('g', { 'data-series': one.name })
    group.appendChild(svg('polyline', {
      class: 'series',
      stroke: one.color,
      points: one.values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(' ')
    }))
    one.values.forEach((value, index) => {
      const point = svg('circle', { cx: x(index).toFixed(1), cy: y(value).toFixed(1), r: value > 0 ? 3 : 1.5, fill: one.color, 'data-day': days[index] ?? '', 'data-value': value })
      point.appendChild(svg('title', {}, text.point(days[index] ?? '', value, one)))
      group.appendChild(point)
    })
    chart.appendChild(group)
  }
  return chart
}
