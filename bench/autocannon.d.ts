// The part of autocannon 9's API the bench uses (the package ships no types and @types/autocannon is not installed).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: RequestSpec) => RequestSpec
  }

  export interface Options extends RequestSpec {
    url: string
    connections?: number
    pipelining?: number
    /** Seconds. */
    duration?: number
    /** Seconds. */
    timeout?: number
    /** A response whose body this refuses counts as a mismatch. */
    verifyBody?: (body: string) => boolean
    /** Sent in turn on every connection; `setupRequest` may change each before it is sent. */
    requests?: RequestSpec[]
  }

  export interface Result {
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
    /** Per one-second sample. */
    requests: { average: number, total: number }
  }

  export interface Instance extends EventEmitter {
    stop (): void
    on (event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this
  }

  export default function autocannon (options: Options, callback: (error: Error | null, result: Result) => void): Instance
}
