import { bundleEntry, packageRoot, type ClientBundle } from '../../../kernel/lib/index.ts'

/**
 * The drawer script's budget: at most 15.25 KiB gzipped (the drawer's first budget of 15 KiB, and a quarter KiB for the page's events
 * and `svcDrawer.refresh()`: docs/decisions/drawer-page-events.md).
 */
export const MAX_GZIPPED_BYTES = 15.25 * 1024
/** The script's entry point and the file `npm run build:client` writes, relative to the package root. */
export const CLIENT_ENTRY = 'drawer/client/main.ts'
export const BUNDLE_FILE = 'dist/client/svc-drawer.js'

/** The drawer and launcher script. */
export function bundleClient (root = packageRoot()): Promise<ClientBundle> {
  // The admin screens' live preview (`SVC_PREVIEW`) is not the shoppers' business: its code stays out of this script.
  return bundleEntry(CLIENT_ENTRY, root, { SVC_PREVIEW: 'false' })
}
