/**
 * Build-time constants, set by the bundler (kernel/lib/client-bundle.ts `define`): code behind a false one is left out of
 * the script.
 */

/** True in the admin screens' script, whose live preview draws the drawer (`Drawer.applySettings`, `sample`, `unmount`); false in the storefront's. */
declare const SVC_PREVIEW: boolean
