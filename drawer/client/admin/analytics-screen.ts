import type { AdminPageConfig } from '../../schemas/admin-page-config.ts'
import type { AnalyticsSummary } from '../../schemas/svc-pro-analytics.ts'
import type { AdminMessageId } from '../../../kernel/i18n/admin/en.ts'
import { h } from '../dom.ts'
import { AdminApi, explain } from './api.ts'
import { lineChart, type Series } from './chart.ts'
import { confirmAction } from './confirm.ts'
import { formatDay, formatMoney, formatNumber, t, tNodes } from './i18n.ts'
import { StatusArea } from './status.ts'

type EventType = keyof AnalyticsSummary['totals']
type Source = AnalyticsSummary['sources'][number]['source']

/**
 * Every event type, in the order of the cards, the chart's colours and the table's columns (a record: a new type is a
 * compile error here until it has its place; its words are `analytics.event.<type>` and `analytics.point.<type>`).
 */
const EVENT_ORDER: Record<EventType, true> = {
  drawer_open: true,
  drawer_close: true,
  recommendation_view: true,
  recommendation_add: true,
  addon_toggle: true,
  bundle_add: true,
  spotlight_add: true,
  coupon_apply: true,
  checkout_click: true
}
const EVENT_TYPES = Object.keys(EVENT_ORDER) as EventType[]
const eventLabel = (type: EventType): string => t(`analytics.event.${type}` as AdminMessageId)
const sourceLabel = (source: Source): string => t(`analytics.source.${source}` as AdminMessageId)
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4b5563', '#65a30d']
const DEFAULT_SHOWN: EventType[] = ['drawer_open', 'recommendation_add', 'addon_toggle', 'checkout_click']

const isoDay = (date: Date) => date.toISOString().slice(0, 10)
function daysBefore (day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - count)
  return isoDay(date)
}

