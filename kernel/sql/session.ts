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
