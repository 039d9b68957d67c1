/** One autocannon run against one target, with every response time kept for exact percentiles. */
import autocannon from 'autocannon'
import type { BenchRequest } from './http.ts'
import type { Counts } from './report-types.ts'

export interface LoadOptions {
  connections: number
  /** Seconds. */
  duration: number
  /** Every response must have this body (a difference counts as a mismatch); undefined: not checked. */
  expectBody?: string
  /** Headers of each request's own (a Cart-Token from a pool of carts), called once per request sent. */
  perRequestHeaders?: () => Record<string, string>
  signal: AbortSignal
}

export interface LoadResult extends Counts {
  /** Mean of autocannon's one-second samples: what its own table shows as Req/Sec Avg. */
  requestsPerSecond: number
  /** Response times in milliseconds (autocannon's own histogram keeps whole milliseconds only). */
  latencies: number[]
}

const NOT_PRINTABLE_ASCII = /[^ -~]+/g

/**
 * Whether a body received under load is the expected one. autocannon decodes every chunk it receives on its own, so
 * a character of several bytes split between two chunks arrives as replacement characters: when the exact comparison
 * fails, the body still passes if everything but its non-ASCII characters is the same.
 */
export function bodyVerifier (expected: string): (body: string) => boolean {
  const expectedAscii = expected.replace(NOT_PRINTABLE_ASCII, '')
  return (body) => body === expected || body.replace(NOT_PRINTABLE_ASCII, '') === expectedAscii
}

export function runLoad (url: string, request: BenchRequest, options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason)
    const latencies: number[] = []
    const next = options.perRequestHeaders
    // Defined first: autocannon calls back synchronously when it refuses its options.
    const stop = (): void => instance.stop()
    const instance = autocannon({
      url: new URL(request.path, url).href,
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(next === undefined ? {} : { requests: [{ ...request, setupRequest: (data) => ({ ...data, headers: { ...data.headers, ...next() } }) }] }),
      connections: options.connections,
      pipelining: 1,
      duration: options.duration,
      timeout: 10,
      ...(options.expectBody === undefined ? {} : { verifyBody: bodyVerifier(options.expectBody) })
    }, (error, result) => {
      options.signal.removeEventListener('abort', stop)
      if (error !== null) return reject(error)
      if (options.signal.aborted) return reject(options.signal.reason)
      resolve({
        requestsPerSecond: result.requests.average,
        responses: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        mismatches: result.mismatches,
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
        latencies
      })
    })
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs))
    options.signal.addEventListener('abort', stop, { once: true })
  })
}
