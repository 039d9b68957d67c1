import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ClientBundle } from './client-bundle.ts'

/**
 * Sends a built static file (a script or a style sheet) with an ETag, gzipped when the browser accepts it: a year in
 * caches under its hashed URL (`?v=<hash>`), five minutes otherwise; 304 when `If-None-Match` names the current ETag.
 */
export function sendStaticAsset (request: FastifyRequest<{ Querystring: { v?: string } }>, reply: FastifyReply, file: ClientBundle, type: string): FastifyReply {
  const etag = `"${file.hash}"`
  reply
    .type(type)
    .header('ETag', etag)
    .header('Vary', 'Accept-Encoding')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', request.query.v === file.hash ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
  if (request.headers['if-none-match'] === etag) return reply.code(304).send()
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(file.gzipped)
  return reply.send(file.code)
}
