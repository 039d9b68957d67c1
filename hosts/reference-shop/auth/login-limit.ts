import { createHash } from 'node:crypto'
import { restError } from '../../../kernel/errors/index.ts'
import type { RateCounter, RateHit } from '../../../storage/contract/index.ts'

/**
 * Login throttling (OWASP's Authentication Cheat Sheet, "Login Throttling", and its device-cookie protocol). Three
 * controls, none of which can keep the right password from a known client out:
 *
 * - per client address (IPv4 address, IPv6 /64; `perIp`): every attempt from a client without a known-device cookie
 *   counts, whatever its outcome and account — guessing one password for many accounts from one address runs out;
 * - per account and client (`perClient`): the client is the browser's known-device cookie for that account, else its
 *   address. After `freeFailures` failures the client waits before its next attempt, `firstDelayMs` and doubling with
 *   each failure up to `maxDelayMs`; a success clears its failures. A guesser slows down on its own client only;
 * - per account, for unknown clients (`perAccount`): clients with neither a known-device cookie for the account nor a
 *   network (address bucket) it logged in from within `knownNetworkMs` share a budget of failures per window. Once a
 *   botnet has spent it, unknown clients wait for the window's end, while the account's known devices and networks
 *   still get in with the right password.
 *
 * A refused attempt is answered 429 `svc_rate_limit_exhausted` with `Retry-After`, at once, before the password is
 * checked: no request is held open (a delay that sleeps would hold the server's connections for the attacker), and a
 * refused attempt learns nothing. The answers are the same whether the account exists or not. The counters are the
 * service's (Redis in production, shared by every instance, counted per instance while Redis does not answer); a
 * counter that fails or does not answer refuses logins (fail closed) with 503.
 */
export interface LoginLimits {
  /** Attempts per client address from clients without a known-device cookie, whatever their outcome. */
  perIp: { max: number, windowMs: number }
  /** The growing wait of one client on one account. */
  perClient: {
    /** Failures that cost no wait. */
    freeFailures: number
    /** The wait after the first failure past the free ones; it doubles with each further failure. */
    firstDelayMs: number
    maxDelayMs: number
    /** Failures are forgotten this long after the first one of their run (or at the next success). */
    forgetAfterMs: number
  }
  /** Failures per account from unknown clients in a window. */
  perAccount: { max: number, windowMs: number }
  /** How long a network (address bucket) the account logged in from counts as known to it. */
  knownNetworkMs: number
  /** How long a known-device cookie lasts (renewed at each login on that device). */
  knownDeviceMs: number
  /** A counter store slower than this refuses the login with 503. */
  timeoutMs: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perIp: { max: 30, windowMs: MINUTE },
  perClient: { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 15 * MINUTE, forgetAfterMs: DAY },
  perAccount: { max: 20, windowMs: HOUR },
  knownNetworkMs: 30 * DAY,
  knownDeviceMs: 180 * DAY,
  timeoutMs: 1000
}

/** The wait a client owes after its `failures`-th failure on an account: none for the free ones, then doubling. */
export function loginDelayMs (failures: number, policy: LoginLimits['perClient']): number {
  const past = failures - policy.freeFailures
  if (past <= 0) return 0
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(past - 1, 40))
}

/** The account part of a key: a hash, so neither the counter store nor a cookie holds e-mail addresses. */
export function accountKey (email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)
}

/** A login attempt about to be checked. */
export interface LoginAttempt {
  /** The client's address bucket (the security plugin's `clientAddressResolver`). */
  bucket: string
  email: string
  /** The id of the browser's known-device cookie for this account, or null. */
  device: string | null
}

/** What `admit` found, handed back to `succeeded` or `failed`. */
export interface LoginAdmission {
  account: string
  client: string
  bucket: string
  /** A known device or a known network: the account's budget for unknown clients does not apply. */
  known: boolean
  failures: number
}

