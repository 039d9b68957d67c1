import type { AdminPageConfig } from '../../plugins/admin-screens/page-config.ts'
import type { AnalyticsSummary } from '../../schemas/svc-pro-analytics.ts'
import { h } from '../dom.ts'
import { money } from '../format.ts'
import { AdminApi, explain } from './api.ts'
import { lineChart, type Series } from './chart.ts'
import { confirmAction } from './confirm.ts'
import { StatusArea } from './status.ts'

type EventType = keyof AnalyticsSummary['totals']
type Source = AnalyticsSummary['sources'][number]['source']

const EVENT_LABELS: Record<EventType, string> = {
  drawer_open: 'Drawer opens',
  drawer_close: 'Drawer closes',
  recommendation_view: 'Recommendations seen',
  recommendation_add: 'Recommendations added',
  addon_toggle: 'Add-on toggles',
  bundle_add: 'Bundles added',
  spotlight_add: 'Spotlight adds',
  coupon_apply: 'Coupons applied',
  checkout_click: 'Checkout clicks'
}
const SOURCE_LABELS: Record<Source, string> = {
  recommendation: 'Recommendations',
  spotlight: 'Spotlight offer',
  addon: 'Add-ons',
  bundle: 'Bundles'
}
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4b5563', '#65a30d']
const DEFAULT_SHOWN: EventType[] = ['drawer_open', 'recommendation_add', 'addon_toggle', 'checkout_click']

