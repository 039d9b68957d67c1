/**
 * `tsx bench/cpu-per-request.ts`: the app's own CPU time per request (process.cpuUsage over `inject`ed requests),
 * a figure a busy machine disturbs far less than req/s. A development aid beside `npm run bench`.
 */
import { randomBytes } from 'node:crypto'
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createMemoryRateCounter, createPgliteStorage, createPostgresStorage } from '../storage/index.ts'
import { benchProducts, BENCH_PRODUCT_FIRST_ID } from './catalog.ts'

const schema = `svc_cpu_${randomBytes(4).toString('hex')}`
const databaseUrl = process.env.DATABASE_URL
const storage = databaseUrl
  ? await createPostgresStorage({ connectionString: databaseUrl, searchPath: schema })
  : await createPgliteStorage({ dataDir: 'memory://' })
await seedDemoShop(storage, DEFAULT_SITE_URL)
await storage.upsertProducts(benchProducts(DEFAULT_SITE_URL))
const app = await buildApp({ storage, rateCounter: createMemoryRateCounter(), secrets: [randomBytes(32).toString('base64url')], siteUrl: DEFAULT_SITE_URL, shop: demoShopConfig, logger: false, rateLimitMultiplier: 1e6 })
try {
  const cart = async (ids: number[]): Promise<string> => {
    let token = (await app.inject({ method: 'GET', url: '/wp-json/wc/store/v1/cart' })).headers['cart-token'] as string
    for (const id of ids) {
      token = (await app.inject({ method: 'POST', url: '/wp-json/wc/store/v1/cart/add-item', headers: { 'cart-token': token }, payload: { id, quantity: 1 } })).headers['cart-token'] as string
    }
    return token
  }
  const three = await cart([101, 105, 103])
  const cases: Array<[string, string, string]> = [
    ['svc cart 3 lines', '/wp-json/svc/v1/cart', three],
    ['drawer-data 3 lines', '/wp-json/svc/v1/drawer-data', three],
    ['store cart 1 line', '/wp-json/wc/store/v1/cart', await cart([BENCH_PRODUCT_FIRST_ID])],
    ['store cart 20 lines', '/wp-json/wc/store/v1/cart', await cart(Array.from({ length: 20 }, (_, i) => BENCH_PRODUCT_FIRST_ID + i))],
    ['store cart 100 lines', '/wp-json/wc/store/v1/cart', await cart(Array.from({ length: 100 }, (_, i) => BENCH_PRODUCT_FIRST_ID + i))]
  ]
  const n = Number(process.env.N ?? 2000)
  for (const [name, url, token] of cases) {
    const run = async (count: number): Promise<void> => {
      const batch = 20
      for (let i = 0; i < count; i += batch) {
        await Promise.all(Array.from({ length: batch }, () => app.inject({ method: 'GET', url, headers: { 'cart-token': token } })))
      }
    }
    await run(200)
    const before = process.cpuUsage()
    const started = performance.now()
    await run(n)
    const used = process.cpuUsage(before)
    const cpu = (used.user + used.system) / 1000 / n
    console.log(`${name.padEnd(22)} ${cpu.toFixed(3)} ms CPU/request, ${((performance.now() - started) / n).toFixed(3)} ms wall/request`)
  }
} finally {
  await app.close()
  await storage.close()
  if (databaseUrl) {
    const { createPostgresClient } = await import('../storage/postgres/index.ts')
    const admin = createPostgresClient({ connectionString: databaseUrl })
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`)
    await admin.close()
  }
}
