import type { AccountStore, Session, User } from '../contract/index.ts'
import type { SqlContext } from './context.ts'
import { USER_COLUMNS, normaliseKey, toSession, toUser, type SessionRow, type UserRow } from './rows.ts'

/** `AccountStore` on SQL: users and their sessions. */
export class SqlAccountStore implements AccountStore {
  readonly #sql: SqlContext

  constructor (sql: SqlContext) {
    this.#sql = sql
  }

  async getUserByEmail (email: string): Promise<User | null> {
    const { rows } = await this.#sql.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM svc_users WHERE email = $1`, [normaliseKey(email)])
    return rows[0] ? toUser(rows[0]) : null
  }

  async getUser (id: number): Promise<User | null> {
    const { rows } = await this.#sql.db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM svc_users WHERE id = $1`, [id])
    return rows[0] ? toUser(rows[0]) : null
  }

  async ensureUser (user: Omit<User, 'id'>): Promise<User> {
    const { rows } = await this.#sql.db.query<UserRow>(
      `INSERT INTO svc_users (email, display_name, password_hash, capabilities) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [normaliseKey(user.email), user.displayName, user.passwordHash, JSON.stringify(user.capabilities)])
    if (rows[0]) return toUser(rows[0])
    const existing = await this.getUserByEmail(user.email)
    if (!existing) throw new Error(`user ${user.email} vanished while being ensured`)
    return existing
  }

  async replacePasswordHash (userId: number, previous: string, next: string): Promise<boolean> {
    const { rowCount } = await this.#sql.db.query(
      'UPDATE svc_users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, previous, next])
    return rowCount > 0
  }

  async setUserCapabilities (userId: number, capabilities: readonly string[]): Promise<void> {
    await this.#sql.db.query('UPDATE svc_users SET capabilities = $2::jsonb WHERE id = $1', [userId, JSON.stringify(capabilities)])
  }

  async createSession (session: Session): Promise<void> {
    await this.#sql.db.query(
      `INSERT INTO svc_sessions (id_hash, user_id, created_at, expires_at, capabilities)
       VALUES ($1, $2, $3::timestamptz, $4::timestamptz, $5::jsonb)`,
      [session.idHash, session.userId, session.createdAt, session.expiresAt, JSON.stringify(session.capabilities)])
  }

  async getSession (idHash: string): Promise<Session | null> {
    const { rows } = await this.#sql.db.query<SessionRow>(
      'SELECT id_hash, user_id, created_at, expires_at, capabilities FROM svc_sessions WHERE id_hash = $1', [idHash], 'svc_get_session')
    return rows[0] ? toSession(rows[0]) : null
  }

  async touchSession (idHash: string, expiresAt: string): Promise<void> {
    await this.#sql.db.query(
      'UPDATE svc_sessions SET expires_at = $2::timestamptz WHERE id_hash = $1 AND expires_at < $2::timestamptz', [idHash, expiresAt])
  }

  async purgeExpiredSessions (now: string, limit: number): Promise<number> {
    const { rowCount } = await this.#sql.db.query(
      `DELETE FROM svc_sessions WHERE id_hash IN (
         SELECT id_hash FROM svc_sessions WHERE expires_at < $1::timestamptz ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [now, Math.max(0, Math.floor(limit))])
    return rowCount
  }

  async deleteSession (idHash: string): Promise<void> {
    await this.#sql.db.query('DELETE FROM svc_sessions WHERE id_hash = $1', [idHash])
  }
}
