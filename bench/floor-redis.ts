/**
 * bare+redis, the floor of a read answered from Redis (baseline child): each scenario's recorded body is stored under
 * a key of the run's own prefix at start, and its route GETs that key on every request (one round trip, one ioredis
 * connection to the app's Redis) and sends the bytes with bare's status and content type. The keys are deleted when
 * the child closes, and expire after a day should the child be killed before.
 */
import type { RouteHandlerMethod } from 'fastify'
import { Redis } from 'ioredis'
import type { BareRedis, Baseline } from './ipc.ts'

const KEY_TTL_SECONDS = 24 * 60 * 60

export interface RedisFloor {
  /** Stores the baseline's body and answers the route that reads it. */
  handler: (baseline: Baseline) => Promise<RouteHandlerMethod>
  close: () => Promise<void>
}

export function openRedisFloor (redis: BareRedis): RedisFloor {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 })
  // A lost connection must not crash the process: ioredis reconnects, and the requests that fail say so.
  client.on('error', (error: Error) => console.error(`bench: bare+redis: ${error.message}`))
  const keys: string[] = []
  return {
    async handler (baseline) {
      const key = `${redis.keyPrefix}${baseline.name}`
      await client.set(key, baseline.body, 'EX', KEY_TTL_SECONDS)
      keys.push(key)
      return async (_request, reply) => {
        // The bytes as stored: no decoding into a string and back.
        const body = await client.getBuffer(key)
        if (body === null) return reply.code(500).type('text/plain').send(`no body stored under ${key}`)
        return reply.code(baseline.statusCode).type(baseline.contentType).send(body)
      }
    },
    async close () {
      try {
        if (keys.length > 0) await client.del(...keys)
      } finally {
        await client.quit().catch(() => client.disconnect())
      }
    }
  }
}
