import type { FastifyServerOptions } from 'fastify'

/**
 * Where secrets could appear in a log line: request and response headers (cookies, Authorization, the Cart-Token,
 * the REST nonce) and any logged body or object carrying a password or token. Fastify's default serializers log
 * none of these; the redaction keeps it so for a serializer, a hook or a plugin that logs more.
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["cart-token"]',
  'req.headers["x-wp-nonce"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'res.headers["cart-token"]',
  'headers.cookie',
  'headers.authorization',
  'headers["cart-token"]',
  'headers["x-wp-nonce"]',
  'headers["set-cookie"]',
  'body.password',
  'body.token',
  'body.nonce',
  '*.password',
  '*.passwordHash',
  '*.secret',
  '*.secrets',
  '*.nonce',
  '*.cookie',
  '*.authorization',
  '*["cart-token"]'
]

/** The server's logger: the level from LOG_LEVEL, secrets redacted. */
export function loggerOptions (level: string, stream?: NodeJS.WritableStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' },
    ...(stream === undefined ? {} : { stream })
  }
}
