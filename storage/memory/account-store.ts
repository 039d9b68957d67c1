import type { AccountStore, Session, User } from '../contract/index.ts'
import { normaliseKey } from '../rules.ts'
import { copy, instant, type MemoryState } from './state.ts'

/** `AccountStore` in memory: users by id and by normalised e-mail, and their sessions. */
export class MemoryAccountStore implements AccountStore {
  readonly #state: MemoryState

  constructor (state: MemoryState) {
    this.#state = state
  }

  async getUserByEmail (email: string): Promise<User | null> {
    this.#state.assertOpen()
    const id = this.#state.userIds.get(normaliseKey(email))
    return id === undefined ? null : this.#user(id)
  }

  async getUser (id: number): Promise<User | null> {
    this.#state.assertOpen()
    return this.#user(id)
  }

  #user (id: number): User | null {
    const user = this.#state.users.get(id)
    return user === undefined ? null : copy(user)
  }

  async ensureUser (user: Omit<User, 'id'>): Promise<User> {
    this.#state.assertOpen()
    const email = normaliseKey(user.email)
    const existing = this.#state.userIds.get(email)
    if (existing !== undefined) return this.#user(existing)!
    const created: User = {
      id: this.#state.nextUserId++,
      email,
      displayName: user.displayName,
      passwordHash: user.passwordHash,
      capabilities: copy(user.capabilities)
    }
    this.#state.assign(this.#state.users, created.id, created)
    this.#state.assign(this.#state.userIds, email, created.id)
    return copy(created)
  }

  async replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    this.#state.assertOpen()
    const user = this.#state.users.get(userId)
    if (user === undefined || user.passwordHash !== previous) return false
    this.#state.assign(this.#state.users, userId, { ...user, passwordHash: next })
    return true
  }

  async setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    this.#state.assertOpen()
    const user = this.#state.users.get(userId)
    if (user !== undefined) this.#state.assign(this.#state.users, userId, { ...user, capabilities: [...capabilities] })
  }

  async createSession (session: Session): Promise<void> {
    this.#state.assertOpen()
    if (this.#state.sessions.has(session.idHash)) throw new Error('a session with this id hash is already stored')
    if (!this.#state.users.has(session.userId)) throw new Error(`a session names no stored user (${session.userId})`)
    this.#state.assign(this.#state.sessions, session.idHash, {
      idHash: session.idHash,
      userId: session.userId,
      createdAt: new Date(instant(session.createdAt, 'createdAt')).toISOString(),
      expiresAt: new Date(instant(session.expiresAt, 'expiresAt')).toISOString(),
      capabilities: [...session.capabilities]
    })
  }

  async getSession (idHash: string): Promise<Session | null> {
    this.#state.assertOpen()
    const session = this.#state.sessions.get(idHash)
    return session === undefined ? null : copy(session)
  }

  async touchSession (idHash: string, expiresAt: string): Promise<void> {
    this.#state.assertOpen()
    const at = instant(expiresAt, 'expiresAt')
    const session = this.#state.sessions.get(idHash)
    if (session === undefined || Date.parse(session.expiresAt) >= at) return
    this.#state.assign(this.#state.sessions, idHash, { ...session, expiresAt: new Date(at).toISOString() })
  }

  async deleteSession (idHash: string): Promise<void> {
    this.#state.assertOpen()
    this.#state.assign(this.#state.sessions, idHash, undefined)
  }

  async purgeExpiredSessions (now: string, limit: number): Promise<number> {
    this.#state.assertOpen()
    const cutoff = instant(now, 'now')
    const expired = [...this.#state.sessions.values()].filter((session) => Date.parse(session.expiresAt) < cutoff).slice(0, Math.max(0, limit))
    for (const session of expired) this.#state.assign(this.#state.sessions, session.idHash, undefined)
    return expired.length
  }
}
