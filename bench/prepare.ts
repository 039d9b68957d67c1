/**
 * A scenario made ready for the load: its state made on the app, and the app's answer to its request recorded, which
 * is what its baselines send (`baselineOf`); their answers are checked against it, byte for byte, before any load.
 */
import type { Baseline } from './baseline-server.ts'
import { FLOOR_TARGETS, targetsFor, type FloorStorage } from './floors.ts'
import { send, type BenchRequest, type ProbeResponse } from './http.ts'
import type { TargetName } from './report-types.ts'
import { cartKeyOf, type PrepareContext, type PreparedRequest, type Scenario } from './scenarios.ts'

export interface Prepared {
  scenario: Scenario
  request: BenchRequest
  recorded: ProbeResponse
  /** What the scenario's `prepare` returned: the headers of each request of a write pool, what to do before measuring. */
  extra: PreparedRequest
  /** The targets it runs against, in the order they run in a round, and their origins. */
  targets: TargetName[]
  urls: Partial<Record<TargetName, string>>
  /** The app's next request number: each of its requests takes the next cart of the pool (0 was the recording). */
  cursor: { next: number }
}

export async function prepare (scenario: Scenario, appUrl: string, context: Omit<PrepareContext, 'send'>, storage: FloorStorage): Promise<Prepared> {
  const appSend = (request: BenchRequest): Promise<ProbeResponse> => send(appUrl, request)
  const extra = await scenario.prepare({ ...context, send: appSend })
  const body = extra.body ?? scenario.body
  const request: BenchRequest = { method: scenario.method, path: scenario.path, headers: { ...scenario.headers, ...extra.headers }, ...(body === undefined ? {} : { body }) }
  const recorded = await appSend(request)
  if (recorded.status < 200 || recorded.status > 299) throw new Error(`${scenario.name}: the app answered ${recorded.status}: ${recorded.body.slice(0, 500)}`)
  scenario.check?.(recorded)
  if ((scenario.stableBody ?? true) && (await appSend(request)).body !== recorded.body) {
    throw new Error(`${scenario.name}: two calls answered different bodies; mark it stableBody: false`)
  }
  return { scenario, request, recorded, extra, targets: targetsFor(scenario, storage), urls: { app: appUrl }, cursor: { next: 1 } }
}

/** What the baseline process serves for a scenario: the recorded answer, on bare and on each of its floors. */
export function baselineOf ({ scenario, request, recorded, targets }: Prepared): Baseline {
  return {
    name: scenario.name,
    method: request.method,
    path: request.path,
    statusCode: recorded.status,
    contentType: recorded.headers.get('content-type') ?? 'application/json',
    body: recorded.body,
    floors: FLOOR_TARGETS.filter((floor) => targets.includes(floor)),
    ...(targets.includes('bare+pg') ? { cartKey: cartKeyOf(request.headers['Cart-Token'] ?? '') } : {})
  }
}

/** Throws unless every baseline answers the scenario's request with the app's recorded status and body. */
export async function checkBaselines ({ scenario, request, recorded, targets, urls }: Prepared): Promise<void> {
  for (const target of targets.filter((found) => found !== 'app')) {
    const answer = await send(urls[target]!, request)
    if (answer.status !== recorded.status || answer.body !== recorded.body) {
      throw new Error(`${scenario.name}: the ${target} route's answer differs from the app's ` +
        `(status ${answer.status} vs ${recorded.status}, body ${answer.bytes} B vs ${recorded.bytes} B)`)
    }
  }
}
