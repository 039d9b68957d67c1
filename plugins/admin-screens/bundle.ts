import { join } from 'node:path'
import { describeBundle, packageRoot, type ClientBundle } from '../drawer-assets/bundle.ts'

/** The admin screens' script: its entry point and the file `npm run build:client` writes, from the package root. */
export const ADMIN_ENTRY = 'client/admin/main.ts'
export const ADMIN_BUNDLE_FILE = 'dist/client/svc-admin.js'

/**
 * Bundles `client/admin/` (which imports the drawer for the live preview) with esbuild into one minified IIFE.
 * No size budget: only shop managers load it.
 */
export async function bundleAdmin (root = packageRoot()): Promise<ClientBundle> {
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [join(root, ADMIN_ENTRY)],
    tsconfig: join(root, 'client/tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent'
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error('esbuild produced no output')
  return describeBundle(Buffer.from(output.contents))
}
