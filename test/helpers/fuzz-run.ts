import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { report } from './reliability-report.ts'
import { buildSecurityApp, login, newCartToken, USERS } from './security.ts'
import { operationsOf, requestArbitrary, type FuzzRequest } from './fuzz-requests.ts'

/** 5xx answers the design names: a dependency out of reach, or a route a build does not have yet. */
const DESIGNED_5XX = new Set(['svc_rate_limit_unavailable', 'svc_storage_unavailable', 'svc_cart_session_unavailable'])

export interface FuzzOptions {
  runs: number
  seed: number
  /** Requests generated at a time (bounds the memory the huge bodies take). */
  batch?: number
}

/** What is wrong with an answer, or null. */
function problemWith (request: FuzzRequest, response: LightMyRequestResponse): string | null {
  const status = response.statusCode
  let body: any
  // Pages answer pages: an HTML page (the admin screens' "please log in") is not an API error.
  const html = String(response.headers['content-type'] ?? '').startsWith('text/html')
  if (status >= 400 && request.method !== 'HEAD' && !html) {
    try {
      body = JSON.parse(response.body)
    } catch {
      return `${status} with a body that is not JSON: ${response.body.slice(0, 80)}`
    }
    const keys = body !== null && typeof body === 'object' ? Object.keys(body).sort().join() : ''
    if (keys !== 'code,data,message' || typeof body.code !== 'string' || typeof body.message !== 'string' || body.data?.status !== status) {
      return `${status} not in the error shape: ${response.body.slice(0, 200)}`
    }
  }
  if (status >= 500 && !(DESIGNED_5XX.has(body?.code) && status === 503)) {
    return `${status} ${body?.code ?? ''}: ${response.body.slice(0, 200)}`
  }
  return null
}

/**
 * Sends `runs` hostile requests (seed-fixed) to the whole app (Pro) and checks every answer: no 5xx but the designed
 * 503s, every error in the `{code, message, data: {status}}` shape, nothing stored by a refused request (the
 * fuzzer's cart, the settings and the analytics are compared around each one), no prototype pollution, and the
 * process still answering at the end.
 */
export async function fuzzApp (t: Test, { runs, seed, batch = 250 }: FuzzOptions): Promise<void> {
  const { app, storage } = await buildSecurityApp(t)
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Record<string, any>
  const operations = operationsOf(document)
  t.ok(operations.length >= 40, `${operations.length} operations from the OpenAPI document`)
  const cartToken = await newCartToken(app)
  const cartKey = JSON.parse(Buffer.from(cartToken.split('.')[1]!, 'base64url').toString('utf8')).user_id as string
  const credentials = { cartToken, admin: await login(app, USERS.admin), shopper: await login(app, USERS.shopper) }
  const requests = requestArbitrary(operations, credentials, ['http://shop.test', 'https://www.shop.test', 'https://partner.example'])

  // What a refused request must leave as it was: the fuzzer's cart, the settings, and (for the analytics routes)
  // the stored events.
  const fingerprint = async (request: FuzzRequest) => {
    const [cart, settings, analytics] = await Promise.all([
      storage.getCart(cartKey),
      storage.getSettings(),
      request.url.includes('analytics') ? storage.analyticsSummary('2000-01-01', '2100-01-01') : null
    ])
    return JSON.stringify([cart?.version ?? 0, cart?.data ?? null, settings?.version ?? 0, analytics])
  }

  const failures: string[] = []
  const statuses = new Map<number, number>()
  let sent = 0
  const started = performance.now()
  let timeInRequests = 0
  for (let first = 0; first < runs; first += batch) {
    const samples = fc.sample(requests, { seed: seed + first, numRuns: Math.min(batch, runs - first) })
    for (const request of samples) {
      const before = request.method === 'GET' || request.method === 'HEAD' ? null : await fingerprint(request)
      let response: LightMyRequestResponse
      const sentAt = performance.now()
      try {
        response = await app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload })
        })
      } catch (error) {
        failures.push(`${request.kind}: the request threw ${(error as Error).message}`)
        continue
      }
      timeInRequests += performance.now() - sentAt
      sent++
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
      const problem = problemWith(request, response)
      if (problem !== null) failures.push(`${request.kind} (${request.method} ${request.url.slice(0, 120)}): ${problem}`)
      if (before !== null && response.statusCode >= 400 && (await fingerprint(request)) !== before) {
        failures.push(`${request.kind} (${request.method} ${request.url.slice(0, 120)}): refused with ${response.statusCode}, yet something was stored`)
      }
      if (failures.length > 20) break
    }
    if (failures.length > 20) break
  }
  const polluted = Object.keys(Object.prototype).concat(Object.keys(Array.prototype))
  t.same(failures, [], `${sent} hostile requests (seed ${seed}): no 5xx but the designed ones, every error in shape, nothing stored from a refusal`)
  t.same(polluted, [], 'no prototype was polluted')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no "polluted" key on plain objects')
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the app still answers')
  t.equal(sent, runs, `all ${runs} requests were answered`)
  const byStatus = Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => [String(status), count]))
  t.comment(`answers by status: ${JSON.stringify(byStatus)}; ${Math.round(timeInRequests)} ms in requests of ${Math.round(performance.now() - started)} ms`)
  report('fuzz', { requests: sent, seed, operations: operations.length, seconds: Math.round((performance.now() - started) / 1000), ...byStatus })
}
