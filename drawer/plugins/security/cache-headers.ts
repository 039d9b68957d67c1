import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Specification §4.4.5: no cache, no CDN, for every admin, cart-session and write response, errors included. */
export const NO_STORE_HEADERS = {
  'Cache-Control': 'no-store, no-cache, must-revalidate, private',
  Pragma: 'no-cache',
  Expires: '0',
  Vary: 'Cookie, Authorization, Origin'
} as const

const PUBLIC_MAX_AGE_SECONDS = 300

/** A strong validator of the exact bytes sent. */
export function etagOf (payload: string | Buffer): string {
  return `"${createHash('sha1').update(payload).digest('base64url')}"`
}

function matches (ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag === etag || tag === `W/${etag}`
  })
}

/**
 * Public data (a successful public route) may be cached for five minutes and revalidated by ETag; it varies on
 * `Origin` because CORS headers depend on it. Everything else gets the no-store headers.
 * Returns the payload to send (empty for a 304).
 */
export function applyCacheHeaders (request: FastifyRequest, reply: FastifyReply, payload: unknown, isPublic: boolean): unknown {
  const cacheable = isPublic && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))
  if (!cacheable) {
    reply.headers(NO_STORE_HEADERS)
    return payload
  }
  const etag = etagOf(payload as string | Buffer)
  reply.header('Cache-Control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`)
  reply.header('Vary', 'Origin')
  reply.header('ETag', etag)
  reply.removeHeader('Pragma')
  reply.removeHeader('Expires')
  if (matches(request.headers['if-none-match'], etag) && (request.method === 'GET' || request.method === 'HEAD')) {
    reply.code(304)
    reply.removeHeader('Content-Type')
    reply.removeHeader('Content-Length')
    return ''
  }
  return payload
}
