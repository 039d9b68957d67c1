import { randomBytes } from 'node:crypto'
import { createPostgresClient, createPostgresStorage, type PostgresStorageOptions } from '../../storage/postgres/index.ts'
import type { SqlStorage } from '../../storage/sql/sql-storage.ts'
import { startProxyFor, type TcpProxy } from './tcp-proxy.ts'

/** DATABASE_URL; under CI=true a missing one throws, which fails the test calling it (never a silent skip). */
export function postgresTestUrl (): string | undefined {
  const url = process.env.DATABASE_URL
  if (url !== undefined && url !== '') return url
  if (process.env.CI === 'true') throw new Error('DATABASE_URL is not set but CI=true: the PostgreSQL fault tests must run in CI')
  return undefined
}

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
