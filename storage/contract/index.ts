/**
 * The storage contract: the stores' interfaces and the errors every backend raises. A leaf module (it imports only the
 * domain's shapes), so the plugins depend on it without loading any backend.
 */
export type * from './types.ts'
export { isStorageUnavailable, OrderConflictError, StaleReadError, StorageUnavailableError } from './errors.ts'
