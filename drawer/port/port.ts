import type { FastifyRequest } from 'fastify'
import type { CartData, Currency, Order, PricedCart, PricedLine, Product, ShopConfig } from '../../kernel/domain/types.ts'
import type { OrderAttribution, ProductPage, ProductQuery } from '../../storage/contract/index.ts'
import type { AdjustableLine, CartAdjustment, CartAdjustments, LineAdjuster, LineAdjustment, ShippingAdjustment } from '../../kernel/domain/adjustments.ts'
import type { CartChange } from '../../kernel/domain/cart-changes.ts'
import type { CartView, CartViewLine } from '../../kernel/domain/cart-view.ts'

export type { AdjustableLine, CartAdjustment, CartAdjustments, CartChange, CartView, CartViewLine, LineAdjuster, LineAdjustment, ShippingAdjustment }

/**
 * The commerce port: everything the cart drawer asks of the shop it runs in. A shop implements it over its own
 * catalog, carts and accounts and passes it to `cartDrawer` as the `commerce` option; the reference platform's
 * implementation is `fastify.shop.commerce` (hosts/reference-shop/commerce.ts). 21 members are required (counting those of
 * `carts` and `filters` one by one); the 20 others are optional, each with a documented default or without which the
 * drawer does less (the drawer fills the defaults in: `resolveCommercePort`). Five groups:
 *
 * - the shop: its URLs, currency and clock (values, not calls);
 * - sessions: the request's cart (from a Cart-Token) and logged-in user, nonces, the `manage_shop` capability;
 * - carts: read and price a cart, and change it atomically (add, remove, coupons, the drawer's own marked lines);
 * - products: get, get many, list and search, with the facts the drawer's rules need (`Product`);
 * - contributions: where the drawer adds to the shop — the declared cart hooks (locked lines, a reconciler run
 *   after each cart change, snapshots), the Store API's `extensions`, and named filters (the add-to-cart fragments,
 *   storefront scripts).
 *
 * Cart operations take the cart's key and a `Viewer` (who is asking: private products and conditions depend on it)
 * and answer the cart as it now stands (`CartState`), priced. A change the shop's rules refuse is thrown as
 * `CartActionError` (kernel/domain/cart-action-error.ts) with the domain's reason; the drawer answers it in its own codes.
 * Anything else thrown is a server error.
 *
 * A host's duties beyond the operations: its own cart routes (quantity changes, removals) must refuse the lines the
 * `lockedLines` hooks name and run the `reconcile` hooks after every change, as `removeItems` does; the drawer's
 * browser script reads and changes quantities through the Store API cart routes (`{restRoot}wc/store/v1/cart`,
 * `cart/update-item`, `cart/add-item`), or, for a host without a Store API, through the drawer's own
 * (`cartDrawer`'s `storeApi: 'drawer'`). Its totals apply the drawer's money effects (`CartRewards`: line
 * adjustments before the coupons, the reward tiers).
 *
 * The drawer never calls back into a host operation from inside one: its hooks only read and answer data, so a host
 * may run them inside its per-cart lock or transaction. After every cart change the host asks the `reconcile` hooks
 * (`CartHooks.reconcile` merges their answers) and, when they answer a `CartFollowUp`, applies it to the cart as it
 * then stands in one follow-up write (`applyFollowUp`, then its usual gift and coupon checks), under the same lock if it
 * holds one, and answers the cart as that write leaves it. Everything else the drawer does to a cart (its own
 * routes' `change`) starts from a request, never from a hook.
 */
export interface CommercePort {
  /** Optional: the REST root, starting and ending with a slash. Default `/wp-json/`. */
  readonly restRoot?: string
  /** The storefront's base URL, without a trailing slash. */
  readonly homeUrl: string
  /** Optional: the site's URL (the admin side), whose origin is allowed too. Default: `homeUrl`. */
  readonly siteUrl?: string
  /** Optional: the currency prices are shown in. Default: `config.currency`. */
  readonly currency?: Currency
  /** Where the drawer's pages send the browser: the shop's checkout, REST nonce, login and logout addresses. */
  readonly urls: ShopUrls
  /** The pricing configuration: snapshots of a cart depend on it. */
  readonly config: ShopConfig
  /** Optional: the shop's clock (tests move it). Default: the system clock. */
  now? (): Date

