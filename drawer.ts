/**
 * The cart drawer's entry (`cart-drawer-service/drawer`): what a shop of its own needs to embed the drawer — the
 * `cartDrawer` plugin, the commerce port's types, the error a refused cart change is thrown as, and the pure domain
 * functions a host may price or keep its cart with. The reference platform's entry (`cart-drawer-service`, app.ts)
 * re-exports all of it.
 */
export {
  cartDrawer, commercePlugin, CartHooks, applyFollowUp, STORE_ROUTES, type CartDrawerOptions, type CommercePort, type DrawerStores, type DrawerCartCapability, type StoreApiMode
} from './plugins/cart-drawer/index.ts'
export type { Storage, RateCounter, OrderAttribution, ProductPage, ProductQuery } from './storage/contract/index.ts'

// What a host of its own needs besides `cartDrawer` (examples/memory-shop/): the commerce port's types, the error
// the drawer expects a refused cart change to be thrown as, and the pure domain functions a host may price with.
export type {
  CartsPort, CartChange, CartChangeOptions, CartState, AdjustableLine, LineAdjuster, LineAdjustment, CartAdjustment, CartAdjustments, CartView, CartViewLine, ShippingAdjustment, CartReading, Viewer, AddItemInput, Login, DrawerUser, ShopUrls, RateCount, CartReconciler, CartReconcileAnswer, CartFollowUp, LockedLines,
  CartSnapshotter, CartRewards, CartExtension, CartHookName, FilterPort, FilterErrorReporter, DrawerFilterHooks, DrawerFilterName, StorefrontScript, StorefrontLink,
  StorefrontContext
} from './plugins/cart-drawer/index.ts'
export { DEFAULT_REST_ROOT } from './plugins/commerce-port/index.ts'
// The port as the drawer uses it: a host's port with the defaults of the optional members it left out.
export {
  resolveCommercePort, DrawerFilters, drawerSessions, type ResolvedCommercePort, type ResolvedCartsPort, type ResolveOptions, type DrawerSessions
} from './plugins/commerce-port/index.ts'
export { CartActionError } from './domain/cart-action-error.ts'
export { priceCart, tierAdjustments, cartView } from './domain/totals.ts'
export { adjustedAmounts, type TierAdjuster } from './domain/adjustments.ts'
export { evaluateRewards, rewardAdjustments, syncRewardGifts, type RewardOutcome, type RewardProgram } from './domain/rewards.ts'
export { cartHash } from './domain/cart-hash.ts'
export { addToCart, removeLines, setLineQuantity, normaliseCouponCode } from './domain/cart.ts'
export { applyCartChanges, appliedCouponCodes, type CartChangeContext } from './domain/cart-changes.ts'
export { bundleMark, giftTierOf, isManagedMark, markOrigin, rewardMark } from './domain/marks.ts'
export { applyCoupon, removeCoupon } from './domain/coupons.ts'
export { effectivePrice, findVariation } from './domain/catalog.ts'
export { formatMoney } from './domain/money.ts'
export type {
  Product, Coupon, CartData, CartLine, LineOrigin, PricedCart, PricedLine, ShopConfig, Currency, DomainError, Order
} from './domain/types.ts'
