/**
 * The measurement: a warm-up of every target, then rounds in which the targets of every scenario take turns under
 * the same load, one at a time; each target's rounds summed up, with the app's ratio to each baseline.
 */
import type { BenchConfig } from './config.ts'
import { FLOOR_TARGETS, floorOf } from './floors.ts'
import { runLoad, type LoadResult } from './load.ts'
import type { Prepared } from './prepare.ts'
import type { PerTarget, ScenarioResult, TargetName, TargetSummary } from './report-types.ts'
import { problems, ratios, summarizeTarget } from './stats.ts'

/** What a measurement needs of the run; `alive` throws when a server process has exited. */
export interface MeasureContext { config: BenchConfig, signal: AbortSignal, log: (line: string) => void, alive: () => void }

/**
 * One run of `duration` seconds against one target. The app consumes a write scenario's pool of carts; the baselines
 * walk the same headers from the start each run, so the load generator does the same work for every target.
 */
function load (context: MeasureContext, target: TargetName, item: Prepared, duration: number): Promise<LoadResult> {
  context.alive()
  let index = 0
  const at = item.extra.perRequestHeaders
  return runLoad(item.urls[target]!, item.request, {
    connections: context.config.connections,
    duration,
    ...((item.scenario.stableBody ?? true) ? { expectBody: item.recorded.body } : {}),
    ...(at === undefined ? {} : { perRequestHeaders: target === 'app' ? () => at(item.cursor.next++) : () => at(index++) }),
    signal: context.signal
  })
}

export async function measure (context: MeasureContext, items: readonly Prepared[]): Promise<ScenarioResult[]> {
  const { config, log } = context
  for (const item of config.warmup > 0 ? items : []) {
    for (const target of item.targets) {
      log(`warm-up ${item.scenario.name} ${target} (${config.warmup} s)`)
      const found = problems(`warm-up ${item.scenario.name} ${target}`, await load(context, target, item, config.warmup))
      if (found.length > 0) throw new Error(found.join('\n'))
    }
  }
  const runs = new Map(items.map((item) => [item, new Map(item.targets.map((target) => [target, [] as LoadResult[]]))]))
  for (let round = 1; round <= config.rounds; round++) {
    for (const item of items) {
      for (const target of item.targets) {
        const result = await load(context, target, item, config.duration)
        runs.get(item)!.get(target)!.push(result)
        log(`round ${round}/${config.rounds} ${item.scenario.name} ${target}: ${Math.round(result.requestsPerSecond)} req/s, ` +
          `${result.responses} responses, ${result.non2xx} non-2xx, ${result.errors} errors`)
      }
    }
  }
  context.alive()
  return items.map((item) => {
    const targets = Object.fromEntries([...runs.get(item)!].map(([target, results]) => [target, summarizeTarget(results)])) as PerTarget<TargetSummary>
    const floor = floorOf(item.targets)
    return {
      name: item.scenario.name,
      description: item.scenario.description,
      bodyBytes: item.recorded.bytes,
      targets,
      ratio: ratios(targets.app, targets.bare),
      ratioTo: Object.fromEntries(FLOOR_TARGETS.filter((floor) => targets[floor] !== undefined).map((floor) => [floor, ratios(targets.app, targets[floor]!)])),
      ...(floor === undefined ? {} : { floor })
    }
  })
}
