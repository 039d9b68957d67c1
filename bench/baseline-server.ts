/**
 * Child process: the baselines. For each scenario a plain `Fastify()` (defaults: logger off) with one route, on the
 * scenario's method and path, that sends the app's recorded response body as it is, with the app's status and
 * content type. One Fastify instance and port per scenario, so several scenarios on one path (carts of different
 * sizes, told apart by their Cart-Token) each get a route of their own. A process of its own, apart from the app's.
 *
 * The floors (`floors.ts`) are plain `Fastify()` servers of their own in this process too, one per scenario and
 * floor, each with a route that pays one thing the app cannot avoid before it sends the same body: bare+pg
 * (`floor-pg.ts`) reads the cart's stored snapshot from PostgreSQL, bare+redis (`floor-redis.ts`) reads the body
 * from Redis, bare+tx (`floor-tx.ts`) runs one write transaction on PostgreSQL.
 */
import Fastify, { type FastifyInstance, type HTTPMethods, type RouteHandlerMethod } from 'fastify'
import type { FloorTarget } from './floors.ts'
import { openSnapshotFloor } from './floor-pg.ts'
import { openRedisFloor } from './floor-redis.ts'
import { openTransactionFloor } from './floor-tx.ts'
import { runChild, type Baseline, type BaselineReady, type BaselineStart } from './ipc.ts'

/** Sends the recorded body, as it is. */
function constantHandler (baseline: Baseline): RouteHandlerMethod {
  return (_request, reply) => {
    reply.code(baseline.statusCode).type(baseline.contentType).send(baseline.body)
  }
}

async function listenBare (baseline: Baseline, handler: RouteHandlerMethod, servers: FastifyInstance[]): Promise<string> {
  const server = Fastify()
  servers.push(server)
  // Bare Fastify parses JSON and plain text only: a form body (the classic add to cart) is read and left as is.
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
  server.route({ method: baseline.method as HTTPMethods, url: baseline.path.split('?')[0]!, handler })
  return server.listen({ host: '127.0.0.1', port: 0 })
}

runChild<BaselineStart, BaselineReady>(async ({ baselines, postgres, redis }) => {
  const servers: FastifyInstance[] = []
  // Newest first: a floor opened after another fails to open still closes everything opened before it.
  const closers: Array<() => Promise<void>> = []
  const close = async (): Promise<void> => {
    await Promise.allSettled(servers.map((server) => server.close()))
    for (const closeFloor of closers.reverse()) await closeFloor().catch((error: unknown) => console.error('bench: closing a floor failed:', error))
  }
  try {
    const snapshotFloor = postgres !== null && baselines.some((baseline) => baseline.snapshotCartKey !== undefined) ? openSnapshotFloor(postgres) : null
    if (snapshotFloor !== null) closers.push(snapshotFloor.close)
    const redisFloor = redis !== null && baselines.some((baseline) => baseline.redisFloor === true) ? openRedisFloor(redis) : null
    if (redisFloor !== null) closers.push(redisFloor.close)
    const transactionFloor = postgres !== null && baselines.some((baseline) => baseline.transactionFloor === true) ? await openTransactionFloor(postgres) : null
    if (transactionFloor !== null) closers.push(transactionFloor.close)

    const urls: Record<string, string> = {}
    const floorUrls: Record<string, Partial<Record<FloorTarget, string>>> = {}
    for (const baseline of baselines) {
      urls[baseline.name] = await listenBare(baseline, constantHandler(baseline), servers)
      const floors: Partial<Record<FloorTarget, string>> = {}
      if (snapshotFloor !== null && baseline.snapshotCartKey !== undefined) {
        floors['bare+pg'] = await listenBare(baseline, snapshotFloor.handler(baseline, baseline.snapshotCartKey), servers)
      }
      if (redisFloor !== null && baseline.redisFloor === true) {
        floors['bare+redis'] = await listenBare(baseline, await redisFloor.handler(baseline), servers)
      }
      if (transactionFloor !== null && baseline.transactionFloor === true) {
        floors['bare+tx'] = await listenBare(baseline, transactionFloor.handler(baseline), servers)
      }
      floorUrls[baseline.name] = floors
    }
    return { ready: { urls, floorUrls }, close }
  } catch (error) {
    await close()
    throw error
  }
})
