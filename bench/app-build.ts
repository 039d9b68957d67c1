/**
 * How long building the whole app takes, as the tests build it (test/helper.ts `build`: `buildApp` with the demo
 * shop's configuration, then `ready()`), N times in one process. The storage is the in-memory one and is not seeded,
 * so only the app's construction is timed: plugins, routes, and their schemas' validators and serializers.
 *
 *   npx tsx --conditions=svc-source bench/app-build.ts [N=20] [free|pro]
 *
 * Prints the first build (the process's first: modules loaded, every schema compiled), the mean and median of the
 * others, and the minimum, in milliseconds of wall time; and the mean CPU time (user + system) of the others, which a
 * busy machine disturbs less. With `--cpu-prof` on node (node --conditions=svc-source --import tsx --cpu-prof
 * bench/app-build.ts) it gives the profile of the same work.
 */
import { performance } from 'node:perf_hooks'
import { cpuUsage } from 'node:process'
import { buildApp } from '../app.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { createMemoryRateCounter, createMemoryStorage } from '../storage/memory/index.ts'

const count = Number(process.argv[2] ?? 20)
const edition = process.argv[3] ?? 'free'
if (!Number.isInteger(count) || count < 2 || (edition !== 'free' && edition !== 'pro')) {
  console.error('usage: bench/app-build.ts [N >= 2] [free|pro]')
  process.exit(2)
}

const storage = createMemoryStorage()
const rateCounter = createMemoryRateCounter()
const times: number[] = []
const cpuTimes: number[] = []
for (let i = 0; i < count; i++) {
  const start = performance.now()
  const cpuStart = cpuUsage()
  const app = await buildApp({
    storage,
    rateCounter,
    secrets: ['bench-secret-that-is-at-least-32-bytes-long'],
    siteUrl: 'http://shop.test',
    shop: demoShopConfig,
    edition,
    sweep: false
  })
  await app.ready()
  times.push(performance.now() - start)
  const cpu = cpuUsage(cpuStart)
  cpuTimes.push((cpu.user + cpu.system) / 1000)
  await app.close()
}
await rateCounter.close()
await storage.close()

const rest = times.slice(1).sort((a, b) => a - b)
const round = (ms: number): number => Math.round(ms)
console.log(JSON.stringify({
  builds: count,
  edition,
  firstMs: round(times[0]!),
  meanMs: round(rest.reduce((sum, ms) => sum + ms, 0) / rest.length),
  medianMs: round(rest[Math.floor(rest.length / 2)]!),
  minMs: round(rest[0]!),
  cpuMeanMs: round(cpuTimes.slice(1).reduce((sum, ms) => sum + ms, 0) / (count - 1))
}))
