import type { FastifyReply } from 'fastify'

export const CORS_ALLOW_HEADERS = 'Cart-Token, X-WP-Nonce, Content-Type, Idempotency-Key'
export const CORS_EXPOSE_HEADERS = 'Cart-Token, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Idempotent-Replayed'
const PREFLIGHT_MAX_AGE_SECONDS = 600

/** CORS with credentials for an allowed origin other than the site's own (design §3.4). */
export function setCorsHeaders (reply: FastifyReply, origin: string): void {
  reply.header('Access-Control-Allow-Origin', origin)
  reply.header('Access-Control-Allow-Credentials', 'true')
  reply.header('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS)
}

export function setPreflightHeaders (reply: FastifyReply, allow: string): void {
  reply.header('Access-Control-Allow-Methods', allow)
  reply.header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
  reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS))
}
