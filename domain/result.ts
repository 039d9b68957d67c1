import type { DomainError, Result } from './types.ts'

/** A successful Result. */
export function ok<T> (value: T): Result<T> {
  return { ok: true, value }
}

/** A failed Result carrying `error`. */
export function fail<T = never> (error: DomainError): Result<T> {
  return { ok: false, error }
}

/** Builds a DomainError; `data` is only set when given. */
export function domainError (code: string, message: string, status: number, data?: Record<string, unknown>): DomainError {
  return data === undefined ? { code, message, status } : { code, message, status, data }
}
