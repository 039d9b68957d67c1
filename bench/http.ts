/** One request to a target, outside the load: to prepare a scenario and to record and compare responses. */

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Path and query, on the target's origin. */
  path: string
  headers: Record<string, string>
  body?: string
}

export interface ProbeResponse {
  status: number
  headers: Headers
  body: string
  /** The body's length in bytes (UTF-8), as sent. */
  bytes: number
}

export async function send (origin: string, request: BenchRequest): Promise<ProbeResponse> {
  const response = await fetch(new URL(request.path, origin), {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    signal: AbortSignal.timeout(10_000)
  })
  const buffer = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers: response.headers, body: buffer.toString('utf8'), bytes: buffer.length }
}

export function expectStatus (response: ProbeResponse, status: number, what: string): void {
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status}: ${response.body.slice(0, 500)}`)
  }
}
