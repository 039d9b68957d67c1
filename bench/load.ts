/** One autocannon run against one target, with every response time kept for exact percentiles. */
import autocannon, { type Instance } from 'autocannon'
import type { BenchRequest } from './http.ts'

export interface LoadOptions {
  connections: number
  /** Seconds. */
  duration: number
  /** Every response must have this body (a difference counts as a mismatch); undefined: not checked. */
  expectBody?: string
  /** Headers of each request's own (a Cart-Token from a pool of carts), called once per request sent. */
  perRequestHeaders?: () => Record<string, string>
  /** Several requests sent in turn on every connection (a mixed run); replaces `request`'s own. */
  mix?: BenchRequest[]
  /** Stop after this many requests instead of after `duration`. */
  amount?: number
  signal?: AbortSignal
}

export interface LoadResult {
  /** Mean of autocannon's one-second samples: what its own table shows as Req/Sec Avg. */
  requestsPerSecond: number
  responses: number
  /** Wall time of the run in seconds, as autocannon reports it. */
  duration: number
  non2xx: number
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  errors: number
  timeouts: number
  mismatches: number
  statusCodes: Record<string, number>
  /** Bytes received, headers included. */
  bytes: number
  /** Response times in milliseconds, in the order received (autocannon's own histogram keeps whole milliseconds only). */
  latencies: Float64Array
  /** Autocannon's own latency figures, whole milliseconds. */
  autocannonLatency: { p50: number, p97_5: number, p99: number, average: number, max: number }
}

class Samples {
  #values = new Float64Array(1 << 16)
  #length = 0

  push (value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2)
      grown.set(this.#values)
      this.#values = grown
    }
    this.#values[this.#length++] = value
  }

  values (): Float64Array { return this.#values.slice(0, this.#length) }
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
    if (options.signal?.aborted === true) return reject(options.signal.reason)
    const samples = new Samples()
    // Defined first: autocannon calls back synchronously when it refuses its options.
    const stop = (): void => instance.stop()
    const next = options.perRequestHeaders
    const requests = options.mix?.map((item) => ({
      method: item.method,
      path: item.path,
      headers: item.headers,
      ...(item.body === undefined ? {} : { body: item.body })
    }))
    const instance: Instance = autocannon({
      url: new URL(request.path, url).href,
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(requests !== undefined ? { requests } : {}),
      ...(next === undefined
        ? {}
        : {
            requests: [{
              method: request.method,
              path: request.path,
              headers: request.headers,
              ...(request.body === undefined ? {} : { body: request.body }),
              setupRequest: (data) => ({ ...data, headers: { ...data.headers, ...next() } })
            }]
          }),
      connections: options.connections,
      pipelining: 1,
      ...(options.amount === undefined ? { duration: options.duration } : { amount: options.amount }),
      timeout: 10,
      ...(options.expectBody === undefined ? {} : { verifyBody: bodyVerifier(options.expectBody) })
    }, (error, result) => {
      options.signal?.removeEventListener('abort', stop)
      if (error !== null) return reject(error)
      if (options.signal?.aborted === true) return reject(options.signal.reason)
      resolve({
        requestsPerSecond: result.requests.average,
        responses: result.requests.total,
        duration: result.duration,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        mismatches: result.mismatches,
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
        bytes: result.throughput.total,
        latencies: samples.values(),
        autocannonLatency: {
          p50: result.latency.p50,
          p97_5: result.latency.p97_5,
          p99: result.latency.p99,
          average: result.latency.average,
          max: result.latency.max
        }
      })
    })
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => samples.push(responseTimeMs))
    options.signal?.addEventListener('abort', stop, { once: true })
  })
}
