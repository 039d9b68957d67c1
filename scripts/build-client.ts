/**
 * `npm run build:client`: bundles the drawer and launcher script (`client/`) with esbuild into one minified file,
 * `dist/client/svc-drawer.js`, prints its size minified and gzipped, and fails when the gzipped size is over the
 * 15 KiB budget.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUNDLE_FILE, bundleClient, MAX_GZIPPED_BYTES, packageRoot, type ClientBundle } from '../plugins/drawer-assets/bundle.ts'

export interface BuiltClient {
  path: string
  bundle: ClientBundle
  /** Within the gzipped budget. */
  ok: boolean
}

export async function buildClient (root = packageRoot()): Promise<BuiltClient> {
  const bundle = await bundleClient(root)
  const path = join(root, BUNDLE_FILE)
  await mkdir(dirname(path), { recursive: true })
  // Written beside and renamed over: a server reading the file never sees half of it.
  const partial = `${path}.${process.pid}.tmp`
  await writeFile(partial, bundle.code)
  await rename(partial, path)
  return { path, bundle, ok: bundle.gzipped.length <= MAX_GZIPPED_BYTES }
}

export function sizeReport ({ bundle, ok }: BuiltClient): string {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB (${bytes} bytes)`
  return `${BUNDLE_FILE}: minified ${kib(bundle.code.length)}, gzipped ${kib(bundle.gzipped.length)}; ` +
    `budget ${kib(MAX_GZIPPED_BYTES)} gzipped: ${ok ? 'ok' : 'OVER BUDGET'}`
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const built = await buildClient()
    console.log(sizeReport(built))
    if (!built.ok) process.exitCode = 1
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  }
}
