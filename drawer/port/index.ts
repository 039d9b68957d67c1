/**
 * The commerce port: what the cart drawer asks of the shop it runs in (port.ts), and the hook registry a host keeps
 * for the drawer's cart hooks (cart-hooks.ts). A leaf module: it imports only the domain's shapes, so the drawer's
 * parts and every host import it without importing the drawer.
 */
export type {
  CommercePort, AdjustableLine, LineAdjuster, LineAdjustment, CartAdjustment, CartAdjustments, CartView, CartViewLine, ShippingAdjustment, CartsPort, CartChange, CartChangeOptions, CartState, CartReading, RateCount, DrawerUser, ShopUrls, Viewer, AddItemInput, Login, CartReconciler, CartReconcileAnswer, CartFollowUp, LockedLines, CartSnapshotter, CartRewards,
  CartExtension, FilterPort, FilterErrorReporter, DrawerFilterHooks, DrawerFilterName, StorefrontScript, StorefrontLink, StorefrontContext
} from './port.ts'
export { CartHooks, applyFollowUp, type CartHookName } from './cart-hooks.ts'
export { resolveCommercePort, DEFAULT_REST_ROOT, type ResolvedCommercePort, type ResolvedCartsPort, type ResolveOptions } from './resolve.ts'
export { DrawerFilters } from './filters.ts'
export { drawerSessions, type DrawerSessions } from './sessions.ts'
