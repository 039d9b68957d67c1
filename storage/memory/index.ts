export { createMemoryRateCounter } from './rate-counter.ts'
export type { MemoryRateCounterOptions } from './rate-counter.ts'