const isoDay = (date: Date) => date.toISOString().slice(0, 10)
function daysBefore (day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() - count)
  return isoDay(date)
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`

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
    const form = h('form', { class: 'admin-range', 'aria-label': 'Date range', novalidate: true },
      h('label', { for: 'range-from' }, 'From', this.#from),
      h('label', { for: 'range-to' }, 'To', this.#to),
      h('button', { type: 'submit', class: 'admin-primary', 'data-action': 'show' }, 'Show'),
      ...[7, 30, 90].map((days) => {
        const button = h('button', { type: 'button', 'data-days': days }, `Last ${days} days`)
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
    const reset = h('button', { type: 'button', class: 'admin-danger', 'data-action': 'reset-analytics' }, 'Delete all events…')
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
      h('section', { class: 'admin-card', 'aria-label': 'Range' }, form,
        h('p', { class: 'admin-downloads' }, download('days', 'Download CSV'), download('products', 'Download products (CSV)'))),
      this.#status.element,
      h('section', { class: 'admin-card', 'aria-labelledby': 'sales-title' }, h('h2', { id: 'sales-title' }, 'Sales from the drawer'), this.#sales),
      h('section', { class: 'admin-card', 'aria-labelledby': 'totals-title' }, h('h2', { id: 'totals-title' }, 'Drawer activity'), this.#totals, this.#retention),
      h('section', { class: 'admin-card', 'aria-labelledby': 'chart-title' }, h('h2', { id: 'chart-title' }, 'Events per day (UTC)'), this.#chart, this.#table),
      h('section', { class: 'admin-card', 'aria-labelledby': 'reset-title' },
        h('h2', { id: 'reset-title' }, 'Reset'),
        h('p', { class: 'admin-note' }, 'Deletes every recorded event, for every day. The settings are kept.'),
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
      this.#status.show('error', `The analytics could not be loaded: ${explain(error)}`)
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
      this.#status.show('ok', `Downloaded ${name}.`)
    } catch (error) {
      this.#status.show('error', `The file could not be downloaded: ${explain(error)}`)
    }
  }

  async reset (): Promise<void> {
    const sure = await confirmAction('Delete every recorded event?', 'The counts of every day start again from zero. This cannot be undone.', 'Delete all events')
    if (!sure) return
    try {
      const { deleted } = await this.#api.json<{ deleted: number }>('DELETE', 'analytics/reset')
      await this.load()
      this.#status.show('ok', `${deleted} ${deleted === 1 ? 'event' : 'events'} deleted.`)
    } catch (error) {
      this.#status.show('error', explain(error))
    }
  }

  #draw (): void {
    const summary = this.#summary
    if (summary === null) return
    const card = (name: string, label: string, value: string) =>
      h('div', { class: 'admin-total', 'data-total': name }, h('dt', {}, label), h('dd', {}, value))
    const types = Object.keys(EVENT_LABELS) as EventType[]
    const cash = (amount: string) => money(amount, summary.currency)
    const { orders, conversion } = summary
    const table = (label: string, heads: string[], rows: Array<Array<string | number>>) =>
      h('div', { class: 'admin-table-scroll', role: 'region', 'aria-label': label, tabindex: 0 },
        h('table', { class: 'admin-table' },
          h('thead', {}, h('tr', {}, ...heads.map((head) => h('th', { scope: 'col' }, head)))),
          h('tbody', {}, ...rows.map(([first, ...rest]) =>
            h('tr', {}, h('th', { scope: 'row', dir: 'auto' }, String(first)), ...rest.map((cell) => h('td', {}, String(cell))))))))
    this.#sales.replaceChildren(
      h('p', { class: 'admin-note' }, `${summary.from} to ${summary.to}: orders placed and not cancelled, refunded or failed. ` +
        'Amounts are the items after discounts, before tax and shipping. Only what the drawer itself added to a cart counts as its revenue.'),
      h('dl', { class: 'admin-totals' },
        card('attributed_revenue', 'Revenue from drawer items', cash(summary.attributed_revenue)),
        card('orders_with_drawer_items', 'Orders with drawer items', `${orders.with_drawer_items} of ${orders.placed}`),
        card('conversion', 'Drawer-to-order conversion', percent(conversion.rate)),
        card('average_order_value', 'Average order value', cash(orders.average_order_value)),
        card('drawer_average_order_value', 'Average order with drawer items', cash(orders.drawer_average_order_value)),
        card('attributed_units', 'Items from the drawer ordered', String(summary.attributed_units))),
      h('p', { class: 'admin-note', 'data-role': 'conversion' },
        `${conversion.carts_ordered} of ${conversion.carts_opened} ${conversion.carts_opened === 1 ? 'cart' : 'carts'} that opened the drawer went on to place an order.`),
      h('h3', {}, 'By drawer feature'),
      table('Revenue by drawer feature', ['Feature', 'Items ordered', 'Orders', 'Revenue'],
        summary.sources.map((row) => [SOURCE_LABELS[row.source], row.units, row.orders, cash(row.revenue)])),
      h('h3', {}, 'Top products from the drawer'),
      summary.top_products.length === 0
        ? h('p', { class: 'admin-note', 'data-role': 'no-products' }, 'No items the drawer added were ordered in these days.')
        : table('Top products from the drawer', ['Product', 'Items ordered', 'Orders', 'Revenue'],
          summary.top_products.map((row) => [row.name, row.units, row.orders, cash(row.revenue)])))
    this.#totals.replaceChildren(
      h('p', { class: 'admin-note' }, `${summary.from} to ${summary.to}`),
      h('dl', { class: 'admin-totals' },
        card('visitors', 'Visitors', String(summary.visitors)),
        card('drawer_adds', 'Adds from the drawer', String(summary.drawer_adds)),
        card('add_to_cart_rate', 'Adds per drawer open', percent(summary.add_to_cart_rate)),
        ...types.map((type) => card(type, EVENT_LABELS[type], String(summary.totals[type])))))
    this.#retention.replaceChildren(
      `Activity is kept for ${summary.retention_days} ${summary.retention_days === 1 ? 'day' : 'days'}; older events are deleted (orders are kept by the shop). `,
      h('a', { href: `${this.#config.urls.settings}#section-analytics` }, 'Change this in the settings'), '.')
    const days = summary.daily.map((day) => day.day)
    const series: Series[] = types.filter((type) => this.#shown.has(type)).map((type) => ({
      name: type,
      label: EVENT_LABELS[type],
      color: COLORS[types.indexOf(type)] ?? '#111827',
      values: summary.daily.map((day) => day.counts[type])
    }))
    const legend = h('ul', { class: 'admin-legend', 'aria-label': 'Series shown' }, ...types.map((type) => {
      const box = h('input', { type: 'checkbox', checked: this.#shown.has(type), 'data-series-toggle': type })
      box.addEventListener('change', () => {
        if (box.checked) this.#shown.add(type)
        else this.#shown.delete(type)
        this.#draw()
      })
      const swatch = h('span', { class: 'admin-swatch', 'aria-hidden': 'true' })
      swatch.style.background = COLORS[types.indexOf(type)] ?? '#111827'
      return h('li', {}, h('label', {}, box, swatch, EVENT_LABELS[type]))
    }))
    this.#drawnWidth = this.#chartWidth()
    this.#chart.replaceChildren(lineChart(days, series, `Daily events from ${summary.from} to ${summary.to}`, this.#drawnWidth), legend)
    this.#table.replaceChildren(h('details', {},
      h('summary', {}, 'The numbers as a table'),
      // Wider than a phone: the table scrolls sideways on its own (by keyboard too), the page does not.
      h('div', { class: 'admin-table-scroll', role: 'region', 'aria-label': 'Events per day, as a table', tabindex: 0 },
        h('table', { class: 'admin-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), ...types.map((type) => h('th', { scope: 'col' }, EVENT_LABELS[type])))),
          h('tbody', {}, ...summary.daily.map((day) =>
            h('tr', {}, h('th', { scope: 'row' }, day.day), ...types.map((type) => h('td', {}, String(day.counts[type]))))))))))
  }
}
