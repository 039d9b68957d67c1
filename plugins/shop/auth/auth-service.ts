import { randomBytes } from 'node:crypto'
import type { Session, Storage, User } from '../../../storage/types.ts'
import type { NonceService } from './nonce.ts'
import { decoyHash, verifyPassword } from './password.ts'

export const MANAGE_SHOP = 'manage_shop'
export const REST_NONCE_ACTION = 'wp_rest'
const SESSION_SECONDS = 14 * 24 * 3600

export interface Authenticated {
  user: User
  session: Session
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

/** Logins, login sessions and REST nonces. */
export class AuthService {
  readonly #storage: Storage
  readonly #nonces: NonceService
  readonly #now: () => Date

  constructor (storage: Storage, nonces: NonceService, now: () => Date = () => new Date()) {
    this.#storage = storage
    this.#nonces = nonces
    this.#now = now
  }

  get sessionSeconds (): number {
    return SESSION_SECONDS
  }

  /** A new login session for the right e-mail and password, else null (the same time either way). */
  async login (email: string, password: string): Promise<Authenticated | null> {
    const user = await this.#storage.getUserByEmail(email.trim())
    const valid = await verifyPassword(password, user?.passwordHash ?? await decoyHash())
    if (user === null || !valid) return null
    const now = this.#now()
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_SECONDS * 1000).toISOString()
    }
    await this.#storage.createSession(session)
    return { user, session }
  }

  async logout (sessionId: string): Promise<void> {
    await this.#storage.deleteSession(sessionId)
  }

  /** The user of a live session, else null. */
  async resolve (sessionId: string): Promise<Authenticated | null> {
    const session = await this.#storage.getSession(sessionId)
    if (session === null || Date.parse(session.expiresAt) <= this.#now().getTime()) return null
    const user = await this.#storage.getUser(session.userId)
    return user === null ? null : { user, session }
  }

  restNonce ({ user, session }: Authenticated): string {
    return this.#nonces.create(REST_NONCE_ACTION, user.id, session.id)
  }

  verifyRestNonce (nonce: string, { user, session }: Authenticated): boolean {
    return this.#nonces.verify(nonce, REST_NONCE_ACTION, user.id, session.id) !== 0
  }
}