  // ---------------------------------------------------------------------------------------------- sessions
  /** The request's logged-in user (from the shop's session cookie), or null. */
  login (request: FastifyRequest): Promise<Login | null>
  /**
   * Optional: the cart key a Cart-Token names, or null when the token is not valid. The token is a bearer's: the drawer
   * serves a cart bound to a user (`carts.ownerOf`) only with that user's login. Default: the drawer's own tokens,
   * `{key}.{HMAC}` signed with its secrets (a host without its own gives them out through the drawer's cart routes,
   * `storeApi: 'drawer'`, or `fastify.commerce.issueToken`).
   */
  cartKeyOfToken? (token: string): string | null
  /**
   * Optional: whether `nonce` is the login's current REST nonce (the `X-WP-Nonce` header). Default: the drawer's own
   * nonces, an HMAC of the user's id and the login's `sessionId` under its secrets. Give both nonce members or neither.
   */
  verifyNonce? (nonce: string, login: Login): boolean
  /** Optional: the login's current REST nonce (put into pages the drawer renders). Default: the drawer's own. */
  restNonce? (login: Login): string
  /**
   * Optional: whether the user may manage the shop: the drawer's admin routes and screens, private products. Default:
   * the user's capabilities include `manage_shop`.
   */
  canManageShop? (user: { capabilities: readonly string[] }): boolean
  /**
   * Optional: counts a drawer write to the cart `key` that may start it against the shop's limit on new carts, before
   * the body is read or anything changed (a fresh Cart-Token is one `GET` away: without a limit, every one would be a
   * stored cart and a new visitor's allowance). `read` is the cart as `carts.read` gave it, or null when a current
   * snapshot stood in (the cart is stored). Answers null when the write starts no cart, else the limit's count: a
   * `retryAfterSeconds` above 0 refuses the request with 429 `svc_rate_limit_exhausted`. A rejection (the shop cannot
   * count) is answered 503 `svc_rate_limit_unavailable`. Without it the drawer's writes start carts unlimited.
   */
  countCartStart? (request: FastifyRequest, key: string, read: CartReading | null): Promise<RateCount | null>

  // ---------------------------------------------------------------------------------------------- carts and hooks on them
  readonly carts: CartsPort

  // ---------------------------------------------------------------------------------------------- products
  /** Optional: one product, or null. Default: `getProducts([id])`. */
  getProduct? (id: number): Promise<Product | null>
  /** The products of these ids that exist (any status: the drawer applies visibility itself). */
  getProducts (ids: readonly number[]): Promise<Map<number, Product>>
  listProducts (query: ProductQuery): Promise<ProductPage>
  /**
   * Optional: the ids of the shop's best-selling products (units in placed orders), most first, at most `limit`.
   * Without it the recommendations' `best_sellers` source finds nothing.
   */
  bestSellers? (limit: number): Promise<number[]>
  /**
   * Optional: the placed orders of a range of UTC days (`YYYY-MM-DD`, both included) as the drawer's analytics count
   * them, computed from the stored orders (`OrderStore.orderAttribution`, at most `topProducts` products). Without it
   * the analytics report no order figures.
   */
  orderAttribution? (from: string, to: string, topProducts: number): Promise<OrderAttribution>
  /**
   * Optional: the storefront URL of a product (a variation's: its parent's page with the chosen attributes). Default:
   * WooCommerce's permalink, `{homeUrl}/product/{parent slug}/` with `attribute_…` query parameters for a variation.
   */
  productUrl? (product: Product, parent: Product, variation?: Record<string, string>): string

  // ---------------------------------------------------------------------------------------------- contributions
  /** Registers the drawer's data under `extensions[namespace]` of every Store API cart response. */
  extendCart (extension: CartExtension): void
  /**
   * Optional: the shop's named filters: the drawer adds to some (fragments, storefront scripts) and reads others.
   * Default: the drawer's own (`DrawerFilters`), which the host applies through `fastify.commerce.filters` where its
   * pages need them (`storefront_scripts` on every page, the order action after a checkout).
   */
  readonly filters?: FilterPort
}

