/**
 * Child process: the baselines. For each scenario a plain `Fastify()` (defaults: logger off) with one route, on the
 * scenario's method and path, that sends the app's recorded response body as it is, with the app's status and
 * content type. One Fastify instance and port per scenario, so several scenarios on one path (carts of different
 * sizes, told apart by their Cart-Token) each get a route of their own. A process of its own, apart from the app's.
 */
import Fastify, { type FastifyInstance, type HTTPMethods } from 'fastify'
import { runChild, type BaselineReady, type BaselineStart } from './ipc.ts'

runChild<BaselineStart, BaselineReady>(async ({ baselines }) => {
  const servers: FastifyInstance[] = []
  const close = async (): Promise<void> => { await Promise.allSettled(servers.map((server) => server.close())) }
  try {
    const urls: Record<string, string> = {}
    for (const baseline of baselines) {
      const server = Fastify()
      servers.push(server)
      // Bare Fastify parses JSON and plain text only: a form body (the classic add to cart) is read and left as is.
      server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => { done(null, body) })
      server.route({
        method: baseline.method as HTTPMethods,
        url: baseline.path.split('?')[0]!,
        handler (_request, reply) {
          reply.code(baseline.statusCode).type(baseline.contentType).send(baseline.body)
        }
      })
      urls[baseline.name] = await server.listen({ host: '127.0.0.1', port: 0 })
    }
    return { ready: { urls }, close }
  } catch (error) {
    await close()
    throw error
  }
})
