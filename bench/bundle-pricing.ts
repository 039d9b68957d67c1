/**
 * The time to price a cart whose bundle lines hold 9,999 units of an "any two hats" bundle (two slots offering the
 * same two hats): `priceCart` with the bundles' line adjustments, as the platform runs it on every read and write, in
 * this process, without I/O. `npm run bench` measures it before the load and judges it against `BUNDLE_PRICING_GOAL_MS`;
 * `npx tsx bench/bundle-pricing.ts` prints it alone.
 */
import { fileURLToPath } from 'node:url'
import { bundleAdjustments, bundleMark, priceCart, type BundleDefinition } from '../drawer/index.ts'
import { cartItemKey } from '../kernel/domain/cart.ts'
import type { CartData } from '../kernel/domain/types.ts'
import { product } from '../seed/demo-catalog.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { BUNDLE_PRICING_GOAL_MS, BUNDLE_PRICING_UNITS } from './goals.ts'
import type { PricingResult } from './report-types.ts'

const HATS: BundleDefinition = {
  id: 'any-two-hats',
  title: 'Any two hats',
  description: '',
  discount_percent: 10,
  slots: [{ label: 'A hat', product_ids: [1, 2] }, { label: 'Another hat', product_ids: [1, 2] }]
}
const products = new Map([{ id: 1, name: 'Beanie', regularPrice: 2000 }, { id: 2, name: 'Cap', regularPrice: 1800 }]
  .map((hat) => [hat.id, product(hat, 'https://bench.example')]))

/** The cart: the beanie line 5,000 units and the cap line 4,999, both the bundle's lines. */
export function bundlePricingCart (): CartData {
  const mark = bundleMark(HATS.id)
  const line = (productId: number, quantity: number) => ({ key: cartItemKey(productId, 0, {}, mark), productId, variationId: 0, variation: {}, quantity, mark })
  const first = Math.ceil(BUNDLE_PRICING_UNITS / 2)
  return { lines: [line(1, first), line(2, BUNDLE_PRICING_UNITS - first)], coupons: [] }
}

export function priceBundleCart (cart: CartData = bundlePricingCart()) {
  return priceCart(cart, products, new Map(), demoShopConfig, new Date(), undefined, null, (lines) => bundleAdjustments(lines, [HATS]))
}

/** Prices the cart `runs` times: the first run (cold), the median and the slowest, in milliseconds. */
export function measureBundlePricing (runs = 21): PricingResult {
  const cart = bundlePricingCart()
  const times: number[] = []
  let discounted = 0
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const priced = priceBundleCart(cart)
    times.push(performance.now() - started)
    discounted = priced.lines.reduce((sum, line) => sum + line.lineOwnDiscount, 0)
  }
  const sorted = [...times].sort((a, b) => a - b)
  const round = (value: number): number => Math.round(value * 1000) / 1000
  return {
    name: 'bundle-pricing-9999-units',
    description: `priceCart of a cart with ${BUNDLE_PRICING_UNITS.toLocaleString('en-US')} units of an "any two hats" bundle (two lines)`,
    runs,
    firstMs: round(times[0]!),
    medianMs: round(sorted[Math.floor(runs / 2)]!),
    maxMs: round(sorted.at(-1)!),
    bundleDiscount: discounted
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = measureBundlePricing()
  console.log(`${result.description}: median ${result.medianMs} ms over ${result.runs} runs (first ${result.firstMs} ms, slowest ` +
    `${result.maxMs} ms); goal < ${BUNDLE_PRICING_GOAL_MS} ms; bundle discount ${result.bundleDiscount} (minor units)`)
}
