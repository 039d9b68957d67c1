import { DRAWER_CONFIG_ID, type DrawerPageConfig } from '../plugins/drawer-assets/page-config.ts'
import { Drawer } from './drawer.ts'

declare global {
  interface Window {
    /** The drawer, for the shop's own buttons: `svcDrawer.open()`. */
    svcDrawer?: { open (): void, close (): void }
  }
}

/** The page's configuration (restRoot, edition, login, nonce, settings), or null on a page without one. */
function readConfig (): DrawerPageConfig | null {
  const element = document.getElementById(DRAWER_CONFIG_ID)
  if (element === null) return null
  try {
    return JSON.parse(element.textContent ?? '') as DrawerPageConfig
  } catch {
    return null
  }
}

function start (): void {
  const config = readConfig()
  if (config === null || window.svcDrawer) return
  const drawer = new Drawer(config)
  drawer.mount()
  window.svcDrawer = { open: () => { drawer.open('api') }, close: () => { drawer.close() } }
  drawer.init().catch(() => {})
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
