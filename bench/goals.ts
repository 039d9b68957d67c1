/**
 * The performance goals, checked against a run's figures (those the run has). Throughput goals are ratios of the app's
 * req/s to a baseline's in the same run: bare for the reads, the bare+tx write floor for the writes (a goal against
 * bare+tx is left out of a run without it, on PGlite).
 */
import type { FloorTarget, Goal, PricingResult, ScenarioResult } from './report-types.ts'

/** Pricing the cart of bench/bundle-pricing.ts, its bundle lines holding this many units, takes less than the goal. */
export const BUNDLE_PRICING_UNITS = 9_999
export const BUNDLE_PRICING_GOAL_MS = 50

const x = (value: number): string => `${value.toFixed(3)}×`

/** App req/s at least `min` of `of`'s; where given, the app's p99 at most `p99Ms`, and no non-2xx or error. */
interface ThroughputGoal { scenario: string, route: string, of: 'bare' | FloorTarget, min: number, p99Ms?: number, noErrors?: true }

const THROUGHPUT_GOALS: readonly ThroughputGoal[] = [
  { scenario: 'svc-cart-3-lines', route: 'GET svc/v1/cart', of: 'bare', min: 0.30, p99Ms: 15, noErrors: true },
  { scenario: 'store-cart-3-lines', route: 'GET wc/store/v1/cart (3 lines)', of: 'bare', min: 0.20, p99Ms: 25 },
  { scenario: 'drawer-data', route: 'GET svc/v1/drawer-data', of: 'bare', min: 0.15 },
  { scenario: 'store-cart-20-lines', route: 'GET wc/store/v1/cart (20 lines)', of: 'bare', min: 0.15 },
  { scenario: 'remove-items', route: 'POST svc/v1/cart/remove-items', of: 'bare+tx', min: 0.70 },
  { scenario: 'remove-items-warm', route: 'POST svc/v1/cart/remove-items, cart last written through the app', of: 'bare+tx', min: 0.70 },
  { scenario: 'wc-ajax-add-to-cart', route: 'POST ?wc-ajax=add_to_cart (classic add to cart)', of: 'bare+tx', min: 0.70 }
]

function throughputGoals (byName: Map<string, ScenarioResult>): Goal[] {
  return THROUGHPUT_GOALS.flatMap((goal) => {
    const result = byName.get(goal.scenario)
    const ratio = goal.of === 'bare' ? result?.ratio.requestsPerSecond : result?.ratioTo[goal.of]?.requestsPerSecond
    if (result === undefined || ratio === undefined) return []
    const app = result.targets.app
    const of = result.targets[goal.of]!
    const found: Goal[] = [{
      goal: `${goal.route} ≥ ${goal.min.toFixed(2)} of ${goal.of} req/s`,
      figure: `${x(ratio)} (${Math.round(app.requestsPerSecond.mean)} vs ${Math.round(of.requestsPerSecond.mean)})`,
      met: ratio >= goal.min
    }]
    if (goal.p99Ms !== undefined) {
      found.push({ goal: `${goal.route} p99 ≤ ${goal.p99Ms} ms`, figure: `${app.latencyMs.p99.toFixed(2)} ms`, met: app.latencyMs.p99 <= goal.p99Ms })
    }
    if (goal.noErrors === true) {
      found.push({ goal: `${goal.route} 0 non-2xx`, figure: String(app.non2xx + app.errors), met: app.non2xx + app.errors === 0 })
    }
    return found
  })
}

export function goals (results: readonly ScenarioResult[], pricing: readonly PricingResult[] = []): Goal[] {
  const byName = new Map(results.map((result) => [result.name, result]))
  const found: Goal[] = throughputGoals(byName)
  for (const priced of pricing) {
    found.push({
      goal: `Pricing a cart of ${BUNDLE_PRICING_UNITS.toLocaleString('en-US')} units of an "any two hats" bundle < ${BUNDLE_PRICING_GOAL_MS} ms (the slowest of its runs)`,
      figure: `${priced.maxMs.toFixed(3)} ms slowest of ${priced.runs} runs (first ${priced.firstMs.toFixed(3)} ms, median ${priced.medianMs.toFixed(3)} ms)`,
      met: priced.maxMs < BUNDLE_PRICING_GOAL_MS
    })
  }
  const one = byName.get('store-cart-1-line')
  const hundred = byName.get('store-cart-100-lines')
  if (one !== undefined && hundred !== undefined) {
    // Time per request under the same load: the inverse of the throughput.
    const times = one.targets.app.requestsPerSecond.mean / hundred.targets.app.requestsPerSecond.mean
    found.push({
      goal: 'Store API cart: 100 lines ≤ 5× the time of 1 line',
      figure: `${x(times)} (req/s ${Math.round(one.targets.app.requestsPerSecond.mean)} vs ${Math.round(hundred.targets.app.requestsPerSecond.mean)}; ` +
        `mean latency ${x(hundred.targets.app.latencyMs.mean / one.targets.app.latencyMs.mean)})`,
      met: times <= 5
    })
  }
  const on = byName.get('remove-items')
  const off = byName.get('remove-items-limiter-off')
  if (on !== undefined && off !== undefined) {
    const ratio = on.targets.app.requestsPerSecond.mean / off.targets.app.requestsPerSecond.mean
    found.push({ goal: 'Rate limiter on vs off ≥ 0.70', figure: x(ratio), met: ratio >= 0.7 })
  }
  return found
}
