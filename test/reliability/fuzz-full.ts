/**
 * The full hostile-input run: `npm run test:fuzz` (FUZZ_RUNS, default 10000; FUZZ_SEED, default a new one, printed
 * so that a failure can be replayed). The normal suite runs a seed-fixed slice (test/reliability/fuzz.test.ts).
 */
import tap, { test } from 'tap'
import { fuzzApp } from '../helpers/fuzz-run.ts'

const runs = Number(process.env.FUZZ_RUNS ?? 10_000)
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
tap.setTimeout(1_800_000)

test(`hostile requests: ${runs} of them, seed ${seed} (FUZZ_SEED=${seed} replays this run)`, { timeout: 1_800_000 }, async (t) => {
  await fuzzApp(t, { runs, seed })
})
