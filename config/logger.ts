import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import pinoPretty from 'pino-pretty'

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

/**
 * How log lines are written: `pretty` (one coloured line each, for a terminal) or `json` (one JSON object per line,
 * for log collectors).
 */
export type LogFormat = 'pretty' | 'json'

/** A stream that writes each JSON log line as one readable line: time, level, message; pid and hostname left out. */
export function prettyStream (destination: NodeJS.WritableStream = process.stdout, colorize = false): NodeJS.WritableStream {
  return pinoPretty({
    destination,
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,method,url,statusCode,responseTime'
  })
}

/** The server's logger: the level from LOG_LEVEL, secrets redacted. */
export function loggerOptions (level: string, stream?: NodeJS.WritableStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' },
    ...(stream === undefined ? {} : { stream })
  }
}

/**
 * One log line per request, written when it is answered: `GET /path 200 3.1 ms`, with method, URL, status and time
 * as fields for JSON logs (Fastify writes two: "incoming request" and "request completed"). No headers, no bodies.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest (): void {}

  override requestCompleted (error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = Math.round(reply.elapsedTime * 10) / 10
    const fields = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime }
    const line = `${request.method} ${request.url} ${reply.statusCode} ${responseTime} ms`
    if (error !== null && error !== undefined) reply.log.error({ ...fields, err: error }, line)
    else reply.log.info(fields, line)
  }
}
