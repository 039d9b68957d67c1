import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { readSignedCookie, setSignedCookie } from '../session/cookies.ts'
import { accountKey } from './login-limit.ts'

/**
 * The known-device cookie of OWASP's device-cookie protocol: after a successful login the browser gets, signed with
 * the shop's secrets, the account (as `accountKey`, a hash of the e-mail address) and a random id for this device.
 * A later login on that account from this browser is throttled on its own (`LoginThrottle`), apart from the addresses
 * and devices others guess from. One cookie holds the browser's last few accounts (a shared computer); each login
 * gives its account a new id. httpOnly, SameSite=Lax, Secure on https, like the platform's other cookies.
 */
export const DEVICE_COOKIE = 'svc_device'

/** Accounts one browser remembers; the oldest goes first. */
const MAX_ACCOUNTS = 5
const ENTRY = /^([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]{22})$/

function entries (request: FastifyRequest): Array<{ account: string, device: string }> {
  const value = readSignedCookie(request, DEVICE_COOKIE)
  if (value === null) return []
  return value.split('|').slice(0, MAX_ACCOUNTS).flatMap((entry) => {
    const match = ENTRY.exec(entry)
    return match === null ? [] : [{ account: match[1]!, device: match[2]! }]
  })
}

/** The id of this browser's known-device cookie for the account of `email`, or null. */
export function knownDevice (request: FastifyRequest, email: string): string | null {
  const account = accountKey(email)
  return entries(request).find((entry) => entry.account === account)?.device ?? null
}

/** Remembers this browser for the account of `email` with a new device id (after a successful login). */
export function rememberDevice (request: FastifyRequest, reply: FastifyReply, email: string, maxAgeMs: number): void {
  const account = accountKey(email)
  const device = randomBytes(16).toString('base64url')
  const kept = entries(request).filter((entry) => entry.account !== account).slice(0, MAX_ACCOUNTS - 1)
  const value = [{ account, device }, ...kept].map((entry) => `${entry.account}:${entry.device}`).join('|')
  setSignedCookie(request, reply, DEVICE_COOKIE, value, Math.floor(maxAgeMs / 1000))
}
