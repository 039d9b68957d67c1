import { buildApp } from '../../app.ts'
import type { Edition, SvcRouteSpec } from '../../drawer/index.ts'
import { createMemoryRateCounter } from '../../storage/memory/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { TEST_SECRET } from './app.ts'

/** Adding routes reads nothing: a storage that refuses every call shows it (one without a view cache to watch). */
const ABSENT = new Set<string | symbol>(['then', 'viewCache', 'onViewCacheChange'])
const NO_STORAGE = new Proxy({}, {
  get: (_target, name) => ABSENT.has(name) ? undefined : () => { throw new Error(`storage.${String(name)} called while routes were added`) }
}) as Storage

/**
 * The `svc/v1` routes an app of the edition registers, with the rules each declares (`fastify.svcRoutes`): the suite
 * drives these, and test/drawer/plugins/security/route-table.test.ts holds them against the specification's table.
 */
export async function registeredSvcRoutes (edition: Edition = 'pro'): Promise<readonly SvcRouteSpec[]> {
  const rateCounter = createMemoryRateCounter()
  const app = await buildApp({ storage: NO_STORAGE, rateCounter, secrets: [TEST_SECRET], edition })
  try {
    await app.ready()
    return [...app.svcRoutes]
  } finally {
    await app.close()
    await rateCounter.close()
  }
}

/** Every route of Pro (the Free routes included), in the order they were added. */
export const SVC_ROUTES: readonly SvcRouteSpec[] = await registeredSvcRoutes('pro')
