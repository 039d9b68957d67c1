/**
 * `npm run build:client`: bundles the drawer and launcher script (`drawer/client/`) with esbuild into one minified file,
 * `dist/client/svc-drawer.js`, prints its size minified and gzipped, and fails when the gzipped size is over the
 * 15.25 KiB budget (`MAX_GZIPPED_BYTES`). Then the admin screens' script (`drawer/client/admin/`, no budget: only shop managers load it) into
 * `dist/client/svc-admin.js`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ADMIN_BUNDLE_FILE, bundleAdmin, BUNDLE_FILE, bundleClient, MAX_GZIPPED_BYTES } from '../drawer/index.ts'
import { describeBundle, packageRoot, type ClientBundle } from '../kernel/lib/index.ts'
import { CATALOGS } from '../kernel/i18n/catalogs.ts'
import { compileCatalog } from '../kernel/i18n/compile.ts'
import { DEFAULT_LOCALE, LOCALES } from '../kernel/i18n/locales.ts'

export interface BuiltClient {
  path: string
  bundle: ClientBundle
  /** Within the gzipped budget. */
  ok: boolean
}

async function writeBundle (path: string, bundle: ClientBundle): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  // Written beside and renamed over: a server reading the file never sees half of it.
  const partial = `${path}.${process.pid}.tmp`
  await writeFile(partial, bundle.code)
  await rename(partial, path)
}

export async function buildClient (root = packageRoot()): Promise<BuiltClient> {
  const bundle = await bundleClient(root)
  const path = join(root, BUNDLE_FILE)
  await writeBundle(path, bundle)
  return { path, bundle, ok: bundle.gzipped.length <= MAX_GZIPPED_BYTES }
}

/** The admin screens' script, `dist/client/svc-admin.js`. */
export async function buildAdmin (root = packageRoot()): Promise<{ path: string, bundle: ClientBundle }> {
  const bundle = await bundleAdmin(root)
  const path = join(root, ADMIN_BUNDLE_FILE)
  await writeBundle(path, bundle)
  return { path, bundle }
}

export function sizeReport ({ bundle, ok }: BuiltClient): string {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB (${bytes} bytes)`
  return `${BUNDLE_FILE}: minified ${kib(bundle.code.length)}, gzipped ${kib(bundle.gzipped.length)}; ` +
    `budget ${kib(MAX_GZIPPED_BYTES)} gzipped: ${ok ? 'ok' : 'OVER BUDGET'}`
}

/** What each catalog but English (which is in the script) adds when its locale is used: its JSON as served, gzipped. */
export function catalogSizes (): string {
  const sizes = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE)
    .map((locale) => `${locale} ${describeBundle(Buffer.from(JSON.stringify(compileCatalog(CATALOGS[locale], locale)))).gzipped.length} bytes`)
  return `catalogs fetched per locale (${DEFAULT_LOCALE} is in the script), gzipped: ${sizes.join(', ')}`
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const built = await buildClient()
    console.log(sizeReport(built))
    console.log(catalogSizes())
    if (!built.ok) process.exitCode = 1
    const admin = await buildAdmin()
    console.log(`${ADMIN_BUNDLE_FILE}: minified ${(admin.bundle.code.length / 1024).toFixed(2)} KiB, gzipped ${(admin.bundle.gzipped.length / 1024).toFixed(2)} KiB`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
