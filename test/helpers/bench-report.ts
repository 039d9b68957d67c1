import type { BenchReport } from '../../bench/report-types.ts'

/** A bench report of a fixed run (machine, storage, load), with the scenarios and goals a test gives. */
export function benchReport (parts: Partial<Pick<BenchReport, 'scenarios' | 'goals'>> = {}): BenchReport {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    ok: true,
    failures: [],
    git: { commit: '0123456789abcdef', dirty: false },
    machine: { cpu: 'cpu', cores: 2, memoryGiB: 8, os: 'os', node: 'v20', autocannon: '9', loadAverageAtStart: [0, 0, 0] },
    storage: { backend: 'postgres', rateCounter: 'redis', detail: '' },
    load: { connections: 50, durationSeconds: 5, rounds: 3, warmupSeconds: 2, writePool: 1, rateLimitMultiplier: 1 },
    scenarios: [],
    pricing: [],
    goals: [],
    ...parts
  }
}
