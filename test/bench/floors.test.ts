/**
 * The bench's floors: which targets each scenario runs against on each storage, which floor it is judged against,
 * the goals against bare and bare+tx, and the report's floor columns. No load is generated here.
 */
import { test } from 'tap'
import { floorOf, targetsFor } from '../../bench/floors.ts'
import { goals } from '../../bench/goals.ts'
import { markdownReport } from '../../bench/report.ts'
import type { BenchReport, PerTarget, ScenarioResult, TargetName, TargetSummary } from '../../bench/report-types.ts'
import { scenarios } from '../../bench/scenarios.ts'
import { ratios } from '../../bench/stats.ts'
import { benchReport } from '../helpers/bench-report.ts'

const scenario = (name: string) => {
  const found = scenarios.find((item) => item.name === name)
  if (found === undefined) throw new Error(`no scenario ${name}`)
  return found
}

const everything = { postgres: true, redis: true }

test('each scenario runs against the floors its storage allows', async (t) => {
  t.same(targetsFor(scenario('svc-cart-3-lines'), everything), ['app', 'bare', 'bare+pg', 'bare+redis'], 'svc cart: both read floors')
  for (const name of ['store-cart-3-lines', 'store-cart-20-lines', 'drawer-data']) {
    t.same(targetsFor(scenario(name), everything), ['app', 'bare', 'bare+redis'], `${name}: bare+redis`)
  }
  for (const name of ['store-cart-1-line', 'store-cart-100-lines']) {
    t.same(targetsFor(scenario(name), everything), ['app', 'bare'], `${name}: no floor`)
  }
  for (const name of ['remove-items', 'remove-items-limiter-off', 'remove-items-warm', 'wc-ajax-add-to-cart']) {
    t.same(targetsFor(scenario(name), everything), ['app', 'bare', 'bare+tx'], `${name}: bare+tx`)
    t.same(targetsFor(scenario(name), { postgres: false, redis: true }), ['app', 'bare'], `${name}: no bare+tx without PostgreSQL`)
  }
  t.same(targetsFor(scenario('svc-cart-3-lines'), { postgres: true, redis: false }), ['app', 'bare', 'bare+pg'], 'no bare+redis without Redis')
  t.same(targetsFor(scenario('svc-cart-3-lines'), { postgres: false, redis: true }), ['app', 'bare', 'bare+redis'], 'no bare+pg on PGlite')
  t.same(targetsFor(scenario('svc-cart-3-lines'), { postgres: false, redis: false }), ['app', 'bare'], 'PGlite without Redis: bare alone')
})

test('a scenario is judged against bare+tx, else bare+redis, else bare+pg', async (t) => {
  t.equal(floorOf(['app', 'bare', 'bare+pg', 'bare+redis']), 'bare+redis')
  t.equal(floorOf(['app', 'bare', 'bare+pg']), 'bare+pg')
  t.equal(floorOf(['app', 'bare', 'bare+tx']), 'bare+tx')
  t.equal(floorOf(['app', 'bare']), undefined)
})

function summary (requestsPerSecond: number, p99: number): TargetSummary {
  const latencyMs = { p50: p99 / 2, p97_5: p99 * 0.9, p99, mean: p99 / 2, max: p99 * 2 }
  return {
    requestsPerSecond: { mean: requestsPerSecond, stddev: 0 },
    perRound: [requestsPerSecond],
    latencyMs,
    responses: requestsPerSecond * 5,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    statusCodes: { 200: requestsPerSecond * 5 }
  }
}

/** A result as `run.ts` writes it: app and bare, and each floor given, with its ratios and floor. */
function result (name: string, app: number, appP99: number, bare: number, floors: Partial<Record<'bare+pg' | 'bare+redis' | 'bare+tx', number>> = {}): ScenarioResult {
  const targets: PerTarget<TargetSummary> = { app: summary(app, appP99), bare: summary(bare, 5) }
  for (const [floor, rate] of Object.entries(floors) as Array<['bare+pg' | 'bare+redis' | 'bare+tx', number]>) targets[floor] = summary(rate, 10)
  const names = Object.keys(targets) as TargetName[]
  const ratioTo = Object.fromEntries(Object.keys(floors).map((floor) => [floor, ratios(targets.app, targets[floor as 'bare+pg']!)]))
  const floor = floorOf(names)
  return { name, description: name, bodyBytes: 1000, targets, ratio: ratios(targets.app, targets.bare), ratioTo, ...(floor === undefined ? {} : { floor }) }
}

