/** The performance issue's goals, checked against a run's figures (those the run has). */
import type { Goal, ScaleReport, ScenarioResult } from './report.ts'

const pct = (value: number): string => `${(value * 100).toFixed(1)} %`
const x = (value: number): string => `${value.toFixed(3)}×`

export function goals (results: ScenarioResult[], scale: ScaleReport): Goal[] {
  const found: Goal[] = []
  const byName = new Map(results.map((result) => [result.name, result]))
  const svcCart = byName.get('svc-cart-3-lines')
  if (svcCart !== undefined) {
    const app = svcCart.targets.app
    found.push({ goal: 'GET svc/v1/cart ≥ 0.30 of bare req/s', figure: x(svcCart.ratio.requestsPerSecond), met: svcCart.ratio.requestsPerSecond >= 0.3 })
    found.push({ goal: 'GET svc/v1/cart p99 ≤ 15 ms', figure: `${app.latencyMs.p99.toFixed(2)} ms`, met: app.latencyMs.p99 <= 15 })
    found.push({ goal: 'GET svc/v1/cart 0 non-2xx', figure: String(app.non2xx + app.errors), met: app.non2xx + app.errors === 0 })
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
    const smallest = carts[0]!
    const largest = carts.at(-1)!
    // Judged on app/bare at each size: bare alternates with the app in every round, so the ratio cancels what the
    // machine was doing meanwhile, which moves raw req/s between two sizes' rounds by more than 10 % on a shared box.
    const ratio = largest.result.ratio.requestsPerSecond / smallest.result.ratio.requestsPerSecond
    const raw = largest.result.targets.app.requestsPerSecond.mean / smallest.result.targets.app.requestsPerSecond.mean
    found.push({
      goal: `${largest.carts.toLocaleString('en-US')} carts vs ${smallest.carts.toLocaleString('en-US')}: within 10 % (app/bare at each size)`,
      figure: `${x(ratio)} (app/bare ${x(largest.result.ratio.requestsPerSecond)} vs ${x(smallest.result.ratio.requestsPerSecond)}; ` +
        `app req/s ${x(raw)}), p99 ${largest.result.targets.app.latencyMs.p99.toFixed(2)} vs ${smallest.result.targets.app.latencyMs.p99.toFixed(2)} ms`,
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
    found.push({
      goal: `RSS stable ±10 % over the ${scale.soak.seconds} s mixed run (lowest of the first and of the last minute)`,
      figure: `${rss.firstMinuteFloorMiB} MiB in the first minute after warm-up, ${rss.lastMinuteFloorMiB} MiB in the last ` +
        `(drift ${pct(rss.floorDrift)}); single samples ${rss.referenceMiB} MiB after warm-up, ${rss.lastMiB} MiB at the end, ` +
        `spread ${pct(rss.spread)}`,
      // The floors (the heap after collection) are judged: a leak raises them; the saw-tooth is shown, not judged.
      met: Math.abs(rss.floorDrift) <= 0.1
    })
  }
  return found
}

export function mib (bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`
}
