import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Plugin } from 'esbuild'
import { CATALOGS } from '../i18n/catalogs.ts'
import { compileCatalog } from '../i18n/compile.ts'
import { LOCALES, type Locale } from '../i18n/locales.ts'

/** The browser scripts' TypeScript configuration, relative to the package root. */
export const CLIENT_TSCONFIG = 'drawer/client/tsconfig.json'

export interface ClientBundle {
  /** The minified script. */
  code: Buffer
  /** The same, gzipped (served to browsers that accept gzip). */
  gzipped: Buffer
  /** A short content hash: the ETag and the `?v=` of the script's URL. */
  hash: string
}

/**
 * The package's root: the nearest folder above this file with a package.json (the same from source, from `dist/` and
 * from an installed package, which holds the built scripts but not `drawer/client/`).
 */
export function packageRoot (from = dirname(fileURLToPath(import.meta.url))): string {
  let folder = from
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder)
    if (parent === folder) throw new Error(`No package.json above ${from}`)
    folder = parent
  }
  return folder
}

export function describeBundle (code: Buffer): ClientBundle {
  return {
    code,
    gzipped: gzipSync(code, { level: 9 }),
    hash: createHash('sha256').update(code).digest('base64url').slice(0, 16)
  }
}

/**
 * `import en from 'svc-i18n:en'` in a browser script: the locale's catalog compiled from its ICU messages
 * (kernel/i18n/<locale>.ts) to the JSON the drawer formats, so the script carries no ICU parser.
 */
const catalogPlugin: Plugin = {
  name: 'svc-i18n',
  setup (build) {
    build.onResolve({ filter: /^svc-i18n:/ }, (args) => ({ path: args.path.slice('svc-i18n:'.length), namespace: 'svc-i18n' }))
    build.onLoad({ filter: /.*/, namespace: 'svc-i18n' }, (args) => {
      if (!(LOCALES as readonly string[]).includes(args.path)) return { errors: [{ text: `No catalog for the locale "${args.path}"` }] }
      return { contents: JSON.stringify(compileCatalog(CATALOGS[args.path as Locale], args.path)), loader: 'json' }
    })
  }
}

/**
 * Bundles one entry point of `drawer/client/` with esbuild into one minified script (an IIFE: no module loader, no globals
 * leaked). `define` sets the script's build-time constants (`SVC_PREVIEW`, drawer/client/build-flags.d.ts): code behind a
 * false one is left out.
 */
export async function bundleEntry (entry: string, root = packageRoot(), define: Record<string, string> = {}): Promise<ClientBundle> {
  // The built package serves the scripts of `dist/client/` and has neither `drawer/client/` nor esbuild (a devDependency):
  // both are needed only when a script is bundled from source, so esbuild is imported here and nowhere else.
  if (!existsSync(join(root, entry))) throw new Error(`Cannot bundle ${entry}: it is not in ${root} (run npm run build:client in the source tree)`)
  const { build } = await import('esbuild').catch((error: unknown) => {
    throw new Error(`Cannot bundle ${entry}: esbuild is not installed (a devDependency; run npm run build:client where it is)`, { cause: error })
  })
  const result = await build({
    entryPoints: [join(root, entry)],
    tsconfig: join(root, CLIENT_TSCONFIG),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    legalComments: 'none',
    charset: 'utf8',
    define,
    write: false,
    logLevel: 'silent',
    plugins: [catalogPlugin]
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error('esbuild produced no output')
  return describeBundle(Buffer.from(output.contents))
}

/**
 * A script's bundle, read once from the file `npm run build:client` wrote, or bundled in memory (after `onMissing`)
 * when there is none; a failure is not kept, so the next call tries again.
 */
export function bundleLoader (path: string, bundle: () => Promise<ClientBundle>, onMissing: () => void): () => Promise<ClientBundle> {
  let loading: Promise<ClientBundle> | undefined
  async function load (): Promise<ClientBundle> {
    try {
      return describeBundle(await readFile(path))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      onMissing()
      return bundle()
    }
  }
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
}
