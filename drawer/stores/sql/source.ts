import type { SqlSession } from '../../../kernel/sql/index.ts'

/**
 * Where the drawer's SQL stores run a statement: the host storage's current session (its open transaction when the
 * call runs inside one, so a checkout's attribution event commits with the order), or a plain client.
 */
export interface SqlSource {
  readonly db: SqlSession
}
