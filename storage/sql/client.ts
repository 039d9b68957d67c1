export interface QueryResult<R> {
  rows: R[]
  rowCount: number
}

/** What runs statements: the root client or one transaction. */
export interface SqlSession {
  /**
   * `name`: a hot statement of fixed text, prepared once per connection where the driver can (PostgreSQL's named
   * statements: parsed and planned once, not on every call). Ignored elsewhere.
   */
  query<R = Record<string, unknown>> (text: string, params?: readonly unknown[], name?: string): Promise<QueryResult<R>>
  /** Runs `fn` in a transaction (a savepoint when already inside one); rolls back and rethrows when it throws. */
  transaction<T> (fn: (tx: SqlSession) => Promise<T>): Promise<T>
}

/** A connection (or pool) that PostgreSQL-compatible storage runs on. */
export interface SqlClient extends SqlSession {
  close (): Promise<void>
}

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
