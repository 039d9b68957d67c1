import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * WordPress-style nonces (`X-WP-Nonce`, action `wp_rest`): an HMAC of the 12-hour tick, the action, the user and the
 * login session. A nonce is valid in the tick it was made and the next one, so it lives 12 to 24 hours; it dies
 * with the session (logout), and it is bound to one user.
 */
export interface NonceService {
  create (action: string, userId: number, sessionId: string): string
  /** 1 when made in the current tick, 2 in the previous one, 0 when invalid. */
  verify (nonce: string, action: string, userId: number, sessionId: string): 0 | 1 | 2
}

export const NONCE_TICK_SECONDS = 12 * 3600
const NONCE_LENGTH = 22

export function createNonceService ({ secrets, now = Date.now }: { secrets: readonly string[], now?: () => number }): NonceService {
  if (secrets.length === 0) throw new Error('Nonces need at least one secret')
  const tick = () => Math.ceil(now() / 1000 / NONCE_TICK_SECONDS)
  const make = (secret: string, at: number, action: string, userId: number, sessionId: string) =>
    createHmac('sha256', secret).update(`nonce|${at}|${action}|${userId}|${sessionId}`).digest('base64url').slice(0, NONCE_LENGTH)

  return {
    create (action, userId, sessionId) {
      return make(secrets[0]!, tick(), action, userId, sessionId)
    },
    verify (nonce, action, userId, sessionId) {
      if (typeof nonce !== 'string' || nonce.length !== NONCE_LENGTH) return 0
      const given = Buffer.from(nonce)
      const current = tick()
      for (const [age, at] of [[1, current], [2, current - 1]] as const) {
        for (const secret of secrets) {
          const expected = Buffer.from(make(secret, at, action, userId, sessionId))
          if (expected.length === given.length && timingSafeEqual(expected, given)) return age
        }
      }
      return 0
    }
  }
}