export interface ShopUrls {
  /** The checkout page (the drawer's Checkout button). */
  checkout: string
  /** `GET`: `{nonce}` for the logged-in user (401 once logged out): the drawer renews a refused nonce there. */
  restNonce: string
  /** `POST {email, password}`: logs in with the shop's session cookie (the admin screens' login form). */
  login: string
  /** `POST`: logs out. */
  logout: string
}

/** A limit's count: the tightest window counted, and when refused, whole seconds until it ends (else 0). */
export interface RateCount {
  limit: number
  remaining: number
  retryAfterSeconds: number
}

/** A logged-in user as the drawer sees them: no password hash, no session record. */
export interface DrawerUser {
  id: number
  displayName: string
  capabilities: readonly string[]
}

/** The login a request carries; the shop may keep more in it (its session), which the drawer hands back untouched. */
export interface Login {
  user: DrawerUser
  /**
   * Optional: the login session's id (any string that changes with each new login of the user): the drawer's own REST
   * nonces are bound to it, so a nonce of an earlier session stops working.
   */
  sessionId?: string
}

/** A cart as the shop read it: opaque to the drawer, which only hands it back to `priceRead`, `ownerOf` and `storeSnapshot`. */
export type CartReading = object

export interface CartsPort {
  /** The cart as stored with what pricing it needs (products, coupons), in one consistent read. */
  read (key: string): Promise<CartReading>
  /**
   * The user a read cart is bound to (a logged-in shopper's saved cart), or null for a guest's cart or one not stored.
   * The drawer serves a cart bound to a user to that user's login only: its Cart-Token alone is refused.
   */
  ownerOf (read: CartReading): number | null
  /** Prices a read cart (no I/O). */
  priceRead (key: string, read: CartReading, viewer?: Viewer): CartState
  /** Optional: reads and prices. Default: `read`, then `priceRead`. */
  get? (key: string, viewer?: Viewer): Promise<CartState>
  /**
   * Changes the cart: the list is applied in order, together or not at all (`CartChange`), under the shop's usual
   * rules (stock, quantities, coupons' conditions), followed by the `reconcile` hooks as any change; answers the cart as
   * it then stands. A refused change is thrown as `CartActionError` with the domain's reason and the refused change's
   * position (`changeIndex`), nothing applied. The lines the `lockedLines` hooks name are refused to `remove` unless
   * `options.service` (the drawer's own controls). A host that keeps its carts as the package's `CartData` applies the
   * list with `applyCartChanges`.
   */
  change (key: string, changes: readonly CartChange[], viewer: Viewer, options?: CartChangeOptions): Promise<CartState>
  /** Optional: one add, answering the cart. Default: `change` with one `add`. */
  addItem? (key: string, input: AddItemInput, viewer?: Viewer): Promise<CartState>
  /**
   * Optional: removes every given line or none (an unknown or locked key refuses the whole change). `read`: the cart as
   * this request read it (`read`), which the change may start from instead of reading the cart again. Default:
   * `change` with one `remove`.
   */
  removeItems? (key: string, itemKeys: readonly string[], viewer?: Viewer, read?: CartReading): Promise<CartState>
  /**
   * Optional: `removeItems` for a guest's request whose cart the drawer did not read first (its `remove-items` then
   * skips the read it makes for access). The shop itself must refuse a cart bound to a user, with `RestError`
   * `svc_invalid_cart_token`, as the drawer's access does; everything else is `removeItems`' contract.
   */
  removeItemsUnread? (key: string, itemKeys: readonly string[], viewer: Viewer): Promise<CartState>
  /** Optional: applies a coupon. Default: `change` with one `applyCoupon`. */
  applyCoupon? (key: string, code: string, viewer?: Viewer): Promise<CartState>
  /** Optional: removes a coupon. Default: `change` with one `removeCoupon`. */
  removeCoupon? (key: string, code: string, viewer?: Viewer): Promise<CartState>

