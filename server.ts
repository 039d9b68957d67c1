import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { buildApp } from './app.ts'
import { DEFAULT_DEMO_USERS, EnvError, readEnv, type ServerEnv } from './config/env.ts'
import { loggerOptions } from './config/logger.ts'
import { demoShopConfig } from './seed/demo-config.ts'
import { demoCoupons } from './seed/demo-catalog.ts'
import { seedDemoShop, seedDemoUsers } from './seed/seed.ts'
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
const seeded = await seedDemoShop(storage, env.homeUrl)
await seedDemoUsers(storage, env.demoUsers)

const app = await buildApp({
  storage,
  rateCounter,
  secrets,
  siteUrl: env.siteUrl,
  homeUrl: env.homeUrl,
  edition: env.edition,
  allowedOrigins: env.allowedOrigins,
  trustedProxyCidrs: env.trustedProxyCidrs,
  shop: demoShopConfig,
  logger: loggerOptions(env.logLevel),
  // X-Forwarded-Proto (https cookies) and X-Forwarded-For are believed from the trusted proxies only.
  ...(env.trustedProxyCidrs.length > 0 ? { fastify: { trustProxy: env.trustedProxyCidrs } } : {})
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
const address = app.server.address()
const port = typeof address === 'object' && address ? address.port : env.port
// Only the built-in demo passwords are printed; one given in the environment stays out of the logs.
const login = (role: 'admin' | 'shopper') => {
  const { email, password } = env.demoUsers[role]
  const shown = password === DEFAULT_DEMO_USERS[role].password ? password : `(from SVC_${role.toUpperCase()}_PASSWORD)`
  return `${email} / ${shown}`
}
console.log(`
Demo shop (${env.edition} edition) on ${storage.name} storage and ${rateCounter.name} rate counters${seeded ? ', freshly seeded' : ''}:
  storefront   http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port}/
  Store API    http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port}/wp-json/wc/store/v1/cart
  coupons      ${demoCoupons.map((coupon) => coupon.code).join(', ')}
  admin        ${login('admin')}
  shopper      ${login('shopper')}
`)
