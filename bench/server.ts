/**
 * Child process: the real server stack (`buildApp` on the bench's storage, seeded with the demo shop and the demo
 * configuration), listening on 127.0.0.1 on a random port, logger off. Started and stopped by `run.ts`.
 */
import { randomBytes } from 'node:crypto'
import { buildApp, DEFAULT_SITE_URL } from '../app.ts'
import { demoShopConfig } from '../seed/demo-config.ts'
import { seedDemoShop } from '../seed/seed.ts'
import { createMemoryRateCounter, createPgliteStorage, createPostgresStorage, createRedisRateCounter } from '../storage/index.ts'
import type { RateCounter, Storage } from '../storage/types.ts'
import { runChild, type AppReady, type AppStart } from './ipc.ts'

runChild<AppStart, AppReady>(async (start) => {
  const storage: Storage = start.databaseUrl !== null
    ? await createPostgresStorage({ connectionString: start.databaseUrl, searchPath: start.schema })
    : await createPgliteStorage({ dataDir: start.dataDir })
  let rateCounter: RateCounter | undefined
  const closeStorage = async (): Promise<void> => {
    await Promise.allSettled([storage.close(), rateCounter?.close()])
  }
  try {
    rateCounter = start.redisUrl !== null
      ? createRedisRateCounter({ url: start.redisUrl, keyPrefix: start.redisKeyPrefix })
      : createMemoryRateCounter()
    await seedDemoShop(storage, DEFAULT_SITE_URL)
    const app = await buildApp({
      storage,
      rateCounter,
      // A secret of this run only: tokens from the bench are worthless anywhere else.
      secrets: [randomBytes(32).toString('base64url')],
      siteUrl: DEFAULT_SITE_URL,
      shop: demoShopConfig,
      logger: false
    })
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 })
      return {
        ready: { url, storage: storage.name, rateCounter: rateCounter.name },
        async close () {
          try {
            await app.close()
          } finally {
            await closeStorage()
          }
        }
      }
    } catch (error) {
      await app.close()
      throw error
    }
  } catch (error) {
    await closeStorage()
    throw error
  }
})