  /**
   * Optional: which lines are locked (the union of the `lockedLines` hooks: only the drawer's own controls change
   * them). Default: the union of the `lockedLines` hooks the drawer added through `addHook`.
   */
  lockedLines? (data: CartData): ReadonlySet<string>
  /**
   * Optional: grows whenever a `lockedLines` hook is added or removed: what a snapshot computed with the locks depends
   * on. Default: counted by the drawer as it adds and removes its hooks.
   */
  readonly lockedLinesGeneration?: number
  /**
   * The declared hooks, each returning a function that removes it: `lockedLines` names lines only the drawer may
   * change; `reconcile` runs after every change and answers the follow-up the host applies in a second write
   * (`CartFollowUp`); `snapshot` (a shop may refuse it by throwing: then every read prices the cart) makes the bytes a
   * later read may send as they are; `rewards` is the drawer's reward program, which the host's totals must apply
   * (see `CartRewards`): one is in force, the last added and not yet removed (the contract kit adds its own for a
   * while, then removes it; `CartHooks` keeps them so).
   */
  addHook (name: 'lockedLines', hook: LockedLines): () => void
  addHook (name: 'reconcile', hook: CartReconciler): () => void
  addHook (name: 'snapshot', hook: CartSnapshotter): () => void
  addHook (name: 'rewards', hook: CartRewards): () => void

  /**
   * Snapshots, if the shop keeps them: the current one, or null; and storing one after a read found none. A snapshot
   * is a guest's view: a cart bound to a user has none (`readSnapshot` answers null for it).
   */
  readSnapshot? (key: string): Promise<string | null>
  storeSnapshot? (state: CartState, read: CartReading, viewer: Viewer): Promise<string | null>
  /**
   * Other rendered views of a guest's cart (the drawer data), if the shop keeps them: the current one of that name,
   * or null; and keeping one computed from `read` (kept only where the snapshotter's `cacheable` allows).
   */
  readView? (key: string, view: string): Promise<string | null>
  storeView? (view: string, state: CartState, read: CartReading, viewer: Viewer, body: string): Promise<void>
}

/** A cart as read or just written: what is stored, the priced figures and the cart hash. */
export interface CartState {
  key: string
  stored: { key: string, userId: number | null, data: CartData, version: number, updatedAt: string } | null
  priced: PricedCart
  hash: string
  /** Products of the cross-sells of the cart's lines that are not already in the cart (read on first call). */
  crossSells: () => Promise<Product[]>
  /** The settings' version read together with the cart, when the shop's read brings it. */
  settingsVersion?: number
  /**
   * The catalog's version read together with the cart, when the shop's read brings it: it must grow with every write
   * that can change what `getProducts` or `listProducts` answer. The drawer keeps picks computed at one version.
   */
  catalogVersion?: number
  /**
   * The snapshot the shop's snapshotter made of exactly this state (`CartSnapshotter.make`), when it made one: the
   * drawer may send these bytes instead of rendering the state again.
   */
  snapshot?: string
}

export interface AddItemInput {
  id: number
  quantity: number
  /** Chosen attributes for a variable product: `{attribute: value}`. */
  variation: Record<string, string>
  /**
   * The drawer's mark (`recommendation`, `spotlight`, …): opaque to the shop, which keeps it on the line as
   * `CartChange`'s `add` says (a line of its own, kept through quantity changes and the login merge) and records on
   * the order's line the control it names (`markOrigin`), where `orderAttribution` counts it. A shop's own adds never
   * set it.
   */
  mark?: string
}

export interface CartChangeOptions {
  /**
   * A change the drawer makes to its own lines (add-ons, bundles): the `lockedLines` hooks do not refuse it. Else the
   * locked lines are refused as for the shopper's own changes.
   */
  service?: boolean
  /** The cart as this request read it (`read`), which the change may start from instead of reading it again. */
  read?: CartReading
}

/** Who is asking. */
export interface Viewer {
  canReadPrivate: boolean
  /** The logged-in user, whose carts are bound to them. */
  userId?: number | null
  /** The logged-in user's capabilities (for conditions). */
  capabilities?: readonly string[]
}

/**
 * What the drawer wants done to a cart after a change, as data the host applies itself: `remove` first, then `change`.
 * An empty follow-up (neither) asks for nothing.
 */
export interface CartFollowUp {
  /** Keys of lines that must go (an add-on whose conditions no longer hold); a key no line has removes nothing. */
  remove?: ReadonlySet<string>
  /**
   * A change of the drawer's own marked lines (the bundle lines' discounts), given the cart's data as the follow-up
   * write finds it: pure and quick (no I/O, no call into the host), it may run under the host's lock; it answers its
   * argument when nothing is to change.
   */
  change?: (data: CartData) => CartData
}

