export { createMemoryRateCounter } from './rate-counter.ts'
export type { MemoryRateCounterOptions } from './rate-counter.ts'
export { createMemoryStorage, MemoryStorage } from './memory-storage.ts'
export type { MemoryStorageOptions } from './memory-storage.ts'
