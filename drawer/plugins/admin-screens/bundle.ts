import { bundleEntry, packageRoot, type ClientBundle } from '../../../kernel/lib/index.ts'

/** The admin screens' script: its entry point and the file `npm run build:client` writes, from the package root. */
export const ADMIN_ENTRY = 'drawer/client/admin/main.ts'
export const ADMIN_BUNDLE_FILE = 'dist/client/svc-admin.js'

/** Bundles `drawer/client/admin/` (which imports the drawer for the live preview). No size budget: only shop managers load it. */
export function bundleAdmin (root = packageRoot()): Promise<ClientBundle> {
  return bundleEntry(ADMIN_ENTRY, root, { SVC_PREVIEW: 'true' })
}
