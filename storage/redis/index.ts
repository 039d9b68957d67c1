export { createRedisRateCounter } from './rate-counter.ts'
export type { RedisRateCounterOptions } from './rate-counter.ts'
