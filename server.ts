import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { buildApp } from './app.ts'
import { DEFAULT_DEMO_USERS, EnvError, readEnv, type ServerEnv } from './config/env.ts'
import { loggerOptions, prettyStream } from './config/logger.ts'
import { ADMIN_BASE } from './drawer/index.ts'
import { demoShopConfig } from './seed/demo-config.ts'
import { demoCoupons } from './seed/demo-catalog.ts'
import { seedDemoShop, seedDemoUsers } from './seed/seed.ts'
import { seedDemoSettings } from './seed/demo-settings.ts'
import { createRateCounter, createStorage } from './storage/index.ts'

function loadEnv (): ServerEnv {
  try {
    return readEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

const env = loadEnv()
if (!env.databaseUrl) await mkdir(env.dataDir, { recursive: true })
const storage = await createStorage(env)
const rateCounter = createRateCounter(env)
const secrets = env.secrets.length > 0
  ? env.secrets
  : [await storage.getOrCreateMeta('signing_secret', () => randomBytes(32).toString('base64url'))]
// The demo catalog and coupons only in demo mode; the accounts whenever they are configured (env.users).
const seeded = env.demo && await seedDemoShop(storage, env.homeUrl)
await seedDemoUsers(storage, env.users)
// The demo's drawer settings (rewards; in Pro add-ons, a bundle, a spotlight) while the settings were never saved.
if (env.demo) await seedDemoSettings(storage, env.edition)

const app = await buildApp({
  storage,
  rateCounter,
  secrets,
  siteUrl: env.siteUrl,
  homeUrl: env.homeUrl,
  edition: env.edition,
  allowedOrigins: env.allowedOrigins,
  // Every rate limit's client, and Fastify's trustProxy: X-Forwarded-Proto (https cookies) and X-Forwarded-For are
  // believed from these proxies only.
  trustedProxyCidrs: env.trustedProxyCidrs,
  shop: demoShopConfig,
  logger: loggerOptions(env.logLevel, env.logFormat === 'pretty' ? prettyStream(process.stdout, process.stdout.isTTY === true) : undefined)
})

/** How long requests in flight may take to finish once a stop signal arrived. */
const SHUTDOWN_GRACE_MS = 25_000
let closing = false
async function shutdown (signal: string) {
  if (closing) return
  closing = true
  app.log.info({ signal }, 'shutting down: finishing requests in flight')
  // A keep-alive connection that was busy when closing began turns idle after its answer; close it then, instead
  // of waiting for its keep-alive timeout (72 s). Requests still running after the grace period are cut.
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 100)
  const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS)
  try {
    await app.close()
  } finally {
    clearInterval(sweeper)
    clearTimeout(deadline)
    await Promise.allSettled([storage.close(), rateCounter.close()])
  }
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    shutdown(signal).catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
  })
}

try {
  await app.listen({ port: env.port, host: env.host })
} catch (error) {
  console.error(`Cannot listen on ${env.host}:${env.port}: ${(error as Error).message}`)
  await app.close()
  await Promise.allSettled([storage.close(), rateCounter.close()])
  process.exit(1)
}
// The addresses are the site URL's: the origin the drawer and the admin screen are allowed to call from.
const site = env.siteUrl.replace(/\/+$/, '')
// Only the built-in demo passwords are printed; one given in the environment stays out of the logs.
const login = (role: 'admin' | 'shopper', title: string) => {
  const account = env.users[role]
  if (account === undefined) return null
  const shown = account.password === DEFAULT_DEMO_USERS[role].password ? account.password : `(from SVC_${role.toUpperCase()}_PASSWORD)`
  return `  ${title.padEnd(15)}${account.email} / ${shown}`
}
const lines = [
  `${env.demo ? 'Demo shop' : 'Shop'} (${env.edition} edition) on ${storage.name} storage and ${rateCounter.name} rate counters${seeded ? ', freshly seeded' : ''}:`,
  `  storefront     ${site}/`,
  `  admin screen   ${site}${ADMIN_BASE}`,
  `  OpenAPI        ${site}/openapi.json`,
  `  Store API      ${site}/wp-json/wc/store/v1/cart`,
  env.demo ? `  coupons        ${demoCoupons.map((coupon) => coupon.code).join(', ')}` : null,
  login('admin', 'shop manager'),
  login('shopper', 'shopper')
]
console.log(`\n${lines.filter((line) => line !== null).join('\n')}\n`)
