import type { SqlSession } from '../../kernel/sql/index.ts'

export type { QueryResult, SqlClient, SqlSession } from '../../kernel/sql/index.ts'

type QueryFn = SqlSession['query']

/** A session bound to an open transaction; nested transactions become savepoints. */
export function transactionSession (query: QueryFn, depth = 0): SqlSession {
  return {
    query,
    async transaction (fn) {
      const savepoint = `svc_sp_${depth + 1}`
      await query(`SAVEPOINT ${savepoint}`)
      try {
        const result = await fn(transactionSession(query, depth + 1))
        await query(`RELEASE SAVEPOINT ${savepoint}`)
        return result
      } catch (error) {
        await query(`ROLLBACK TO SAVEPOINT ${savepoint}`)
        throw error
      }
    }
  }
}
