import { createHash, randomBytes } from 'node:crypto'
import type { AccountStore, Session, User } from '../../../storage/contract/index.ts'
import type { NonceService } from './nonce.ts'
import { PasswordHasher } from './password.ts'

export const MANAGE_SHOP = 'manage_shop'
export const REST_NONCE_ACTION = 'wp_rest'

/**
 * How long a login session lasts (the shop plugin's `sessions` option). It ends when it has not been used for
 * `idleTimeoutMs`, and `lifetimeMs` after the login however much it is used; either way the user logs in again.
 */
export interface SessionLimits {
  idleTimeoutMs: number
  lifetimeMs: number
}

/**
 * OWASP's Session Management Cheat Sheet puts idle timeouts of low-risk applications at 15 to 30 minutes; a shop
 * manager's session reaches the admin screens. The absolute lifetime is a working day
 * (docs/decisions/passwords-and-sessions.md).
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleTimeoutMs: 30 * 60_000, lifetimeMs: 12 * 3_600_000 }

export interface Authenticated {
  user: User
  session: Session
}

/**
 * A session handed to the browser: the record, and the id the session cookie carries. Only a hash of the id is
 * stored, so the id exists in the cookie and nowhere else.
 */
export interface IssuedSession extends Authenticated {
  sessionId: string
  /** The cookie's Max-Age: until the session's absolute end. */
  maxAgeSeconds: number
}

/** A live session found by its id; `renewed` when its id was just replaced (a change of the user's capabilities). */
export interface ResolvedSession extends Authenticated {
  renewed?: { sessionId: string, maxAgeSeconds: number }
}

export interface PublicUser {
  id: number
  email: string
  display_name: string
  capabilities: string[]
}

export function publicUser (user: User): PublicUser {
  return { id: user.id, email: user.email, display_name: user.displayName, capabilities: user.capabilities }
}

export function can (user: User, capability: string): boolean {
  return user.capabilities.includes(capability)
}

/** What is stored of a session id: its SHA-256 (base64url). A 256-bit random id needs no salt and no slow hash. */
export function sessionIdHash (sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url')
}

function sameCapabilities (a: readonly string[], b: readonly string[]): boolean {
  const sorted = (list: readonly string[]) => [...new Set(list)].sort().join('\n')
  return sorted(a) === sorted(b)
}

export function validSessionLimits ({ idleTimeoutMs, lifetimeMs }: SessionLimits): boolean {
  return Number.isSafeInteger(idleTimeoutMs) && Number.isSafeInteger(lifetimeMs) && idleTimeoutMs >= 1000 && lifetimeMs >= idleTimeoutMs
}

export interface AuthOptions {
  now?: () => Date
  passwords?: PasswordHasher
  sessions?: SessionLimits
}

/** Logins, login sessions and REST nonces. */
export class AuthService {
  readonly #storage: AccountStore
  readonly #nonces: NonceService
  readonly #now: () => Date
  readonly passwords: PasswordHasher
  readonly sessions: SessionLimits

  constructor (storage: AccountStore, nonces: NonceService, { now = () => new Date(), passwords = new PasswordHasher(), sessions = DEFAULT_SESSION_LIMITS }: AuthOptions = {}) {
    if (!validSessionLimits(sessions)) {
      throw new RangeError(`sessions: idleTimeoutMs (at least 1000) and lifetimeMs (at least the idle timeout) must be whole milliseconds: ${JSON.stringify(sessions)}`)
    }
    this.#storage = storage
    this.#nonces = nonces
    this.#now = now
    this.passwords = passwords
    this.sessions = { idleTimeoutMs: sessions.idleTimeoutMs, lifetimeMs: sessions.lifetimeMs }
  }

  /**
   * A new login session for the right e-mail and password, else null (the same time either way: an unknown e-mail is
   * checked against a decoy hash). A password hash made with other parameters than the configured ones is made again
   * now, while the password is at hand.
   */
  async login (email: string, password: string): Promise<IssuedSession | null> {
    const user = await this.#storage.getUserByEmail(email.trim())
    const valid = await this.passwords.verify(password, user?.passwordHash ?? await this.passwords.decoy())
    if (user === null || !valid) return null
    if (this.passwords.needsRehash(user.passwordHash)) {
      const rehashed = await this.passwords.hash(password)
      if (await this.#storage.replacePasswordHash(user.id, user.passwordHash, rehashed)) user.passwordHash = rehashed
    }
    return this.#issue(user, this.#now().getTime())
  }

  /** Ends a session (logout): its id no longer resolves, and nonces made for it no longer verify. */
  async logout (session: Session): Promise<void> {
    await this.#storage.deleteSession(session.idHash)
  }

  /**
   * The user of a live session, else null. A session past its idle deadline or its lifetime is over. Using a session
   * moves its idle deadline on (written at most once a minute). When the user's capabilities are no longer those the
   * session was issued with (a privilege change), the session is replaced by one with a new id (`renewed`), as of
   * the same login: the old id stops working.
   */
  async resolve (sessionId: string): Promise<ResolvedSession | null> {
    const session = await this.#storage.getSession(sessionIdHash(sessionId))
    if (session === null) return null
    const now = this.#now().getTime()
    const endsAt = Date.parse(session.createdAt) + this.sessions.lifetimeMs
    if (Date.parse(session.expiresAt) <= now || endsAt <= now) return null
    const user = await this.#storage.getUser(session.userId)
    if (user === null) return null

    if (!sameCapabilities(session.capabilities, user.capabilities)) {
      const issued = await this.#issue(user, Date.parse(session.createdAt))
      await this.#storage.deleteSession(session.idHash)
      return { user, session: issued.session, renewed: { sessionId: issued.sessionId, maxAgeSeconds: issued.maxAgeSeconds } }
    }

    const expiresAt = Math.min(endsAt, now + this.sessions.idleTimeoutMs)
    if (expiresAt - Date.parse(session.expiresAt) >= Math.min(60_000, this.sessions.idleTimeoutMs / 10)) {
      session.expiresAt = new Date(expiresAt).toISOString()
      await this.#storage.touchSession(session.idHash, session.expiresAt)
    }
    return { user, session }
  }

  /** A new session of `user` for a login made at `loginAt` (epoch ms): a fresh random id, of which only the hash is stored. */
  async #issue (user: User, loginAt: number): Promise<IssuedSession> {
    const now = this.#now().getTime()
    const endsAt = loginAt + this.sessions.lifetimeMs
    const sessionId = randomBytes(32).toString('base64url')
    const session: Session = {
      idHash: sessionIdHash(sessionId),
      userId: user.id,
      createdAt: new Date(loginAt).toISOString(),
      expiresAt: new Date(Math.min(endsAt, now + this.sessions.idleTimeoutMs)).toISOString(),
      capabilities: [...user.capabilities]
    }
    await this.#storage.createSession(session)
    return { user, session, sessionId, maxAgeSeconds: Math.max(1, Math.ceil((endsAt - now) / 1000)) }
  }

  restNonce ({ user, session }: Authenticated): string {
    return this.#nonces.create(REST_NONCE_ACTION, user.id, session.idHash)
  }

  verifyRestNonce (nonce: string, { user, session }: Authenticated): boolean {
    return this.#nonces.verify(nonce, REST_NONCE_ACTION, user.id, session.idHash) !== 0
  }
}
