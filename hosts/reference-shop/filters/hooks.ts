import type { DrawerFilterHooks } from '../../../drawer/index.ts'

/**
 * The filters the platform applies: the cart drawer's (the commerce port's `DrawerFilterHooks`: fragments, allowed
 * origins, trusted proxies, extension data, storefront scripts and links).
 */
declare module './registry.ts' {
  interface FilterHooks extends DrawerFilterHooks {}
}
