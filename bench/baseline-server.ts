/**
 * Child process: the baselines, apart from the app so that neither shares its event loop, nor Fastify's code as the JIT
 * shaped it, with the other. Per scenario a plain `Fastify()` (logger off) on its method and path sending the app's
 * recorded answer as it is (bare), and one per floor it runs against, paying that floor's step first (`floor-routes.ts`).
 */
import Fastify, { type FastifyInstance, type HTTPMethods, type RouteHandlerMethod } from 'fastify'
import { serve } from './child.ts'
import { redisFloor, snapshotFloor, transactionFloor, type Floor, type FloorDatabase, type Recorded } from './floor-routes.ts'
import type { FloorTarget, TargetName } from './report-types.ts'

export interface Baseline extends Recorded {
  name: string
  method: string
  path: string
  /** The floors to start for it besides bare. */
  floors: FloorTarget[]
  /** bare+pg's cart: the one whose stored snapshot the app answered. */
  cartKey?: string
}

/** `database` null: no bare+pg or bare+tx (PGlite); `redis` null: no bare+redis. */
export interface BaselineOptions { baselines: Baseline[], database: FloorDatabase | null, redis: { url: string, keyPrefix: string } | null }

const servers: FastifyInstance[] = []
const floors: Array<Floor<never>> = []

async function listen (baseline: Baseline, handler: RouteHandlerMethod): Promise<string> {
  const server = Fastify()
  servers.push(server)
  // Bare Fastify parses JSON and plain text only: a form body (the classic add to cart) is read and left as is.
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
  server.route({ method: baseline.method as HTTPMethods, url: baseline.path.split('?')[0]!, handler })
  return server.listen({ host: '127.0.0.1', port: 0 })
}

/** Starts every baseline's servers; answers their origins, by scenario name and target. */
async function start ({ baselines, database, redis }: BaselineOptions): Promise<Record<string, Partial<Record<TargetName, string>>>> {
  const wanted = (floor: FloorTarget): boolean => baselines.some((baseline) => baseline.floors.includes(floor))
  // Each kept as soon as it is open, so that it closes even if the next one fails to open.
  const keep = <F extends Floor<never>>(floor: F | null): F | null => { if (floor !== null) floors.push(floor); return floor }
  const pg = keep(database !== null && wanted('bare+pg') ? snapshotFloor(database) : null)
  const kv = keep(redis !== null && wanted('bare+redis') ? redisFloor(redis.url, redis.keyPrefix) : null)
  const tx = keep(database !== null && wanted('bare+tx') ? await transactionFloor(database) : null)
  const urls: Record<string, Partial<Record<TargetName, string>>> = {}
  for (const baseline of baselines) {
    const { statusCode, contentType, body } = baseline
    const found: Partial<Record<TargetName, string>> = { bare: await listen(baseline, (_request, reply) => { reply.code(statusCode).type(contentType).send(body) }) }
    if (pg !== null && baseline.floors.includes('bare+pg')) found['bare+pg'] = await listen(baseline, await pg.handler(baseline, baseline.cartKey!))
    if (kv !== null && baseline.floors.includes('bare+redis')) found['bare+redis'] = await listen(baseline, await kv.handler(baseline, baseline.name))
    if (tx !== null && baseline.floors.includes('bare+tx')) found['bare+tx'] = await listen(baseline, await tx.handler(baseline))
    urls[baseline.name] = found
  }
  return urls
}

serve({ start }, async () => {
  await Promise.allSettled(servers.map((server) => server.close()))
  for (const floor of floors.reverse()) await floor.close().catch((error: unknown) => console.error('bench: closing a floor failed:', error))
})
