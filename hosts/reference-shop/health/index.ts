import fp from 'fastify-plugin'
import { HealthSchema, NotReadySchema, ReadinessSchema } from '../schemas/health.ts'
import { PUBLIC_SECURITY } from '../../../drawer/index.ts'
import type { Lifecycle, RateCounter } from '../../../storage/contract/index.ts'

export interface HealthPluginOptions {
  /** Only its `name` and `ping` are used. */
  storage: Lifecycle
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

/** `GET /healthz` (the process answers) and `GET /readyz` (storage and rate counters answer). */
export const healthPlugin = fp<HealthPluginOptions>(async (fastify, { storage, rateCounter, timeoutMs = 1000 }) => {
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
    return {
      status: ready ? 'ready' : 'unavailable',
      checks: { storage: { backend: storage.name, status: storageState }, rate_counter: { backend: rateCounter.name, status: counterState } }
    }
  })
}, { name: 'health', fastify: '5.x' })
