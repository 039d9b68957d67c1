import { randomBytes } from 'node:crypto'
import { createPostgresClient, createPostgresStorage, type PostgresStorageOptions } from '../../storage/postgres/index.ts'
import type { SqlStorage } from '../../storage/index.ts'
import { startProxyFor, type TcpProxy } from './tcp-proxy.ts'

export interface ProxiedPostgres {
  proxy: TcpProxy
  storage: SqlStorage
  /** Closes the storage and the proxy, and drops the test's schema over a direct connection. */
  dispose: () => Promise<void>
}

/** PostgreSQL storage in a fresh schema, reached through a TCP proxy the test can cut. */
export async function proxiedPostgres (url: string, options: Partial<PostgresStorageOptions> = {}): Promise<ProxiedPostgres> {
  const proxy = await startProxyFor(url)
  const schema = `svc_f_${randomBytes(6).toString('hex')}`
  const storage = await createPostgresStorage({ connectionString: proxy.urlFor(url), searchPath: schema, onError: () => {}, ...options })
  return {
    proxy,
    storage,
    async dispose () {
      proxy.restore()
      await storage.close().catch(() => {})
      await proxy.close()
      const admin = createPostgresClient({ connectionString: url })
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      } finally {
        await admin.close()
      }
    }
  }
}
