import { test } from 'tap'
import { fuzzApp } from '../helpers/fuzz-run.ts'

// A seed-fixed slice of the hostile-input fuzzer; `npm run test:fuzz` runs the full one (10,000 requests or more).
test('hostile requests derived from every route\'s schema (a seed-fixed slice)', { timeout: 120_000 }, async (t) => {
  await fuzzApp(t, { runs: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 20261122) })
})
