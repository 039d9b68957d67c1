/**
 * The cart drawer's entry (`cart-drawer-service/drawer`): what a shop of its own needs to embed the drawer — the
 * `cartDrawer` plugin, the commerce port's types, the error a refused cart change is thrown as, and the pure domain
 * functions a host may price or keep its cart with. The reference platform's entry (`cart-drawer-service`, app.ts)
 * re-exports all of it.
 */
export {
  cartDrawer, commercePlugin, CartHooks, applyFollowUp, STORE_ROUTES, type CartDrawerOptions, type CommercePort, type DrawerStores, type DrawerCartCapability, type StoreApiMode
} from './plugins/cart-drawer/index.ts'
export type { Storage, RateCounter, OrderAttribution, ProductPage, ProductQuery } from '../storage/contract/index.ts'

// What a host of its own needs besides `cartDrawer` (examples/memory-shop/): the commerce port's types, the error
// the drawer expects a refused cart change to be thrown as, and the pure domain functions a host may price with.
export type {
  CartsPort, CartChange, CartChangeOptions, CartState, AdjustableLine, LineAdjuster, LineAdjustment, CartAdjustment, CartAdjustments, CartView, CartViewLine, ShippingAdjustment, CartReading, Viewer, AddItemInput, Login, DrawerUser, ShopUrls, RateCount, CartReconciler, CartReconcileAnswer, CartFollowUp, LockedLines,
  CartSnapshotter, CartRewards, CartExtension, CartHookName, FilterPort, FilterErrorReporter, DrawerFilterHooks, DrawerFilterName, StorefrontScript, StorefrontLink,
  StorefrontContext
} from './plugins/cart-drawer/index.ts'
export { DEFAULT_REST_ROOT } from './port/index.ts'
// The port as the drawer uses it: a host's port with the defaults of the optional members it left out.
export {
  resolveCommercePort, DrawerFilters, drawerSessions, type ResolvedCommercePort, type ResolvedCartsPort, type ResolveOptions, type DrawerSessions
} from './port/index.ts'
export { CartActionError } from '../kernel/domain/cart-action-error.ts'
export { priceCart, tierAdjustments, cartView } from '../kernel/domain/totals.ts'
export { adjustedAmounts, type TierAdjuster } from '../kernel/domain/adjustments.ts'
export { evaluateRewards, rewardAdjustments, syncRewardGifts, type RewardOutcome, type RewardProgram } from '../kernel/domain/rewards.ts'
export { bundleAdjustments, type BundleDefinition } from './domain/bundles.ts'
export { cartHash } from '../kernel/domain/cart-hash.ts'
export { addToCart, removeLines, setLineQuantity, normaliseCouponCode } from '../kernel/domain/cart.ts'
export { applyCartChanges, appliedCouponCodes, type CartChangeContext } from '../kernel/domain/cart-changes.ts'
export { bundleMark, giftTierOf, isManagedMark, markOrigin, rewardMark } from '../kernel/domain/marks.ts'
export { applyCoupon, removeCoupon } from '../kernel/domain/coupons.ts'
export { effectivePrice, findVariation } from '../kernel/domain/catalog.ts'
export { formatMoney } from '../kernel/domain/money.ts'
export type {
  Product, Coupon, CartData, CartLine, LineOrigin, PricedCart, PricedLine, ShopConfig, Currency, DomainError, Order
} from '../kernel/domain/types.ts'

// The drawer's parts, for a host that composes them itself instead of registering `cartDrawer` (the reference
// platform's entry re-exports them), and the build of its browser scripts (`npm run build:client`).
export { settingsPlugin, SettingsService, type SettingsWriteResult, type VersionedSettings } from './plugins/settings/index.ts'
export { storeApiExtensionPlugin, DrawerCart } from './plugins/store-api-extension/index.ts'
export { fragmentsPlugin, SVC_FRAGMENT_KEY } from './plugins/fragments/index.ts'
export { svcFreePlugin } from './plugins/svc-free/index.ts'
export { svcProPlugin } from './plugins/svc-pro/index.ts'
export { drawerAssetsPlugin, BUNDLE_FILE, MAX_GZIPPED_BYTES, bundleClient } from './plugins/drawer-assets/index.ts'
export { adminScreensPlugin, ADMIN_BASE, ADMIN_BUNDLE_FILE, bundleAdmin } from './plugins/admin-screens/index.ts'

// HTTP pieces a host shares with the drawer: the request rules and rate limits of the drawer's security plugin (the
// client address behind trusted proxies, the limits' windows), the OpenAPI document with the security requirements
// of its routes, and the `extensions.svc` schemas a Store API host's cart schema embeds.
export {
  securityPlugin, BODY_LIMITS, perMinute, perHour, clientAddressResolver, compileTrustedProxies,
  type SvcRequestContext, type SvcRouteSpec, type SvcRouteRules, type Edition, type RateLimit, type ClientAddressOf
} from './plugins/security/index.ts'
// Idempotent writes (`Idempotency-Key`): the drawer's `svc/v1` routes take it, and a host installs the same mechanism
// on its own cart routes (the reference platform's Store API).
export {
  installIdempotency, cartIdentity, userIdentity, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_WAIT_MS,
  type IdempotencyOptions
} from './plugins/idempotency/index.ts'
export type { IdempotencyStore, IdempotentAnswer, IdempotencyClaim, IdempotencyKeyClaim } from '../storage/contract/index.ts'
export {
  openapiPlugin, derivedOperationId, securitySchemes, svcSecurity, COOKIE_CART_SECURITY, LOGIN_SECURITY, OPTIONAL_SESSION_SECURITY,
  PUBLIC_SECURITY, SESSION_SECURITY
} from './plugins/openapi/index.ts'
export { ExtensionsWithSvc, SvcCartExtensionSchema, SvcCartItemExtensionSchema } from './schemas/svc-extension.ts'

// The drawer's own stores (settings, analytics) in memory and on SQL, with their migrations.
export {
  createMemoryDrawerStores, createSqlDrawerStores, MemoryAnalyticsStore, MemorySettingsStore, SqlAnalyticsStore, SqlSettingsStore, migrateDrawer,
  drawerMigrations, DRAWER_MIGRATIONS_TABLE, STANDALONE_HOST, type MemoryStoreHost, type SqlSource
} from './stores/index.ts'
