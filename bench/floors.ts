/**
 * The floors: bare `Fastify()` routes that pay what a design cannot avoid and nothing of the app's own code, measured
 * in the same run as the app (their routes: `floor-routes.ts`). Which targets a scenario runs against, and which of
 * them is its floor: bare+tx for a write, else bare+redis when it ran, else bare+pg (reads are meant to reach the
 * cheaper of the two). Every floor that ran keeps its own ratio.
 */
import type { FloorTarget, TargetName } from './report-types.ts'
import type { Scenario } from './scenarios.ts'

export const FLOOR_TARGETS: readonly FloorTarget[] = ['bare+pg', 'bare+redis', 'bare+tx']

/** What the run has to build floors on. */
export interface FloorStorage { postgres: boolean, redis: boolean }

/** app and bare always, then each floor the scenario asks for that the storage allows. */
export function targetsFor (scenario: Scenario, storage: FloorStorage): TargetName[] {
  const wanted = new Set<FloorTarget>()
  if (storage.postgres && scenario.answersStoredSnapshot === true) wanted.add('bare+pg')
  if (storage.redis && scenario.floors?.includes('bare+redis') === true) wanted.add('bare+redis')
  if (storage.postgres && scenario.floors?.includes('bare+tx') === true) wanted.add('bare+tx')
  return ['app', 'bare', ...FLOOR_TARGETS.filter((floor) => wanted.has(floor))]
}

/** The floor a scenario is judged against: bare+tx, else bare+redis, else bare+pg; undefined when none ran. */
export function floorOf (targets: readonly TargetName[]): FloorTarget | undefined {
  return (['bare+tx', 'bare+redis', 'bare+pg'] as const).find((floor) => targets.includes(floor))
}

/** The floors any of these results ran against, in `FLOOR_TARGETS` order. */
export function floorsIn (results: ReadonlyArray<{ targets: Partial<Record<TargetName, unknown>> }>): FloorTarget[] {
  return FLOOR_TARGETS.filter((floor) => results.some((result) => result.targets[floor] !== undefined))
}

/** What each floor is, under the tables that show it. */
export const FLOOR_NOTES: Record<FloorTarget, string> = {
  'bare+pg': 'bare+pg: bare Fastify reading the cart\'s stored snapshot by primary key (one named prepared statement, ' +
    'a pg pool of the app\'s size) and sending it: the floor of a design that reads PostgreSQL once per request.',
  'bare+redis': 'bare+redis: bare Fastify GETting the recorded body from Redis by one key (ioredis, one connection, the ' +
    'app\'s Redis) and sending it with bare\'s headers: the floor of a read answered from Redis.',
  'bare+tx': 'bare+tx: bare Fastify running one PostgreSQL transaction per request (BEGIN; SELECT the cart FOR UPDATE; ' +
    'UPDATE its ~3 KB JSON document; COMMIT) on a cart of its own, through a pg pool of the app\'s size, then sending ' +
    'the recorded body: the floor of a write.'
}

export const FLOOR_RULE = 'floor: the one a scenario is judged against: bare+tx for a write, else bare+redis where it ran, else bare+pg.'
