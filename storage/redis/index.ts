export { createRedisRateCounter } from './rate-counter.ts'
export type { RedisRateCounterOptions } from './rate-counter.ts'
export { createRedisViewCache } from './view-cache.ts'
export type { RedisViewCacheOptions } from './view-cache.ts'
