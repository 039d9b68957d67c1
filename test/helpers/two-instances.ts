import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../app.ts'
import { demoShopConfig } from '../../seed/demo-config.ts'
import { seedDemoShop } from '../../seed/seed.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { SITE_URL, TEST_SECRET, type Teardown } from '../helper.ts'
import type { StorageBackend } from './storage-backends.ts'

/**
 * Two app instances on one database of `backend` (as two processes have them), seeded with the demo shop, ready, and
 * closed when the test ends; each has a rate counter of its own. Returns the apps and the first instance's storage.
 */
export async function twoInstances (t: Teardown, backend: StorageBackend): Promise<{ apps: [FastifyInstance, FastifyInstance], storage: Storage }> {
  const pair = await backend.createPair()
  t.teardown(() => pair.dispose())
  await seedDemoShop(pair.storages[0], SITE_URL)
  const apps: FastifyInstance[] = []
  for (const storage of pair.storages) {
    const rateCounter = createMemoryRateCounter()
    const app = await buildApp({ storage, rateCounter, secrets: [TEST_SECRET], siteUrl: SITE_URL, shop: demoShopConfig })
    t.teardown(async () => { await app.close(); await rateCounter.close() })
    await app.ready()
    apps.push(app)
  }
  return { apps: apps as [FastifyInstance, FastifyInstance], storage: pair.storages[0] }
}
