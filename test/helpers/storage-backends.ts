import { randomBytes } from 'node:crypto'
import { createMemoryStorage } from '../../storage/memory/index.ts'
import { createPostgresClient, createPostgresStorage, openPostgresClient } from '../../storage/postgres/index.ts'
import type { SqlClient } from '../../storage/index.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { createTestPgliteStorage, createTestPgliteClient } from './pglite.ts'
import { serviceUrl, skipWithout } from './services.ts'

/** A storage of its own for one test. */
export interface DisposableStorage extends Storage {
  /** Closes the storage and throws its data (database, schema) away; the same as `close()`. */
  dispose (): Promise<void>
}

/** A SQL storage of its own for one test. */
export interface TestStorage extends DisposableStorage {
  /** Applies pending migrations again; returns the ids applied. */
  migrate (): Promise<string[]>
}

export interface BareClients {
  /** Unmigrated clients on one fresh, empty database: separate connections where the backend has several. */
  clients: [SqlClient, SqlClient]
  dispose (): Promise<void>
}

export interface StoragePair {
  /** Two storages on one database, as two app instances have them. */
  storages: [Storage, Storage]
  dispose (): Promise<void>
}

/** A backend the storage contract (test/storage/) runs on. */
export interface ContractBackend {
  name: string
  /** Why its tests are skipped (no server on this machine), or false: pass it as the test's `skip` option. */
  skip: string | false
  create (): Promise<DisposableStorage>
}

/** A SQL backend: what the app tests run on. */
export interface StorageBackend extends ContractBackend {
  create (): Promise<TestStorage>
  createBareClients (): Promise<BareClients>
  /** PGlite: one storage twice (one process could share it); PostgreSQL: two storages, each with its own pool. */
  createPair (): Promise<StoragePair>
}

function withDispose<S extends Storage & { migrate (): Promise<string[]> }> (
  storage: S,
  afterClose: () => Promise<void> = async () => {}
): TestStorage {
  const close = storage.close.bind(storage)
  let closing: Promise<void> | undefined
  const dispose = (): Promise<void> => {
    closing ??= close().finally(afterClose)
    return closing
  }
  return Object.assign(storage, { close: dispose, dispose })
}

const pglite: StorageBackend = {
  name: 'pglite',
  skip: false,
  async create () {
    return withDispose(await createTestPgliteStorage())
  },
  async createBareClients () {
    // PGlite has one connection: both "instances" share it, which still exercises the serialisation.
    const client = await createTestPgliteClient()
    return { clients: [client, client], dispose: () => client.close() }
  },
  async createPair () {
    const storage = await createTestPgliteStorage()
    return { storages: [storage, storage], dispose: () => storage.close() }
  }
}

function freshSchema (): string {
  return `svc_t_${randomBytes(6).toString('hex')}`
}

function postgres (connectionString: string): StorageBackend {
  const dropSchema = async (schema: string): Promise<void> => {
    const admin = createPostgresClient({ connectionString })
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    } finally {
      await admin.close()
    }
  }
  return {
    name: 'postgres',
    skip: false,
    async create () {
      const schema = freshSchema()
      return withDispose(await createPostgresStorage({ connectionString, searchPath: schema }), () => dropSchema(schema))
    },
    async createBareClients () {
      const schema = freshSchema()
      // Opened together: both create the schema at the same time.
      const clients = await Promise.all([
        openPostgresClient({ connectionString, searchPath: schema }),
        openPostgresClient({ connectionString, searchPath: schema })
      ])
      return {
        clients,
        async dispose () {
          await Promise.all(clients.map((client) => client.close()))
          await dropSchema(schema)
        }
      }
    },
    async createPair () {
      const schema = freshSchema()
      const first = await createPostgresStorage({ connectionString, searchPath: schema })
      const second = await createPostgresStorage({ connectionString, searchPath: schema })
      return {
        storages: [first, second],
        async dispose () {
          await Promise.all([first.close(), second.close()])
          await dropSchema(schema)
        }
      }
    }
  }
}

/** PostgreSQL without a DATABASE_URL: skipped on a developer's machine, failing under CI=true (`services.ts`). */
function unavailablePostgres (): StorageBackend {
  const fail = async (): Promise<never> => { serviceUrl('DATABASE_URL'); throw new Error('unreachable') }
  return { name: 'postgres', skip: skipWithout('DATABASE_URL'), create: fail, createBareClients: fail, createPair: fail }
}

/**
 * The SQL backends, which the app's tests run on: PGlite, and PostgreSQL at DATABASE_URL. Without DATABASE_URL the
 * PostgreSQL backend carries its `skip` reason (or, under CI=true, fails when used).
 */
export function storageBackends (): StorageBackend[] {
  const url = process.env.DATABASE_URL
  return [pglite, url ? postgres(url) : unavailablePostgres()]
}

/** The in-process storage (`createMemoryStorage`): a new, empty one per `create()`. */
const memory: ContractBackend = {
  name: 'memory',
  skip: false,
  async create () {
    const storage = createMemoryStorage()
    return Object.assign(storage, { dispose: () => storage.close() })
  }
}

/**
 * Every backend of the storage contract (test/storage/*-store.test.ts): the SQL backends and memory. Memory is not in
 * `storageBackends()`: the app's tests there also use SQL clients and migrations, which it has not.
 */
export function contractBackends (): ContractBackend[] {
  return [...storageBackends(), memory]
}

/** A backend the app's behaviour suites run on: `create()` gives a fresh storage (memory has no migrations to apply). */
export interface AppBackend extends ContractBackend {
  create (): Promise<TestStorage>
}

const memoryApp: AppBackend = {
  name: 'memory',
  skip: false,
  async create () {
    const storage = createMemoryStorage()
    return Object.assign(storage, { dispose: () => storage.close(), migrate: async (): Promise<string[]> => [] })
  }
}

/**
 * The backends of the drawer's behaviour suites (svc-free, svc-pro, bundles): PGlite, PostgreSQL and memory, so a
 * shop on any of them gets the same answers. Suites that also look into the database with SQL use `storageBackends()`.
 */
export function appBackends (): AppBackend[] {
  return [...storageBackends(), memoryApp]
}
