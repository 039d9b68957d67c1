import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import type { Login } from 'cart-drawer-service/drawer'
import type { User } from 'cart-drawer-service/storage'

/** A login session of the tea shop, kept in memory by its id (the cookie's value). */
export interface Session {
  id: string
  userId: number
  createdAt: string
  expiresAt: string
}

/** The tea shop's login: the user and the session the cookie names (the drawer sees only `user`, and hands it back). */
export interface ShopLogin extends Login {
  session: Session
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>

const CART_KEY = /^[0-9a-f]{32}$/
const DAY_MS = 24 * 3_600_000
const NONCE_TICK_MS = 12 * 3_600_000

function hmac (secret: string, text: string): Buffer {
  return createHmac('sha256', secret).update(text).digest()
}

function sameBytes (a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Cart-Tokens: `<cart key>.<expiry in ms>.<HMAC-SHA256 of both>`, base64url. Whoever holds one may use that cart;
 * nobody can make one for another key or extend its life without the secret.
 */
export class CartTokens {
  readonly #secret: string
  readonly #now: () => Date
  readonly #lifetimeMs: number

  constructor (secret: string, now: () => Date, lifetimeMs = 2 * DAY_MS) {
    this.#secret = secret
    this.#now = now
    this.#lifetimeMs = lifetimeMs
  }

  /** A new cart key: 32 random hex digits. */
  newKey (): string {
    return randomBytes(16).toString('hex')
  }

  issue (key: string): string {
    const expires = this.#now().getTime() + this.#lifetimeMs
    return `${key}.${expires}.${this.#sign(key, expires)}`
  }

  /** The cart key of a valid, unexpired token, else null. */
  verify (token: string): string | null {
    const [key, expires, signature, ...rest] = token.split('.')
    if (key === undefined || expires === undefined || signature === undefined || rest.length > 0) return null
    if (!CART_KEY.test(key) || !/^\d{1,15}$/.test(expires)) return null
    const expected = Buffer.from(this.#sign(key, Number(expires)))
    if (!sameBytes(Buffer.from(signature), expected)) return null
    return Number(expires) > this.#now().getTime() ? key : null
  }

  #sign (key: string, expires: number): string {
    return hmac(this.#secret, `cart-token|${key}|${expires}`).toString('base64url')
  }
}

export interface AccountsOptions {
  secret: string
  now: () => Date
  /** The shop's one manager (`manage_shop`). */
  admin: { email: string, password: string, displayName?: string }
}

export const MANAGE_SHOP = 'manage_shop'

/**
 * Accounts: one shop manager whose password is given by the options (scrypt-hashed at start), login sessions kept
 * in memory for two days, and REST nonces: an HMAC of the session id and a twelve-hour tick, valid for the current
 * tick and the one before (as WordPress's nonces are).
 */
export class Accounts {
  readonly #secret: string
  readonly #now: () => Date
  readonly #users: Promise<User[]>
  readonly #sessions = new Map<string, Session>()

  constructor (options: AccountsOptions) {
    this.#secret = options.secret
    this.#now = options.now
    const { admin } = options
    this.#users = hashPassword(admin.password).then((passwordHash) => [{
      id: 1,
      email: admin.email.toLowerCase(),
      displayName: admin.displayName ?? 'Shop Manager',
      passwordHash,
      capabilities: [MANAGE_SHOP, 'read']
    }])
  }

  /** A new session for the right e-mail and password, else null. */
  async login (email: string, password: string): Promise<ShopLogin | null> {
    const user = (await this.#users).find((candidate) => candidate.email === email.trim().toLowerCase())
    // A missing user costs a hash too, so timing does not tell which e-mails exist.
    const valid = await checkPassword(password, user?.passwordHash ?? DUMMY_HASH)
    if (user === undefined || !valid) return null
    const now = this.#now()
    const session: Session = {
      id: randomBytes(24).toString('base64url'),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 2 * DAY_MS).toISOString()
    }
    this.#sessions.set(session.id, session)
    return { user, session }
  }

  /** The login of a session id (from the cookie), or null when unknown or expired. */
  async session (id: string | undefined): Promise<ShopLogin | null> {
    const session = id === undefined ? undefined : this.#sessions.get(id)
    if (session === undefined) return null
    if (Date.parse(session.expiresAt) <= this.#now().getTime()) {
      this.#sessions.delete(session.id)
      return null
    }
    const user = (await this.#users).find((candidate) => candidate.id === session.userId)
    return user === undefined ? null : { user, session }
  }

  logout (id: string): void {
    this.#sessions.delete(id)
  }

  restNonce (login: Login): string {
    return this.#nonce((login as ShopLogin).session.id, Math.floor(this.#now().getTime() / NONCE_TICK_MS))
  }

  verifyNonce (nonce: string, login: Login): boolean {
    const tick = Math.floor(this.#now().getTime() / NONCE_TICK_MS)
    const given = Buffer.from(nonce)
    return [tick, tick - 1].some((candidate) => sameBytes(given, Buffer.from(this.#nonce((login as ShopLogin).session.id, candidate))))
  }

  #nonce (sessionId: string, tick: number): string {
    return hmac(this.#secret, `rest-nonce|${sessionId}|${tick}`).toString('hex').slice(0, 20)
  }
}

async function hashPassword (password: string): Promise<string> {
  const salt = randomBytes(16)
  return `scrypt$${salt.toString('base64url')}$${(await scryptAsync(password, salt, 32)).toString('base64url')}`
}

async function checkPassword (password: string, stored: string): Promise<boolean> {
  const [, salt, hash] = stored.split('$')
  if (salt === undefined || hash === undefined) return false
  return sameBytes(await scryptAsync(password, Buffer.from(salt, 'base64url'), 32), Buffer.from(hash, 'base64url'))
}

const DUMMY_HASH = `scrypt$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`
