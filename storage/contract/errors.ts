/** Raised (or recognised) when a backing server cannot be reached; the HTTP layer answers 503. */
export class StorageUnavailableError extends Error {
  constructor (message = 'storage unavailable', options?: ErrorOptions) {
    super(message, options)
    this.name = 'StorageUnavailableError'
  }
}

const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH'])
// PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown, cannot connect now).
const unavailableSqlState = /^(08|57P)/

/** Whether an error means "the database or counter store is out of reach" rather than a bug. */
export function isStorageUnavailable (error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown, message?: unknown }
  if (typeof code === 'string' && (networkCodes.has(code) || unavailableSqlState.test(code))) return true
  if (typeof message === 'string') {
    return /timeout exceeded when trying to connect|Connection terminated|connection is closed|Stream isn't writeable|Command timed out|Query read timeout/i.test(message)
  }
  return false
}

/**
 * A write made from reads that are no longer current (`CartUpdateOptions.newCartAt`: the catalog moved, or the key was
 * stored meanwhile). Nothing was stored: the caller reads again and starts over.
 */
export class StaleReadError extends Error {
  constructor (message = 'the reads this write was made from are no longer current') {
    super(message)
    this.name = 'StaleReadError'
  }
}

/** Why `createOrder` refused: a product's stock or a coupon's usage limit no longer allows it. Nothing was changed. */
export class OrderConflictError extends Error {
  readonly reason: 'out_of_stock' | 'coupon_usage_limit'
  /** The product id or coupon code refused. */
  readonly subject: number | string

  constructor (reason: 'out_of_stock' | 'coupon_usage_limit', subject: number | string) {
    super(reason === 'out_of_stock' ? `not enough stock of product ${subject}` : `coupon ${subject} reached its usage limit`)
    this.name = 'OrderConflictError'
    this.reason = reason
    this.subject = subject
  }
}
