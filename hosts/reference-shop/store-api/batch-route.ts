import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { RestError } from '../../../kernel/errors/index.ts'
import { BatchBody, BatchResponses } from '../schemas/store-api-cart-routes.ts'
import { resolveCartKey } from '../session/store-api-session.ts'

/** The Store API routes a batch may run, under `wc/store/v1/`: the cart's and the checkout's (WooCommerce's `allow_batch`). */
const BATCHABLE = /^(cart|checkout)(\/|$)/
/** The Store API's namespace, the only place a sub-request may lead. */
const STORE_API = ['wc', 'store', 'v1']
/** Headers of a sub-request's answer that the batch passes on. */
const PASSED_ON = ['cart-token', 'cart-hash', 'nonce', 'nonce-timestamp', 'user-id', 'location']
/** Request headers of the batch every sub-request carries (the session and the nonce). */
const SHARED = ['cookie', 'nonce', 'x-wc-store-api-nonce', 'authorization', 'origin', 'user-agent', 'x-forwarded-for', 'x-forwarded-proto']

/** A sub-request's path as the app will route it: its Store API route (decoded, below `wc/store/v1/`) and the query. */
interface SubPath {
  /** The decoded segments below `wc/store/v1/`, dot segments resolved. */
  route: string[]
  trailingSlash: boolean
  /** `?…` as given, or ''. */
  query: string
}

/**
 * Reads a sub-request's path the way the router will: percent-decoded (`%2E` and `%2F` included), its `.` and `..`
 * segments resolved and empty ones dropped. Null when it cannot be decoded or does not stay below `wc/store/v1/`.
 */
function storeApiSubPath (path: string): SubPath | null {
  const queryAt = path.indexOf('?')
  const raw = queryAt === -1 ? path : path.slice(0, queryAt)
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return null
  }
  const segments: string[] = []
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.pop() === undefined) return null
      continue
    }
    segments.push(segment)
  }
  if (segments.length < STORE_API.length || STORE_API.some((name, at) => segments[at] !== name)) return null
  return { route: segments.slice(STORE_API.length), trailingSlash: decoded.endsWith('/'), query: queryAt === -1 ? '' : path.slice(queryAt) }
}

/** The URL the sub-request runs: each segment encoded again, so the router reads exactly the checked route. */
function subRequestUrl (root: string, { route, trailingSlash, query }: SubPath): string {
  return `${root}/${[...STORE_API, ...route].map(encodeURIComponent).join('/')}${trailingSlash ? '/' : ''}${query}`
}

/**
 * WooCommerce's Batch route (`POST batch`, WordPress's batch format v1): up to 25 Store API cart requests run one
 * after the other on the batch's cart and session, answered together with 207. Paths are read decoded and with their dot
 * segments resolved; one that cannot be decoded or leads outside `wc/store/v1/` refuses the whole batch before anything
 * runs (400 `woocommerce_rest_invalid_path`); a Store API route that is not a cart route answers its own
 * 400 `rest_batch_not_allowed` among the others. A sub-request runs the path as it was checked.
 */
export const batchRoute: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  const { shop } = fastify
  const root = shop.restRoot.replace(/\/+$/, '')

  app.post('/batch', {
    // 25 requests of a few kilobytes each.
    bodyLimit: 256 * 1024,
    config: { idempotent: true },
    schema: {
      tags: ['store-api'],
      operationId: 'storeApiBatch',
      summary: 'Run several cart requests at once',
      description: 'Answers **207** with `responses`, one per request, in order. Only cart and checkout routes; at most 25.',
      // The batch's cart session: a Cart-Token, the cookies (with the nonce), or nothing (a new cart).
      security: [{ cartToken: [] }, { cartCookie: [] }, { sessionCookie: [] }, {}],
      body: BatchBody,
      response: BatchResponses
    }
  }, async (request, reply) => {
    const { requests } = request.body
    const paths = requests.map(({ path }) => storeApiSubPath(path))
    if (paths.some((path) => path === null)) {
      throw new RestError('woocommerce_rest_invalid_path', 'Invalid path provided.', 400)
    }
    // Every sub-request works on the batch's cart: the one its Cart-Token or cookie names, or a new one.
    const key = await resolveCartKey(request, reply, shop)
    const cartToken = shop.cartTokens.sign(key)
    const shared: Record<string, string> = {}
    for (const name of SHARED) {
      const value = request.headers[name]
      if (typeof value === 'string') shared[name] = value
    }
    const responses = []
    for (const [at, sub] of requests.entries()) {
      const path = paths[at]!
      if (!BATCHABLE.test(path.route.join('/'))) {
        responses.push({
          body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } },
          status: 400,
          headers: {}
        })
        continue
      }
      const own: Record<string, string> = {}
      for (const [name, value] of Object.entries(sub.headers ?? {})) own[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
      const answer = await fastify.inject({
        // From the batch's client, so each sub-request counts against that client's rate limits (not the loopback's).
        remoteAddress: request.ip,
        method: sub.method ?? 'POST',
        url: subRequestUrl(root, path),
        headers: { ...own, ...shared, 'cart-token': cartToken, 'content-type': 'application/json' },
        ...(sub.body === undefined ? {} : { payload: JSON.stringify(sub.body) })
      })
      const headers: Record<string, unknown> = {}
      for (const name of PASSED_ON) {
        const value = answer.headers[name]
        if (value !== undefined) headers[name.replace(/(^|-)(\w)/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())] = value
      }
      let body: unknown = null
      if (answer.body !== '') {
        try {
          body = JSON.parse(answer.body)
        } catch {
          body = answer.body
        }
      }
      responses.push({ body, status: answer.statusCode, headers })
    }
    reply.header('Cart-Token', cartToken)
    return reply.code(207).send({ responses })
  })
}