/**
 * Told after every cart change, with the new state; reads only. Answers what must follow: a `CartFollowUp`, or the
 * keys of lines that must go (short for `{ remove }`), or null for nothing. The host applies the answers of every
 * reconciler (merged by `CartHooks.reconcile`) in one follow-up write of the same cart (`applyFollowUp`), under the
 * lock it held for the change if it holds one, and answers the cart as that write leaves it. The follow-up write is
 * not reconciled again. A reconciler never changes a cart itself: a host may run it inside its per-cart lock.
 */
export type CartReconciler = (state: CartState, viewer: Viewer) => CartReconcileAnswer | Promise<CartReconcileAnswer>

/** A reconciler's answer: a follow-up, the keys of lines to remove, or null (nothing to do). */
export type CartReconcileAnswer = CartFollowUp | ReadonlySet<string> | null

/**
 * The drawer's money effects, as the host's totals apply them: its reward tiers and its line adjustments, computed
 * again on every pricing and never stored on a line. Before pricing, the host calls `prepare` with the settings
 * version its read or write saw (undefined when it has none), so the tiers and the adjustments are the ones saved at
 * that version on any instance. Then, in this order:
 *
 * 1. Line adjustments (bundle discounts): the host calls `lineAdjuster(viewer, now)` with its lines (`AdjustableLine`:
 *    key, product, quantity, its unit price, the drawer's mark) and takes each `LineAdjustment`'s amount off its line
 *    before the coupons.
 * 2. Its coupons, on what the line adjustments left.
 * 3. The reward tiers: the host builds the `CartView` of its cart as priced so far (each line's subtotal, total and
 *    taxes, categories and mark, and the applied coupon codes; a gift line, marked `reward:<tierId>`, at its product's
 *    price, taking no share of a coupon) and calls `adjust(view, viewer, now)`. It applies the `CartAdjustments`:
 *    - `lines`: each gift line's whole subtotal: the line costs nothing (price it at zero, or take the amount off it);
 *      a gift line without one is no longer earned: leave it out of the totals until the next change removes it;
 *    - `cart`: the discount tier, after the coupons: each of its `lines` amounts off that line's total (tax what is
 *      left), the whole `amount` shown as a discount with its `label`;
 *    - `shipping`: while one is listed, no shipping is charged;
 *    - `outcome`: the tiers' progress, what the drawer shows (the reference platform's `PricedCart.rewards`).
 *    Inside every cart change the host brings its gift lines in step with `gifts` (`syncRewardGifts`,
 *    kernel/domain/rewards.ts) and tells `report` of a gift it could not add; a gift whose line the cart lacks grants nothing.
 *
 * The reference platform prices through exactly this (`priceCart`, kernel/domain/totals.ts, with `cartView` building the
 * view of its priced cart).
 */
export interface CartRewards {
  prepare (settingsVersion?: number): Promise<void>
  /**
   * What the reward tiers do to the cart of `view` for a viewer (conditions depend on them), or null while no tier is
   * configured, whatever the cart. Pure and quick (no I/O): a host may call it under its lock.
   */
  adjust (view: CartView, viewer: Viewer, now: Date): CartAdjustments | null
  /** The line adjuster (bundle discounts), or null while nothing adjusts a line. Pure: a host may call it under its lock. */
  lineAdjuster (viewer: Viewer, now: Date): LineAdjuster | null
  /** A reached gift tier whose product could not be added (out of stock, no longer sold): it grants nothing. */
  report (tierId: string, problem: 'gift_unavailable'): void
}

/** Which lines of a cart only the drawer may change (locked add-on lines). */
export type LockedLines = (data: CartData) => ReadonlySet<string>

/**
 * Makes a cart's snapshot: the bytes a read may send as they are while the catalog and settings stay at the versions
 * they were computed at. `key` names everything else they depend on; `make` answers null for a state that must not
 * be stored.
 */
