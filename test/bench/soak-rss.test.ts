/**
 * The soak's RSS verdict and the heap the app keeps after a full collection beside it: the RSS goal judges the lowest
 * samples of the first and of the last minute; the heap after the bench's two collections is shown with its drift.
 * No load is generated here.
 */
import { test } from 'tap'
import { goals } from '../../bench/goals.ts'
import { markdownReport } from '../../bench/markdown.ts'
import { collectionTimes, summarizeRss, type RssSample } from '../../bench/scale.ts'
import type { ScaleReport } from '../../bench/report.ts'
import { benchReport } from '../helpers/bench-report.ts'

// A saw-tooth whose troughs fall from 500 to 360 MiB over the run: the lowest samples of the minutes drift by -18 %.
const samples: RssSample[] = Array.from({ length: 301 }, (_, t) => ({ t, rssMiB: (t % 40 === 0 ? 500 - t / 2 : 620) }))
const soak = (rss: ReturnType<typeof summarizeRss>): ScaleReport => ({
  soak: { seconds: 300, mix: [], requestsPerSecond: 1, responses: 1, non2xx: 0, errors: 0, latencyMs: { mean: 1, p50: 1, p97_5: 1, p99: 1, max: 1 }, rss }
})
const rssGoal = (scale: ScaleReport) => {
  const found = goals([], scale).find((goal) => goal.goal.startsWith('RSS stable'))
  if (found === undefined) throw new Error('no RSS goal')
  return found
}

test('the collections come halfway through the warm-up and near the end', async (t) => {
  t.same(collectionTimes(300), [30, 297])
  t.same(collectionTimes(120), [12, 117])
  const [first, last] = collectionTimes(10)
  t.ok(first > 0 && first < last && last <= 10, 'a short soak still gets two, in order, inside the run')
})

test('the heap kept after the collections is shown beside the RSS verdict, which it does not change', async (t) => {
  const rss = summarizeRss(samples, 300, [{ t: 30.2, heapMiB: 90 }, { t: 297.1, heapMiB: 94.5 }])
  t.equal(rss.heapAfterCollection?.drift, 0.05)
  t.ok(rss.floorDrift < -0.1, 'the minutes\' lowest samples drift by more than 10 %')
  const goal = rssGoal(soak(rss))
  t.equal(goal.met, false, 'the RSS goal is judged on the RSS')
  t.match(goal.figure, /heap kept after a full collection 90 and 94\.5 MiB \(drift 5(\.0)? ?%\)/)
  t.equal(rssGoal(soak(summarizeRss(samples, 300))).figure.includes('heap'), false, 'nothing about the heap without collections')
})

test('the report\'s mixed-run line gives the heap after each collection', async (t) => {
  const rss = summarizeRss(samples, 300, [{ t: 30.2, heapMiB: 90 }, { t: 297.1, heapMiB: 94.5 }])
  const report = benchReport({ scale: soak(rss) })
  t.match(markdownReport(report), /heap kept after a full collection 90 MiB at 30\.2 s and 94\.5 MiB at 297\.1 s \(drift 5\.0 %\)/)
})
