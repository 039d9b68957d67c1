import fp from 'fastify-plugin'
import { HealthSchema, NotReadySchema, ReadinessSchema } from '../schemas/health.ts'
import { PUBLIC_SECURITY } from '../../../drawer/index.ts'
import type { Lifecycle, RateCounter, Storage } from '../../../storage/contract/index.ts'

export interface HealthPluginOptions {
  /** Only its `name`, `ping` and, where it keeps a view cache, `viewCache` and `onViewCacheChange` are used. */
  storage: Lifecycle & Pick<Storage, 'viewCache' | 'onViewCacheChange'>
  rateCounter: RateCounter
  /** How long a dependency may take to answer a readiness probe. */
  timeoutMs?: number
}

async function probe (check: () => Promise<void>, timeoutMs: number): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)
  })
  try {
    await Promise.race([check(), timeout])
    return 'ok'
  } catch {
    return 'unavailable'
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `GET /healthz` (the process answers) and `GET /readyz` (storage and rate counters answer). A rate counter that falls
 * back to counting per instance while its shared store does not answer (`withFallbackCounter`) keeps `/readyz` at 200:
 * its check says `degraded`, with `counting: 'per_instance'`. Each switch is logged once: a warning when the fallback
 * takes over, an info line when the shared store counts again. The same for the cart view cache kept beside the storage
 * (`withCartViewCache`): while it does not answer it is bypassed (reads go to the database, writes go on), `/readyz`
 * stays 200 and its `view_cache` check says `degraded`; a warning when it is bypassed, an info line when it is used again.
 */
export const healthPlugin = fp<HealthPluginOptions>(async (fastify, { storage, rateCounter, timeoutMs = 1000 }) => {
  const stopWatching = rateCounter.onCountingChange?.((counting, cause) => {
    if (counting === 'per_instance') {
      fastify.log.warn({ err: cause, backend: rateCounter.name }, 'rate counter store does not answer: rate limits are counted per instance until it does')
    } else {
      fastify.log.info({ backend: rateCounter.name }, 'rate counter store answers again: rate limits are shared again')
    }
  })
  if (stopWatching !== undefined) fastify.addHook('onClose', async () => stopWatching())
  // Watched once the app is ready: the storage is not called while the routes are added.
  let stopWatchingCache: (() => void) | undefined
  fastify.addHook('onReady', async () => {
    stopWatchingCache = storage.onViewCacheChange?.((state, cause) => {
      const backend = storage.viewCache?.().backend
      if (state === 'bypassed') {
        fastify.log.warn({ err: cause, backend }, 'cart view cache does not answer: it is bypassed (reads from the database, writes go on) until it does')
      } else {
        fastify.log.info({ backend }, 'cart view cache answers again: it was told of the writes made meanwhile and is used again')
      }
    })
  })
  fastify.addHook('onClose', async () => stopWatchingCache?.())

  fastify.get('/healthz', {
    schema: { tags: ['health'], operationId: 'healthz', summary: 'Liveness: the process answers', security: PUBLIC_SECURITY, response: { 200: HealthSchema } }
  }, async () => ({ status: 'ok' }))
  fastify.get('/readyz', {
    schema: {
      tags: ['health'],
      operationId: 'readyz',
      summary: 'Readiness: storage and rate counters answer',
      security: PUBLIC_SECURITY,
      response: { 200: ReadinessSchema, 503: NotReadySchema }
    }
  }, async (_request, reply) => {
    const [storageState, counterState] = await Promise.all([
      probe(() => storage.ping(), timeoutMs),
      probe(() => rateCounter.ping(), timeoutMs)
    ])
    const ready = storageState === 'ok' && counterState === 'ok'
    reply.code(ready ? 200 : 503)
    // Read after the ping, which may have found the shared store gone or back.
    const counting = rateCounter.counting?.()
    const counter = counting === undefined
      ? { backend: rateCounter.name, status: counterState }
      : { backend: rateCounter.name, status: counterState === 'ok' && counting === 'per_instance' ? 'degraded' as const : counterState, counting }
    const cache = storage.viewCache?.()
    return {
      status: ready ? 'ready' : 'unavailable',
      checks: {
        storage: { backend: storage.name, status: storageState },
        rate_counter: counter,
        ...(cache === undefined ? {} : { view_cache: { backend: cache.backend, status: cache.state === 'shared' ? 'ok' as const : 'degraded' as const, state: cache.state } })
      }
    }
  })
}, { name: 'health', fastify: '5.x' })