test('the goals: reads against bare, writes against bare+tx', async (t) => {
  const found = goals([
    result('svc-cart-3-lines', 3100, 14, 10_000, { 'bare+pg': 5000, 'bare+redis': 6000 }),
    result('store-cart-3-lines', 1900, 30, 10_000, { 'bare+redis': 6000 }),
    result('drawer-data', 1600, 30, 10_000, { 'bare+redis': 6000 }),
    result('store-cart-20-lines', 1400, 30, 10_000, { 'bare+redis': 6000 }),
    result('remove-items', 2100, 30, 20_000, { 'bare+tx': 3000 }),
    result('remove-items-limiter-off', 2200, 30, 20_000, { 'bare+tx': 3000 }),
    result('wc-ajax-add-to-cart', 2000, 30, 20_000, { 'bare+tx': 3000 })
  ])
  const met = Object.fromEntries(found.map((goal) => [goal.goal, goal.met]))
  t.same(met, {
    'GET svc/v1/cart ≥ 0.30 of bare req/s': true,
    'GET svc/v1/cart p99 ≤ 15 ms': true,
    'GET svc/v1/cart 0 non-2xx': true,
    'GET wc/store/v1/cart (3 lines) ≥ 0.20 of bare req/s': false,
    'GET wc/store/v1/cart (3 lines) p99 ≤ 25 ms': false,
    'GET svc/v1/drawer-data ≥ 0.15 of bare req/s': true,
    'GET wc/store/v1/cart (20 lines) ≥ 0.15 of bare req/s': false,
    'POST svc/v1/cart/remove-items ≥ 0.70 of bare+tx req/s': true,
    'POST ?wc-ajax=add_to_cart (classic add to cart) ≥ 0.70 of bare+tx req/s': false,
    'Rate limiter on vs off ≥ 0.70': true
  }, 'each goal judged against its baseline')
  const removeItems = found.find((goal) => goal.goal.startsWith('POST svc/v1/cart/remove-items'))!
  t.equal(removeItems.figure, '0.700× (2100 vs 3000)', 'the figure names both rates')

  const onPglite = goals([result('remove-items', 2100, 30, 20_000)])
  t.same(onPglite.filter((goal) => goal.goal.includes('bare+tx')), [], 'no write goal without bare+tx')
})

function report (results: ScenarioResult[]): BenchReport {
  return benchReport({ scenarios: results })
}

test('the Markdown table shows each scenario\'s floor, and the other floors under it', async (t) => {
  const text = markdownReport(report([
    result('svc-cart-3-lines', 3000, 14, 10_000, { 'bare+pg': 5000, 'bare+redis': 6000 }),
    result('store-cart-1-line', 3000, 14, 10_000),
    result('remove-items', 2100, 30, 20_000, { 'bare+tx': 3000 })
  ]))
  t.match(text, /app, bare, bare\+pg, bare\+redis and bare\+tx alternating/)
  t.match(text, '| scenario | app req/s | bare req/s | app/bare | floor | floor req/s | app/floor | floor p99 ms |')
  t.match(text, '| svc-cart-3-lines | 3,000 | 10,000 | 0.300× | bare+redis | 6,000 | 0.500× | 10.00 |')
  t.match(text, '| store-cart-1-line | 3,000 | 10,000 | 0.300× | – | – | – | – |')
  t.match(text, '| remove-items | 2,100 | 20,000 | 0.105× | bare+tx | 3,000 | 0.700× | 10.00 |')
  t.match(text, 'svc-cart-3-lines against bare+pg too: 5,000 req/s, app/bare+pg 0.600×')
})
