import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Login } from 'cart-drawer-service/drawer'

/**
 * Cart-Tokens, logins and REST nonces, kept simple: all of them HMAC-SHA256 with the shop's secret. A Cart-Token is
 * `<cart key>.<signature>`; a login is a random session id in a cookie, kept in memory; a nonce is a signature of the
 * session id.
 */

const CART_KEY = /^[0-9a-f]{32}$/

export const MANAGE_SHOP = 'manage_shop'

export interface ShopLogin extends Login {
  sessionId: string
}

export class Signer {
  readonly #secret: string

  constructor (secret: string) {
    if (Buffer.byteLength(secret) < 32) throw new Error('secret: at least 32 bytes')
    this.#secret = secret
  }

  sign (purpose: string, text: string): string {
    return createHmac('sha256', this.#secret).update(`${purpose}|${text}`).digest('base64url')
  }

  verify (purpose: string, text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, text))
    const given = Buffer.from(signature)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  newCartKey (): string {
    return randomBytes(16).toString('hex')
  }

  cartToken (key: string): string {
    return `${key}.${this.sign('cart', key)}`
  }

  /** The cart key of a token this shop signed, else null. */
  cartKeyOfToken (token: string): string | null {
    const [key, signature, ...rest] = token.split('.')
    if (key === undefined || signature === undefined || rest.length > 0 || !CART_KEY.test(key)) return null
    return this.verify('cart', key, signature) ? key : null
  }
}

/** The shop's one manager and the login sessions, in memory. */
export class Accounts {
  readonly #signer: Signer
  readonly #admin: { email: string, password: string }
  readonly #sessions = new Map<string, number>()
  readonly manager = { id: 1, displayName: 'Shop Manager', capabilities: [MANAGE_SHOP, 'read'] as const }

  constructor (signer: Signer, admin: { email: string, password: string }) {
    this.#signer = signer
    this.#admin = { email: admin.email.trim().toLowerCase(), password: admin.password }
  }

  /** A new session for the manager's e-mail and password, else null (compared as signatures: constant time). */
  login (email: string, password: string): ShopLogin | null {
    const given = this.#signer.sign('login', `${email.trim().toLowerCase()}\u0000${password}`)
    if (!this.#signer.verify('login', `${this.#admin.email}\u0000${this.#admin.password}`, given)) return null
    const sessionId = randomBytes(24).toString('base64url')
    this.#sessions.set(sessionId, this.manager.id)
    return { user: this.manager, sessionId }
  }

  session (sessionId: string | undefined): ShopLogin | null {
    if (sessionId === undefined || this.#sessions.get(sessionId) !== this.manager.id) return null
    return { user: this.manager, sessionId }
  }

  logout (sessionId: string): void {
    this.#sessions.delete(sessionId)
  }

  restNonce (login: Login): string {
    return this.#signer.sign('nonce', (login as ShopLogin).sessionId).slice(0, 20)
  }

  verifyNonce (nonce: string, login: Login): boolean {
    const expected = Buffer.from(this.restNonce(login))
    const given = Buffer.from(nonce)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }
}
