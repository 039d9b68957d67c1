import { createHash, randomBytes } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { copyFile, mkdir, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPgliteClient, createPgliteStorage } from '../../storage/pglite/index.ts'
import type { SqlClient } from '../../storage/index.ts'
import type { SqlStorage } from '../../storage/index.ts'

/**
 * Fresh PGlite databases for the tests, fast. A new `memory://` PGlite runs initdb (about two seconds of CPU, far
 * more on a loaded machine), and most test files need several. Here initdb runs once per machine: a template data
 * directory (one bare, one migrated) is made with the storage's own `createPgliteClient` / `createPgliteStorage`,
 * and each test gets its own copy of it, opened with the same functions as the app opens its `SVC_DATA_DIR`. Each
 * copy is a separate database: nothing is shared between tests. Closing the storage (or client) deletes the copy.
 *
 * The templates are keyed by the PGlite version and the sources of the migrations and of the PGlite client, so a
 * changed migration makes a new template. Copies live in /dev/shm where there is one (memory, like `memory://`),
 * else in the temporary directory.
 */

function writable (dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const BASE = join(writable('/dev/shm') ? '/dev/shm' : tmpdir(), 'svc-test-pglite')
/** This process's copies: removed at exit, and by a later process if this one died without doing so. */
const COPIES = join(BASE, `copies-${process.pid}`)

function templateKey (): string {
  const hash = createHash('sha256')
  // The package exports no package.json: found from its entry point.
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir)
  hash.update(readFileSync(join(dir, 'package.json')))
  for (const file of ['storage/sql/migrations.ts', 'drawer/stores/sql/migrations.ts', 'kernel/sql/migrator.ts', 'storage/pglite/client.ts', 'storage/pglite/index.ts']) {
    hash.update(file).update(readFileSync(join(ROOT, file)))
  }
  return hash.digest('hex').slice(0, 16)
}

function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const HOUR = 3_600_000

/**
 * Removes what processes that are gone left (copies, half-built templates: a test killed by its timeout, say) and
 * templates of other keys that no process has used for an hour.
 */
function sweep (key: string): void {
  let entries: string[]
  try {
    entries = readdirSync(BASE)
  } catch {
    return
  }
  for (const entry of entries) {
    const owner = /^(?:copies|building)-(\d+)/.exec(entry)
    const template = /^template-([0-9a-f]+)-(?:bare|migrated)$/.exec(entry)
    let stale = false
    if (owner !== null) {
      stale = !alive(Number(owner[1]))
    } else if (template !== null && template[1] !== key) {
      try {
        stale = Date.now() - statSync(join(BASE, entry)).mtimeMs > HOUR
      } catch {}
    }
    if (stale) rmSync(join(BASE, entry), { recursive: true, force: true })
  }
}

let templates: Promise<{ bare: string, migrated: string }> | undefined

/**
 * The template directory of `kind`, made if missing. Processes that start together may each make one: each
 * builds in a directory of its own and renames it into place; the first rename wins, the others are thrown away.
 */
async function template (key: string, kind: 'bare' | 'migrated'): Promise<string> {
  const path = join(BASE, `template-${key}-${kind}`)
  if (existsSync(join(path, 'PG_VERSION'))) {
    // In use: not swept by another key's processes for an hour.
    const now = new Date()
    try { utimesSync(path, now, now) } catch {}
    return path
  }
  const building = join(BASE, `building-${process.pid}-${randomBytes(4).toString('hex')}`)
  try {
    await mkdir(BASE, { recursive: true })
    if (kind === 'bare') {
      await (await createPgliteClient(building)).close()
    } else {
      await (await createPgliteStorage({ dataDir: building })).close()
    }
    await rename(building, path)
  } catch (error) {
    if (!existsSync(join(path, 'PG_VERSION'))) throw error
  } finally {
    await rm(building, { recursive: true, force: true })
  }
  return path
}

