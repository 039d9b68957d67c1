/**
 * What the bench makes of autocannon's runs and of its options: exact percentiles pooled over rounds, the problems
 * that fail a run, the check of bodies received under load, and flags over BENCH_* variables. No load is generated here.
 */
import { test } from 'tap'
import { ConfigError, readConfig } from '../../bench/config.ts'
import { bodyVerifier, type LoadResult } from '../../bench/load.ts'
import { latencySummary, problems, summarizeTarget } from '../../bench/stats.ts'

const run = (requestsPerSecond: number, latencies: number[], more: Partial<LoadResult> = {}): LoadResult => ({
  requestsPerSecond, latencies, responses: latencies.length, non2xx: 0, errors: 0, timeouts: 0, mismatches: 0, statusCodes: { 200: latencies.length }, ...more
})

test('a target\'s rounds: req/s averaged over rounds, latencies pooled over every response', async (t) => {
  t.same(latencySummary(Array.from({ length: 200 }, (_, index) => index + 1)), { p50: 100, p97_5: 195, p99: 198, mean: 100.5, max: 200 })
  t.same(latencySummary([]), { p50: 0, p97_5: 0, p99: 0, mean: 0, max: 0 })
  const summary = summarizeTarget([run(1000, [1, 2, 3]), run(3000, [4, 5], { non2xx: 1, statusCodes: { 200: 1, 409: 1 } })])
  t.same(summary.requestsPerSecond, { mean: 2000, stddev: 1000 })
  t.same(summary.perRound, [1000, 3000])
  t.equal(summary.latencyMs.p50, 3)
  t.same(summary.statusCodes, { 200: 4, 409: 1 })
  t.same(problems('remove-items app', summary), ['remove-items app: 1 non-2xx responses (status codes {"200":4,"409":1})'])
  t.same(problems('x', run(1, [1], { errors: 2, timeouts: 1, mismatches: 3 })), ['x: 2 errors (1 of them timeouts)', 'x: 3 responses whose body differs from the recorded one'])
})

test('a body split inside a character still passes; any other difference does not', async (t) => {
  const verify = bodyVerifier('{"name":"Café"}')
  t.ok(verify('{"name":"Café"}'))
  t.ok(verify('{"name":"Caf\uFFFD\uFFFD"}'), 'replacement characters where é was split')
  t.notOk(verify('{"name":"Cafe"}'))
})

test('options: flags over BENCH_* variables over defaults; unknown scenarios refused', async (t) => {
  const known = ['svc-cart-3-lines', 'drawer-data']
  const config = readConfig(['--duration', '2', '--scenario', 'drawer-data'], { BENCH_DURATION: '9', BENCH_ROUNDS: '1', BENCH_WRITE_POOL: '500', DATABASE_URL: ' ' }, known)
  t.match(config, { duration: 2, rounds: 1, connections: 50, warmup: 2, writePool: 500, poolSize: null, scenarios: ['drawer-data'], databaseUrl: null })
  t.match(readConfig([], { BENCH_SCENARIOS: 'svc-cart-3-lines, drawer-data' }, known), { scenarios: known })
  t.equal(readConfig(['-h'], {}, known), 'help')
  const refused = (argv: string[]): unknown => { try { return readConfig(argv, {}, known) } catch (error) { return error } }
  t.type(refused(['--scenario', 'nope']), ConfigError)
  t.type(refused(['--rounds', '0']), ConfigError)
  t.type(refused(['--bogus']), ConfigError)
})
