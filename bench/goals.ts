/**
 * The performance goals, checked against a run's figures (those the run has). Throughput goals
 * are ratios of the app's req/s to a baseline's in the same run: bare for the reads, the bare+tx write floor for the
 * writes (a goal against bare+tx is left out of a run without it, on PGlite).
 */
import { ratioToFloor, type FloorTarget } from './floors.ts'
import type { Goal, PricingResult, ScaleReport, ScenarioResult } from './report-types.ts'

/** Pricing the cart of bench/bundle-pricing.ts, its bundle lines holding this many units, takes less than the goal. */
export const BUNDLE_PRICING_UNITS = 9_999
export const BUNDLE_PRICING_GOAL_MS = 50

export const pct = (value: number): string => `${(value * 100).toFixed(1)} %`
const x = (value: number): string => `${value.toFixed(3)}×`

/**
 * One route's throughput goal: app req/s at least `min` of `of`'s; where given, the app's p99 at most `p99Ms`, and
 * no non-2xx answer or error (`noErrors`).
 */
export interface ThroughputGoal {
  scenario: string
  route: string
  of: 'bare' | FloorTarget
  min: number
  p99Ms?: number
  noErrors?: true
}

export const THROUGHPUT_GOALS: readonly ThroughputGoal[] = [
  { scenario: 'svc-cart-3-lines', route: 'GET svc/v1/cart', of: 'bare', min: 0.30, p99Ms: 15, noErrors: true },
  { scenario: 'store-cart-3-lines', route: 'GET wc/store/v1/cart (3 lines)', of: 'bare', min: 0.20, p99Ms: 25 },
  { scenario: 'drawer-data', route: 'GET svc/v1/drawer-data', of: 'bare', min: 0.15 },
  { scenario: 'store-cart-20-lines', route: 'GET wc/store/v1/cart (20 lines)', of: 'bare', min: 0.15 },
  { scenario: 'remove-items', route: 'POST svc/v1/cart/remove-items', of: 'bare+tx', min: 0.70 },
  { scenario: 'remove-items-warm', route: 'POST svc/v1/cart/remove-items, cart last written through the app', of: 'bare+tx', min: 0.70 },
  { scenario: 'wc-ajax-add-to-cart', route: 'POST ?wc-ajax=add_to_cart (classic add to cart)', of: 'bare+tx', min: 0.70 }
]

/** The app's req/s over the baseline's, or undefined when the scenario did not run against it. */
export function ratioOf (result: ScenarioResult, of: ThroughputGoal['of']): number | undefined {
  if (of === 'bare') return result.ratio.requestsPerSecond
  return ratioToFloor(result, of)?.requestsPerSecond
}

function throughputGoals (byName: Map<string, ScenarioResult>): Goal[] {
  return THROUGHPUT_GOALS.flatMap((goal) => {
    const result = byName.get(goal.scenario)
    const ratio = result === undefined ? undefined : ratioOf(result, goal.of)
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

export function goals (results: ScenarioResult[], scale: ScaleReport, pricing: readonly PricingResult[] = []): Goal[] {
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
  const carts = scale.carts ?? []
  if (carts.length >= 2) {
    // The smallest size may have run twice, before and after the largest (`cartsRunOrder`): it is judged against both.
    const least = Math.min(...carts.map((run) => run.carts))
    const most = Math.max(...carts.map((run) => run.carts))
    const smallest = carts.filter((run) => run.carts === least)
    const largest = carts.find((run) => run.carts === most)!
    // Judged on app/bare at each size: bare alternates with the app in every round, so the ratio cancels what the
    // machine was doing meanwhile, which moves raw req/s between two sizes' rounds by more than 10 % on a shared box.
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
    const reference = mean(smallest.map((run) => run.result.ratio.requestsPerSecond))
    const ratio = largest.result.ratio.requestsPerSecond / reference
    const raw = largest.result.targets.app.requestsPerSecond.mean / mean(smallest.map((run) => run.result.targets.app.requestsPerSecond.mean))
    const each = smallest.map((run) => x(run.result.ratio.requestsPerSecond)).join(' and ')
    found.push({
      goal: `${largest.carts.toLocaleString('en-US')} carts vs ${least.toLocaleString('en-US')}: within 10 % (app/bare at each size` +
        `${smallest.length > 1 ? `; ${least.toLocaleString('en-US')} measured before and after, their mean` : ''})`,
      figure: `${x(ratio)} (app/bare ${x(largest.result.ratio.requestsPerSecond)} vs ${each}; ` +
        `app req/s ${x(raw)}), p99 ${largest.result.targets.app.latencyMs.p99.toFixed(2)} vs ` +
        `${smallest.map((run) => run.result.targets.app.latencyMs.p99.toFixed(2)).join(' and ')} ms`,
      met: Math.abs(1 - ratio) <= 0.1
    })
  }
  if (scale.visitors !== undefined) {
    const v = scale.visitors
    found.push({
      goal: 'Redis keys of expired windows are gone',
      figure: `${v.afterLoad.keys} keys after the load, ${v.afterWindow.keys} after the window; used_memory ` +
        `${mib(v.before.usedMemoryBytes)} before, ${mib(v.peakMemoryBytes)} peak, ${mib(v.afterWindow.usedMemoryBytes)} after the window`,
      met: v.afterWindow.keys === 0
    })
  }
  if (scale.soak !== undefined) {
    const { rss } = scale.soak
    const heap = rss.heapAfterCollection
    // What a leak would raise, shown beside the RSS (which also follows the collector's heap limit).
    const heapKept = heap === undefined ? '' : `; heap kept after a full collection ${heap.first.heapMiB} and ${heap.last.heapMiB} MiB (drift ${pct(heap.drift)})`
    found.push({
      goal: `RSS stable ±10 % over the ${scale.soak.seconds} s mixed run (lowest of the first and of the last minute)`,
      figure: `${rss.firstMinuteFloorMiB} MiB in the first minute after warm-up, ${rss.lastMinuteFloorMiB} MiB in the last ` +
        `(drift ${pct(rss.floorDrift)}); single samples ${rss.referenceMiB} MiB after warm-up, ${rss.lastMiB} MiB at the end, ` +
        `spread ${pct(rss.spread)}${heapKept}`,
      // The floors (the heap after collection) are judged: a leak raises them; the saw-tooth is shown, not judged.
      met: Math.abs(rss.floorDrift) <= 0.1
    })
  }
  return found
}

export function mib (bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`
}