function prepare (): Promise<{ bare: string, migrated: string }> {
  templates ??= (async () => {
    const key = templateKey()
    sweep(key)
    mkdirSync(COPIES, { recursive: true })
    process.once('exit', () => rmSync(COPIES, { recursive: true, force: true }))
    return { bare: await template(key, 'bare'), migrated: await template(key, 'migrated') }
  })()
  return templates
}

interface Listing {
  /** Directories with their modes, parents first; the template itself first, as ''. */
  dirs: Array<{ path: string, mode: number }>
  files: string[]
}

/** A template's directories and files, relative to it: listed once, since a template never changes. */
const listings = new Map<string, Listing>()

function listing (template: string): Listing {
  let found = listings.get(template)
  if (found === undefined) {
    found = { dirs: [{ path: '', mode: statSync(template).mode & 0o7777 }], files: [] }
    for (const entry of readdirSync(template, { recursive: true, withFileTypes: true })) {
      const path = relative(template, join(entry.parentPath, entry.name))
      if (entry.isDirectory()) found.dirs.push({ path, mode: statSync(join(template, path)).mode & 0o7777 })
      else if (entry.isFile()) found.files.push(path)
      else throw new Error(`${template}: ${path} is neither a file nor a directory`)
    }
    found.dirs.sort((a, b) => (a.path === '' ? 0 : a.path.split('/').length) - (b.path === '' ? 0 : b.path.split('/').length))
    listings.set(template, found)
  }
  return found
}

/**
 * A copy of a template (about a thousand files): its directories made with their modes, then its files copied
 * (`copyFile` keeps a file's mode), sixteen at a time. `fs.cp` took 200–450 ms of CPU per copy, walking and checking
 * the tree again each time; this takes about 60.
 */
async function copyOf (kind: 'bare' | 'migrated'): Promise<string> {
  const source = (await prepare())[kind]
  const copy = join(COPIES, `${kind}-${randomBytes(6).toString('hex')}`)
  const { dirs, files } = listing(source)
  try {
    for (const dir of dirs) await mkdir(join(copy, dir.path), { mode: dir.mode })
    let next = 0
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < files.length) {
        const file = files[next++]!
        await copyFile(join(source, file), join(copy, file))
      }
    }))
  } catch (error) {
    await rm(copy, { recursive: true, force: true })
    throw error
  }
  return copy
}

/** Runs `close`, then deletes `dir`; closing again does nothing more. */
function closingDeletes (close: () => Promise<void>, dir: string): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => {
    closing ??= close().finally(() => rm(dir, { recursive: true, force: true }))
    return closing
  }
}

/**
 * The test databases' one difference from the app's: 16 MB of shared buffers instead of PostgreSQL's 128 MB. Starting
 * PGlite spends most of its time preparing the buffer pool: about 0.9 s of CPU per database with 128 MB, 0.3 s with
 * 16 MB, on the two-core machine where the suite runs (docs/decisions/pglite-in-tests.md). The buffers
 * are a cache: what a statement answers does not depend on their size.
 */
export const TEST_PGLITE_SETTINGS = { shared_buffers: '16MB' } as const

/** A new, migrated, empty PGlite storage of its own (what `createPgliteStorage({ dataDir: 'memory://' })` gives). */
export async function createTestPgliteStorage (): Promise<SqlStorage> {
  const dir = await copyOf('migrated')
  let storage: SqlStorage
  try {
    storage = await createPgliteStorage({ dataDir: dir, settings: TEST_PGLITE_SETTINGS })
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  storage.close = closingDeletes(storage.close.bind(storage), dir)
  return storage
}

/** A new PGlite client on an empty, unmigrated database of its own (what `createPgliteClient('memory://')` gives). */
export async function createTestPgliteClient (): Promise<SqlClient> {
  const dir = await copyOf('bare')
  let client: SqlClient
  try {
    client = await createPgliteClient(dir, { settings: TEST_PGLITE_SETTINGS })
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  return { ...client, close: closingDeletes(() => client.close(), dir) }
}
