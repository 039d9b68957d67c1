import { ScopedContext } from '../../kernel/lib/index.ts'
import { KeyedQueue } from '../keyed-queue.ts'
import type { SqlClient, SqlSession } from './client.ts'
import { ProductCache } from './product-cache.ts'

interface AmbientTransaction {
  session: SqlSession
  open: boolean
}

/**
 * What the SQL stores share: the client, the transaction an `updateCart` callback runs in (which every store's
 * statements join, so a checkout's stock, coupons and order commit or roll back with its cart), the per-cart write
 * queue and the products this instance holds. One object per `SqlStorage`; its stores run their statements through it.
 */
export class SqlContext {
  readonly client: SqlClient
  // Storage calls made inside an `updateCart` callback join its transaction instead of waiting for a second
  // connection (PGlite has one; a pool can run dry), which would otherwise deadlock.
  readonly #ambient = new ScopedContext<AmbientTransaction>()
  // Writes of one cart wait here, in this process, for the one before them instead of each holding a pooled
  // connection while it waits for the row lock: a burst on one hot cart cannot drain the pool (and time out the
  // requests of every other cart). The row lock still orders writes across instances.
  readonly cartWrites = new KeyedQueue()
  // Products as read at the newest catalog version seen, so a cart read is not sent the products it had last time.
  readonly products = new ProductCache()

  constructor (client: SqlClient) {
    this.client = client
  }

  /** The open transaction of the `updateCart` callback this call runs in, else the client. */
  get db (): SqlSession {
    const ambient = this.#ambient.get()
    return ambient?.open ? ambient.session : this.client
  }

  /** Whether this call runs inside an `updateCart` callback's open transaction. */
  get inTransaction (): boolean {
    return this.#ambient.get()?.open === true
  }

  async transaction<T> (fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.db.transaction(async (session) => {
      const ambient = { session, open: true }
      try {
        return await this.#ambient.run(ambient, () => fn(session))
      } finally {
        ambient.open = false
      }
    })
  }
}