const percent = (rate: number) => formatNumber(rate, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
const count = (value: number) => formatNumber(value)
/** A day of the summary (`2026-07-03`) in the screens' language. */
const day = (iso: string) => formatDay(iso)

/**
 * The analytics dashboard (Pro): a range of days; the sales the drawer brought (from placed orders), by feature and
 * by product; the drawer's activity (from its events) with a chart of the daily series; CSV downloads; reset.
 */
export class AnalyticsScreen {
  readonly #config: AdminPageConfig
  readonly #api: AdminApi
  readonly #root: HTMLElement
  readonly #status = new StatusArea()
  readonly #sales = h('div', { 'data-role': 'sales' })
  readonly #retention = h('p', { class: 'admin-note', 'data-role': 'retention' })
  readonly #from = h('input', { type: 'date', id: 'range-from', required: true })
  readonly #to = h('input', { type: 'date', id: 'range-to', required: true })
  readonly #totals = h('div', { 'data-role': 'totals' })
  readonly #chart = h('div', { class: 'admin-chart', 'data-role': 'chart-area' })
  readonly #table = h('div', {})
  readonly #shown = new Set<EventType>(DEFAULT_SHOWN)
  #summary: AnalyticsSummary | null = null
  #drawnWidth = 0

  constructor (config: AdminPageConfig, root: HTMLElement) {
    this.#config = config
    this.#api = new AdminApi(config)
    this.#root = root
    const today = isoDay(new Date())
    this.#to.value = today
    this.#from.value = daysBefore(today, 29)
  }

  /** The chart's width in CSS pixels: the width of its card, so it is drawn at the size it is seen. */
  #chartWidth (): number {
    return Math.max(280, Math.round(this.#chart.clientWidth) || 720)
  }

  async start (): Promise<void> {
    // A window that changes width (a phone turned, a window resized) gets the chart drawn again at the new width.
    window.addEventListener('resize', () => {
      if (this.#summary !== null && Math.abs(this.#chartWidth() - this.#drawnWidth) > 8) this.#draw()
    })
    const form = h('form', { class: 'admin-range', 'aria-label': t('analytics.range'), novalidate: true },
      h('label', { for: 'range-from' }, t('analytics.from'), this.#from),
      h('label', { for: 'range-to' }, t('analytics.to'), this.#to),
      h('button', { type: 'submit', class: 'admin-primary', 'data-action': 'show' }, t('analytics.show')),
      ...[7, 30, 90].map((days) => {
        const button = h('button', { type: 'button', 'data-days': days }, t('analytics.lastDays', { days }))
        button.addEventListener('click', () => {
          this.#to.value = isoDay(new Date())
          this.#from.value = daysBefore(this.#to.value, days - 1)
          this.load().catch(() => {})
        })
        return button
      }))
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      this.load().catch(() => {})
    })
    const reset = h('button', { type: 'button', class: 'admin-danger', 'data-action': 'reset-analytics' }, t('analytics.resetButton'))
    reset.addEventListener('click', () => { this.reset().catch(() => {}) })
    const download = (report: 'days' | 'products', label: string) => {
      const link = h('a', { href: '#', class: 'admin-download', 'data-action': 'download-csv', 'data-report': report }, label)
      link.addEventListener('click', (event) => {
        event.preventDefault()
        this.download(report).catch(() => {})
      })
      return link
    }
    this.#root.replaceChildren(
      h('section', { class: 'admin-card', 'aria-label': t('analytics.rangeCard') }, form,
        h('p', { class: 'admin-downloads' }, download('days', t('analytics.downloadDays')), download('products', t('analytics.downloadProducts')))),
      this.#status.element,
      h('section', { class: 'admin-card', 'aria-labelledby': 'sales-title' }, h('h2', { id: 'sales-title' }, t('analytics.salesTitle')), this.#sales),
      h('section', { class: 'admin-card', 'aria-labelledby': 'totals-title' }, h('h2', { id: 'totals-title' }, t('analytics.activityTitle')), this.#totals, this.#retention),
      h('section', { class: 'admin-card', 'aria-labelledby': 'chart-title' }, h('h2', { id: 'chart-title' }, t('analytics.chartTitle')), this.#chart, this.#table),
      h('section', { class: 'admin-card', 'aria-labelledby': 'reset-title' },
        h('h2', { id: 'reset-title' }, t('analytics.resetTitle')),
        h('p', { class: 'admin-note' }, t('analytics.resetNote')),
        reset))
    this.#root.removeAttribute('aria-busy')
    await this.load()
  }

  async load (): Promise<void> {
    this.#root.setAttribute('aria-busy', 'true')
    try {
      const query = new URLSearchParams({ from: this.#from.value, to: this.#to.value })
      this.#summary = await this.#api.json<AnalyticsSummary>('GET', `analytics/summary?${query}`)
      this.#status.clear()
      this.#draw()
    } catch (error) {
      this.#status.show('error', tNodes('analytics.loadFailed', { reason: explain(error) }))
    } finally {
      this.#root.removeAttribute('aria-busy')
    }
  }

  /** Downloads the range as CSV (the file the server names), with the manager's nonce. */
  async download (report: 'days' | 'products'): Promise<void> {
    try {
      const query = new URLSearchParams({ from: this.#from.value, to: this.#to.value, report })
      const response = await this.#api.response('GET', `analytics/export?${query}`)
      const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `drawer-analytics-${report}.csv`
      const url = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type: 'text/csv' }))
      const link = h('a', { href: url, download: name, hidden: true })
      document.body.appendChild(link)
      link.click()
      link.remove()
      setTimeout(() => { URL.revokeObjectURL(url) }, 60_000)
      this.#status.show('ok', t('analytics.downloaded', { file: name }))
    } catch (error) {
      this.#status.show('error', tNodes('analytics.downloadFailed', { reason: explain(error) }))
    }
  }

  async reset (): Promise<void> {
    const sure = await confirmAction(t('analytics.resetAsk'), t('analytics.resetDetail'), t('analytics.resetConfirm'))
    if (!sure) return
    try {
      const { deleted } = await this.#api.json<{ deleted: number }>('DELETE', 'analytics/reset')
      await this.load()
      this.#status.show('ok', t('analytics.deleted', { count: deleted }))
    } catch (error) {
      this.#status.show('error', explain(error))
    }
  }

  #draw (): void {
    const summary = this.#summary
    if (summary === null) return
    const card = (name: string, label: string, value: string) =>
      h('div', { class: 'admin-total', 'data-total': name }, h('dt', {}, label), h('dd', {}, value))
    const types = EVENT_TYPES
    const cash = (amount: string) => formatMoney(amount, summary.currency)
    const from = day(summary.from)
    const to = day(summary.to)
    const { orders, conversion } = summary
    const table = (label: string, heads: string[], rows: Array<[string | HTMLElement, ...Array<string | number>]>) =>
      h('div', { class: 'admin-table-scroll', role: 'region', 'aria-label': label, tabindex: 0 },
        h('table', { class: 'admin-table' },
          h('thead', {}, h('tr', {}, ...heads.map((head) => h('th', { scope: 'col' }, head)))),
          h('tbody', {}, ...rows.map(([first, ...rest]) =>
            h('tr', {}, h('th', { scope: 'row', dir: 'auto' }, first), ...rest.map((cell) => h('td', {}, typeof cell === 'number' ? count(cell) : cell)))))))
    this.#sales.replaceChildren(
      h('p', { class: 'admin-note' }, t('analytics.salesNote', { from, to })),
      h('dl', { class: 'admin-totals' },
        card('attributed_revenue', t('analytics.revenue'), cash(summary.attributed_revenue)),
        card('orders_with_drawer_items', t('analytics.ordersWith'), t('analytics.ordersOf', { count: orders.with_drawer_items, total: orders.placed })),
        card('conversion', t('analytics.conversion'), percent(conversion.rate)),
        card('average_order_value', t('analytics.aov'), cash(orders.average_order_value)),
        card('drawer_average_order_value', t('analytics.drawerAov'), cash(orders.drawer_average_order_value)),
        card('attributed_units', t('analytics.units'), count(summary.attributed_units))),
      h('p', { class: 'admin-note', 'data-role': 'conversion' },
        t('analytics.conversionNote', { ordered: conversion.carts_ordered, opened: conversion.carts_opened })),
      h('h3', {}, t('analytics.byFeature')),
      table(t('analytics.byFeatureTable'), [t('analytics.feature'), t('analytics.itemsOrdered'), t('analytics.orders'), t('analytics.revenueColumn')],
        summary.sources.map((row) => [sourceLabel(row.source), row.units, row.orders, cash(row.revenue)])),
      h('h3', {}, t('analytics.topProducts')),
      summary.top_products.length === 0
        ? h('p', { class: 'admin-note', 'data-role': 'no-products' }, t('analytics.noProducts'))
        : table(t('analytics.topProducts'), [t('analytics.product'), t('analytics.itemsOrdered'), t('analytics.orders'), t('analytics.revenueColumn')],
          summary.top_products.map((row) => [h('span', { translate: 'no' }, row.name), row.units, row.orders, cash(row.revenue)])))
    this.#totals.replaceChildren(
      h('p', { class: 'admin-note' }, t('analytics.period', { from, to })),
      h('dl', { class: 'admin-totals' },
        card('visitors', t('analytics.visitors'), count(summary.visitors)),
        card('drawer_adds', t('analytics.drawerAdds'), count(summary.drawer_adds)),
        card('add_to_cart_rate', t('analytics.addRate'), percent(summary.add_to_cart_rate)),
        ...types.map((type) => card(type, eventLabel(type), count(summary.totals[type])))))
    this.#retention.replaceChildren(...tNodes('analytics.retention', {
      days: summary.retention_days,
      link: h('a', { href: `${this.#config.urls.settings}#section-analytics` }, t('analytics.retentionLink'))
    }))
    const days = summary.daily.map((day) => day.day)
    const series: Series[] = types.filter((type) => this.#shown.has(type)).map((type) => ({
      name: type,
      label: eventLabel(type),
      color: COLORS[types.indexOf(type)] ?? '#111827',
      values: summary.daily.map((day) => day.counts[type])
    }))
    const legend = h('ul', { class: 'admin-legend', 'aria-label': t('analytics.series') }, ...types.map((type) => {
      const box = h('input', { type: 'checkbox', checked: this.#shown.has(type), 'data-series-toggle': type })
      box.addEventListener('change', () => {
        if (box.checked) this.#shown.add(type)
        else this.#shown.delete(type)
        this.#draw()
      })
      const swatch = h('span', { class: 'admin-swatch', 'aria-hidden': 'true' })
      swatch.style.background = COLORS[types.indexOf(type)] ?? '#111827'
      return h('li', {}, h('label', {}, box, swatch, eventLabel(type)))
    }))
    this.#drawnWidth = this.#chartWidth()
    this.#chart.replaceChildren(lineChart(days, series, t('analytics.chart', { from, to }), {
      day: (iso) => formatDay(iso, { month: 'short', day: 'numeric' }),
      number: count,
      point: (iso, value, one) => t(`analytics.point.${one.name}` as AdminMessageId, { day: day(iso), count: value })
    }, this.#drawnWidth), legend)
    this.#table.replaceChildren(h('details', {},
      h('summary', {}, t('analytics.asTable')),
      // Wider than a phone: the table scrolls sideways on its own (by keyboard too), the page does not.
      h('div', { class: 'admin-table-scroll', role: 'region', 'aria-label': t('analytics.tableLabel'), tabindex: 0 },
        h('table', { class: 'admin-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('analytics.day')), ...types.map((type) => h('th', { scope: 'col' }, eventLabel(type))))),
          h('tbody', {}, ...summary.daily.map((row) =>
            h('tr', {}, h('th', { scope: 'row' }, h('time', { datetime: row.day }, day(row.day))), ...types.map((type) => h('td', {}, count(row.counts[type]))))))))))
  }
}