export interface LoginThrottle {
  /** Counts an attempt and admits it, or throws 429 `svc_rate_limit_exhausted` (or 503 `svc_rate_limit_unavailable`). */
  admit (attempt: LoginAttempt): Promise<LoginAdmission>
  /** The password was right: the client's failures are cleared and its network becomes known to the account. */
  succeeded (admission: LoginAdmission): Promise<void>
  /** The password was wrong: one more failure, a longer wait. */
  failed (admission: LoginAdmission): Promise<void>
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

const NONE: RateHit = { count: 0, resetInMs: 0 }

/** The throttle over a rate counter; `log` hears of counts that could not be recorded after the password check. */
export function createLoginThrottle (counter: RateCounter, limits: LoginLimits, log: (error: unknown, what: string) => void): LoginThrottle {
  const { perIp, perClient, perAccount, knownNetworkMs, timeoutMs } = limits
  const keys = (admission: Pick<LoginAdmission, 'account' | 'client' | 'bucket'>) => ({
    failures: `login:failures:${admission.account}:${admission.client}`,
    wait: `login:wait:${admission.account}:${admission.client}`,
    unknown: `login:unknown:${admission.account}`,
    network: `login:network:${admission.account}:${admission.bucket}`
  })
  const counted = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await within(work, timeoutMs)
    } catch (error) {
      throw Object.assign(restError('svc_rate_limit_unavailable', undefined, undefined, { 'Retry-After': '1' }), { cause: error })
    }
  }

  return {
    async admit ({ bucket, email, device }) {
      const account = accountKey(email)
      const client = device === null ? `ip:${bucket}` : `device:${device}`
      const key = keys({ account, client, bucket })
      const [ip, failures, network, unknown] = await counted(Promise.all([
        device === null ? counter.hit(`login:ip:${bucket}`, perIp.windowMs) : NONE,
        counter.peek(key.failures, perClient.forgetAfterMs),
        device === null ? counter.peek(key.network, knownNetworkMs) : NONE,
        device === null ? counter.peek(key.unknown, perAccount.windowMs) : NONE
      ]))
      const known = device !== null || network.count > 0
      const delayMs = loginDelayMs(failures.count, perClient)
      // The wait after the client's last failure: a window as long as the wait, opened by that failure.
      const wait = delayMs > 0 ? await counted(counter.peek(key.wait, delayMs)) : NONE

      const refusedFor = Math.max(
        ip.count > perIp.max ? ip.resetInMs : 0,
        wait.count > 0 ? wait.resetInMs : 0,
        !known && unknown.count >= perAccount.max ? unknown.resetInMs : 0
      )
      if (refusedFor > 0) {
        const seconds = Math.max(1, Math.ceil(refusedFor / 1000))
        throw restError('svc_rate_limit_exhausted', 'Too many login attempts. Please try again later.', undefined, { 'Retry-After': String(seconds) })
      }
      return { account, client, bucket, known, failures: failures.count }
    },

    async succeeded (admission) {
      const key = keys(admission)
      const delayMs = loginDelayMs(admission.failures, perClient)
      try {
        await within(Promise.all([
          counter.reset(key.failures, perClient.forgetAfterMs),
          delayMs > 0 ? counter.reset(key.wait, delayMs) : undefined,
          counter.hit(key.network, knownNetworkMs)
        ]), timeoutMs)
      } catch (error) {
        log(error, 'a successful login could not clear its failures')
      }
    },

    async failed (admission) {
      const key = keys(admission)
      try {
        const [failures] = await within(Promise.all([
          counter.hit(key.failures, perClient.forgetAfterMs),
          admission.known ? undefined : counter.hit(key.unknown, perAccount.windowMs)
        ]), timeoutMs)
        const delayMs = loginDelayMs(failures.count, perClient)
        if (delayMs > 0) await within(counter.hit(key.wait, delayMs), timeoutMs)
      } catch (error) {
        log(error, 'a failed login could not be counted')
      }
    }
  }
}

/** Logins are not limited (a shop without a rate counter). */
export const UNLIMITED_LOGINS: LoginThrottle = {
  admit: async ({ bucket, email, device }) => ({ account: accountKey(email), client: device ?? bucket, bucket, known: true, failures: 0 }),
  succeeded: async () => {},
  failed: async () => {}
}