export interface CartSnapshotter {
  key: () => string
  make: (state: CartState) => Promise<string | null>
  /**
   * Whether the shop may keep other rendered views of this state that include this plugin's data (the Store API
   * cart with its extension, the drawer data) for as long as the snapshot's versions and key hold; absent: never.
   */
  cacheable?: (state: CartState) => Promise<boolean>
}

/** Store API extension data: a namespace's callbacks for the cart and for each line. */
export interface CartExtension {
  namespace: string
  cart?: (state: CartState) => unknown | Promise<unknown>
  item?: (line: PricedLine, state: CartState) => unknown | Promise<unknown>
}

/** A script every storefront page loads, with the JSON data it needs (WordPress's enqueue plus localize). */
export interface StorefrontScript {
  /** The script's URL; loaded as a classic script with `defer`. */
  src: string
  /** Data written before the script as `<script type="application/json" id="…">` (escaped as design §3.8). */
  data?: { id: string, value: unknown }
}

/** A link in the storefront's header (for example the drawer's admin screen, for the users who may use it). */
export interface StorefrontLink {
  /** A site-relative path or an http(s) URL. */
  href: string
  label: string
}

export interface StorefrontContext {
  /** Which page is being rendered. */
  page: 'shop' | 'product'
  /** The logged-in user, or null for a guest. */
  user: { id: number, displayName: string, capabilities: readonly string[] } | null
  /** A REST nonce (action `wp_rest`) for the logged-in user's `X-WP-Nonce`; null for a guest. */
  restNonce: string | null
}

/** The filters the drawer adds to or reads, with their value and argument types. A shop's own filters may add more. */
export interface DrawerFilterHooks {
  /** The fragments of a classic add-to-cart or fragment-refresh response, keyed by CSS selector. */
  woocommerce_add_to_cart_fragments: { value: Record<string, unknown>, args: [CartState] }
  /** Origins allowed to call `svc/v1` besides the home and site URLs' origins. */
  svc_rest_allowed_origins: { value: string[], args: [] }
  /** Proxy ranges (IPv4/IPv6 CIDR) whose `X-Forwarded-For` is trusted for the client address. */
  svc_rest_trusted_proxy_cidrs: { value: string[], args: [] }
  /** One cart line's presentation row in `extensions.svc.item_presentations`. */
  svc_cart_item_data: { value: Record<string, unknown>, args: [PricedLine, CartState] }
  /** The cart's `extensions.svc` object, before the drawer restores the keys it owns. */
  svc_store_api_cart_extension_data: { value: Record<string, unknown>, args: [CartState] }
  /** The scripts every storefront page loads, after the shop's own. */
  storefront_scripts: { value: StorefrontScript[], args: [StorefrontContext] }
  /** Links in every storefront page's header. */
  storefront_header_links: { value: StorefrontLink[], args: [StorefrontContext] }
  /**
   * An action (WooCommerce's of the same name): applied once the checkout has placed an order from a cart, after it is
   * stored; the value (`null`) is unused. The drawer's analytics count the cart as one that ordered.
   */
  woocommerce_store_api_checkout_order_processed: { value: null, args: [{ order: Order, cartKey: string }] }
}

export type DrawerFilterName = keyof DrawerFilterHooks
type ValueOf<N extends DrawerFilterName> = DrawerFilterHooks[N]['value']
type ArgsOf<N extends DrawerFilterName> = DrawerFilterHooks[N]['args']

/** Named filters as WordPress's `apply_filters`: callbacks run by priority, each given the previous one's value. */
export interface FilterPort {
  /** Adds a callback; returns a function that removes it. */
  add<N extends DrawerFilterName> (name: N, callback: (value: ValueOf<N>, ...args: ArgsOf<N>) => ValueOf<N> | Promise<ValueOf<N>>, priority?: number): () => void
  apply<N extends DrawerFilterName> (name: N, value: ValueOf<N>, ...args: ArgsOf<N>): Promise<ValueOf<N>>
  /** Optional: whether a callback is added for `name` (the drawer then skips work no filter changes). Default: always. */
  has? (name: DrawerFilterName): boolean
  /** Optional: where the errors of callbacks that threw are reported (their input value is kept). Default: the host's own. */
  setErrorReporter? (report: FilterErrorReporter): void
}

export type FilterErrorReporter = (name: string, error: unknown) => void
