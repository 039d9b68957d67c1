import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The Store API's Cart-Token: an HS256 JWT `{user_id, exp, iss: 'store-api', iat}` where `user_id` is the cart key.
 * Signed with the first secret; any secret of the list verifies, so secrets can be rotated.
 */
export interface CartTokenSigner {
  sign (cartKey: string): string
  /** The cart key of a valid token, or null for any malformed, tampered or expired one. */
  verify (token: string): string | null
}

export interface CartTokenOptions {
  secrets: readonly string[]
  ttlSeconds?: number
  now?: () => number
  /** Tokens whose signature was checked, remembered until they expire (the oldest go first past this many). */
  verifiedCacheSize?: number
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/
const MAX_TOKEN_LENGTH = 1024

function base64url (value: string | Buffer): string {
  return Buffer.from(value).toString('base64url')
}

function hmac (secret: string, input: string): Buffer {
  return createHmac('sha256', secret).update(input).digest()
}

export function createCartTokenSigner ({ secrets, ttlSeconds = 48 * 3600, now = Date.now, verifiedCacheSize = 10_000 }: CartTokenOptions): CartTokenSigner {
  if (secrets.length === 0) throw new Error('Cart-Token signing needs at least one secret')
  const [signingSecret] = secrets as [string, ...string[]]
  // A shopper's drawer sends the same token on every request: its HMAC is checked once, not on each of them. Only
  // tokens that passed every check are kept, with their expiry, which is checked on every use.
  const verified = new Map<string, { cartKey: string, expiresAtMs: number }>()
  const remember = (token: string, cartKey: string, expiresAtMs: number): void => {
    if (verifiedCacheSize <= 0) return
    if (verified.size >= verifiedCacheSize) verified.delete(verified.keys().next().value as string)
    verified.set(token, { cartKey, expiresAtMs })
  }

  return {
    sign (cartKey) {
      const iat = Math.floor(now() / 1000)
      const payload = base64url(JSON.stringify({ user_id: cartKey, exp: iat + ttlSeconds, iss: 'store-api', iat }))
      const input = `${HEADER}.${payload}`
      return `${input}.${hmac(signingSecret, input).toString('base64url')}`
    },

    verify (token) {
      const known = verified.get(token)
      if (known !== undefined) {
        if (known.expiresAtMs > now()) return known.cartKey
        verified.delete(token)
        return null
      }
      if (token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return null
      const [header, payload, signature] = token.split('.') as [string, string, string]
      if (header !== HEADER) return null
      const given = Buffer.from(signature, 'base64url')
      const input = `${header}.${payload}`
      const signed = secrets.some((secret) => {
        const expected = hmac(secret, input)
        return given.length === expected.length && timingSafeEqual(given, expected)
      })
      if (!signed) return null
      let claims: unknown
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
      } catch {
        return null
      }
      const { user_id: cartKey, exp, iss } = (claims ?? {}) as Record<string, unknown>
      if (typeof cartKey !== 'string' || cartKey === '' || iss !== 'store-api') return null
      if (typeof exp !== 'number' || exp * 1000 <= now()) return null
      remember(token, cartKey, exp * 1000)
      return cartKey
    }
  }
}
