// The part of autocannon 9's API the bench uses (the package ships no types and @types/autocannon is not installed).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    pipelining?: number
    /** Seconds. */
    duration?: number
    /** Total requests to send (instead of a duration). */
    amount?: number
    /** Seconds. */
    timeout?: number
    /** A response whose body differs counts as a mismatch. */
    expectBody?: string
    /** A response whose body this refuses counts as a mismatch. */
    verifyBody?: (body: string) => boolean
    /** Sent in turn on every connection; `setupRequest` may change each one before it is sent. */
    requests?: RequestSpec[]
  }

  export interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: RequestSpec) => RequestSpec
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p97_5: number
    p99: number
  }

  export interface Result {
    duration: number
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
    /** Milliseconds, recorded as whole numbers. */
    latency: Histogram
    /** Per one-second sample. */
    requests: Histogram & { sent: number }
    /** Bytes per one-second sample; `total` is every byte received. */
    throughput: Histogram
  }

  export interface Instance extends EventEmitter {
    stop (): void
    on (event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this
    on (event: string, listener: (...args: unknown[]) => void): this
  }

  function autocannon (options: Options, callback: (error: Error | null, result: Result) => void): Instance

  export default autocannon
}
