import { createHash } from 'node:crypto'
import { restError } from '../../../errors/index.ts'
import type { RateCounter } from '../../../storage/types.ts'

/**
 * Login attempts are counted per client IP and per account (the e-mail address as typed, trimmed and lower-cased),
 * each in a fixed window, whatever their outcome: guessing passwords for one account from many addresses, or for
 * many accounts from one address, runs out either way. Counting happens before the password is checked, so a
 * refused attempt learns nothing. The counters are the service's (Redis in production), so every instance shares
 * them; a counter store that does not answer refuses logins (fail closed) with 503.
 */
export interface LoginLimits {
  perIp: { max: number, windowMs: number }
  perAccount: { max: number, windowMs: number }
  /** A counter store slower than this refuses the login with 503. */
  timeoutMs: number
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perIp: { max: 30, windowMs: 60_000 },
  perAccount: { max: 10, windowMs: 60_000 },
  timeoutMs: 1000
}

/** The account part of a key: a hash, so the counter store never holds e-mail addresses. */
function accountKey (email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)
}

async function within<T> (promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([promise, new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`rate counter did not answer within ${ms} ms`)), ms)
    })])
  } finally {
    clearTimeout(timer)
  }
}

/** Counts one login attempt; throws 429 `svc_rate_limit_exhausted` or 503 `svc_rate_limit_unavailable`. */
export async function countLoginAttempt (counter: RateCounter, limits: LoginLimits, ip: string, email: string): Promise<void> {
  let hits
  try {
    hits = await within(Promise.all([
      counter.hit(`login:ip:${ip}`, limits.perIp.windowMs),
      counter.hit(`login:account:${accountKey(email)}`, limits.perAccount.windowMs)
    ]), limits.timeoutMs)
  } catch (error) {
    throw Object.assign(restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' }), { cause: error })
  }
  const [ip_, account] = hits
  const exhausted = [
    ...(ip_.count > limits.perIp.max ? [ip_.resetInMs] : []),
    ...(account.count > limits.perAccount.max ? [account.resetInMs] : [])
  ]
  if (exhausted.length > 0) {
    const seconds = Math.max(1, Math.ceil(Math.max(...exhausted) / 1000))
    throw restError('svc_rate_limit_exhausted', 'Too many login attempts. Please try again later.', undefined, { 'Retry-After': String(seconds) })
  }
}
