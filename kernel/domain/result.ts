import type { DomainError, DomainReason, Result } from './types.ts'

/** A successful Result. */
export function ok<T> (value: T): Result<T> {
  return { ok: true, value }
}

/** A failed Result carrying `error`. */
export function fail<T = never> (error: DomainError): Result<T> {
  return { ok: false, error }
}

/** Builds a DomainError; `data` is only set when given. */
export function domainError (reason: DomainReason, message: string, data?: Record<string, unknown>): DomainError {
  return data === undefined ? { reason, message } : { reason, message, data }
}
