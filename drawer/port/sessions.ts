import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Login } from './port.ts'

/**
 * The drawer's own Cart-Tokens and REST nonces, for a host that has none of its own: each signed with the drawer's
 * first secret and accepted under any of them (a secret being rotated out still verifies until it is dropped).
 *
 * - A Cart-Token is `{cart key}.{HMAC-SHA256 of it}` (base64url): a bearer's token, as the port's `cartKeyOfToken`
 *   describes. The key itself is the host's (its session's cart), or a new random one.
 * - A REST nonce is 20 hex characters of the HMAC of the user's id and the login's session id: it changes with every
 *   new login session and cannot be made without the secret. A host whose logins carry no `sessionId` gets one nonce
 *   per user, valid until the secret changes.
 *
 * Hand-written rather than a JWT library: two HMACs with a constant-time comparison are all that is needed, and a
 * token format with algorithms and claims would be more to get wrong.
 */
export interface DrawerSessions {
  cartKeyOfToken (token: string): string | null
  /** A Cart-Token naming `key`. */
  issueToken (key: string): string
  /** A new cart key (32 hex characters). */
  newCartKey (): string
  restNonce (login: Login): string
  verifyNonce (nonce: string, login: Login): boolean
}

const TOKEN = /^([A-Za-z0-9_-]{1,128})\.([A-Za-z0-9_-]{43})$/
const NONCE = /^[0-9a-f]{20}$/

function mac (secret: string, purpose: string, value: string): Buffer {
  return createHmac('sha256', secret).update(`${purpose}\0${value}`).digest()
}

function same (a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

export function drawerSessions (secrets: readonly string[]): DrawerSessions {
  if (secrets.length === 0) throw new Error('the drawer signs its own Cart-Tokens and nonces: it needs at least one secret')
  const nonceOf = (secret: string, login: Login): string =>
    mac(secret, 'rest-nonce', `${login.user.id}\0${login.sessionId ?? ''}`).toString('hex').slice(0, 20)
  return {
    cartKeyOfToken (token) {
      const match = TOKEN.exec(token)
      if (match === null) return null
      const [, key, signature] = match as unknown as [string, string, string]
      const given = Buffer.from(signature, 'base64url')
      return secrets.some((secret) => same(mac(secret, 'cart-token', key), given)) ? key : null
    },
    issueToken (key) {
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(key)) throw new Error('a cart key the drawer signs is 1 to 128 characters of A-Z, a-z, 0-9, _ and -')
      return `${key}.${mac(secrets[0]!, 'cart-token', key).toString('base64url')}`
    },
    newCartKey: () => randomBytes(16).toString('hex'),
    restNonce: (login) => nonceOf(secrets[0]!, login),
    verifyNonce (nonce, login) {
      if (!NONCE.test(nonce)) return false
      return secrets.some((secret) => same(Buffer.from(nonceOf(secret, login)), Buffer.from(nonce)))
    }
  }
}
