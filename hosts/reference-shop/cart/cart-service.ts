import { addToCart, cartProductIds, normaliseCouponCode, notPurchasable, productNotFound, removeLine, removeLines, restoreLines, setLineQuantity, withLines } from '../../../kernel/domain/cart.ts'
import { cartHash } from '../../../kernel/domain/cart-hash.ts'
import { findVariation } from '../../../kernel/domain/catalog.ts'
import { variationChoice } from '../../../kernel/domain/variations.ts'
import { applyCoupon, couponRemovedMessage, removeCoupon, validateCoupon } from '../../../kernel/domain/coupons.ts'
import { domainError } from '../../../kernel/domain/result.ts'
import { priceCart, tierAdjustments } from '../../../kernel/domain/totals.ts'
import { syncRewardGifts } from '../../../kernel/domain/rewards.ts'
import type { TierAdjuster } from '../../../kernel/domain/adjustments.ts'
import type { CartView } from '../../../kernel/domain/cart-view.ts'
import type { CartCustomer, CartData, Coupon, DomainReason, PricedCart, Product, Result, ShopConfig } from '../../../kernel/domain/types.ts'
import type {
  CartRead, CartStore, CartViewStore, CatalogStore, RemovalFinish, RemovedCartLines, StoredCart, WriteVersions
} from '../../../storage/contract/index.ts'
import { isStorageUnavailable, StaleReadError } from '../../../storage/contract/index.ts'
import { applyFollowUp, CartHooks, type AddItemInput, type CartChange, type CartChangeOptions, type CartHookName, type CartReconciler, type CartRewards, type CartSnapshotter, type CartState, type LineAdjuster, type LockedLines, type Viewer } from '../../../drawer/index.ts'
import { CartActionError } from '../../../kernel/domain/cart-action-error.ts'
import { giftTierOf } from '../../../kernel/domain/marks.ts'
import { applyCartChanges, appliedCouponCodes, quantityLineKeys, type CartChangeContext } from '../../../kernel/domain/cart-changes.ts'
import { restError } from '../../../kernel/errors/index.ts'

// The cart types are the commerce port's: this service is the reference platform's side of it.
export type { AddItemInput, CartReconciler, CartSnapshotter, CartState, LockedLines, Viewer }

const EMPTY: CartData = { lines: [], coupons: [] }
/** The view of an empty cart: the reward hook answers null for it exactly when no tier is configured. */
const NO_LINES: CartView = { lines: [], couponCodes: [] }
const GUEST: Viewer = { canReadPrivate: false, userId: null }

function isGuest (viewer: Viewer): boolean {
  return (viewer.userId ?? null) === null && !viewer.canReadPrivate
}

/**
 * What a snapshot is stamped with: the snapshotter's key (what else the state depends on) and the catalog's and
 * settings' versions it was computed at. Storage keeps it opaque; `readSnapshot` compares it.
 */
function snapshotStamp (snapshotKey: string, versions: WriteVersions): string {
  return `${snapshotKey}:${versions.catalogVersion}:${versions.settingsVersion}`
}

/**
 * How a removal without a read ended: done (the state to answer), a locked line removed (`before`: the cart as it was),
 * or in need of a second write (gifts earned, a reconciler's follow-up).
 */
type UnreadRemoval = { kind: 'done', state: CartState } | { kind: 'locked', before: CartData } | { kind: 'again' }

/** The parts of a cart's data that are not lines or coupons: the customer's addresses and the chosen rates. */
function pickSession (data: CartData): Partial<CartData> {
  return {
    ...(data.customer === undefined ? {} : { customer: data.customer }),
    ...(data.shippingRates === undefined ? {} : { shippingRates: data.shippingRates })
  }
}

/** The state with the notices of a write (coupons it removed) ahead of the cart's own errors. */
function withNotices (state: CartState, notices: ReadonlyArray<{ reason: DomainReason, message: string }>): CartState {
  if (notices.length === 0) return state
  return { ...state, priced: { ...state.priced, errors: [...notices, ...state.priced.errors] } }
}

function unwrap<T> (result: Result<T>): T {
  if (!result.ok) throw new CartActionError(result.error)
  return result.value
}

/** The stores `CartService` uses: carts and their rendered views, and the catalog's reads. */
export type CartServiceStores =
  CartStore & CartViewStore & Pick<CatalogStore, 'getProduct' | 'getProducts' | 'getCoupon' | 'getCoupons'>

/** The platform's cart operations: domain rules applied inside the storage's per-cart write lock. */
export class CartService {
  readonly #storage: CartServiceStores
  readonly #config: ShopConfig
  readonly #now: () => Date
  readonly #hooks = new CartHooks()
  /** States an answer was built from without an optional part the storage could not give (see `#crossSells`). */
  readonly #partial = new WeakSet<CartState>()
  /** The settings' version of the newest read or write this service made (-1: none yet): a new cart's first guess. */
  #settingsVersion = -1

  constructor (storage: CartServiceStores, config: ShopConfig, now: () => Date = () => new Date()) {
    this.#storage = storage
    this.#config = config
    this.#now = now
  }

  get config (): ShopConfig {
    return this.#config
  }

  /**
   * The declared hooks of the commerce port: which lines are locked against the shopper's changes (`lockedLines`),
   * what follows every change (`reconcile`, applied by this service's follow-up write), how a cart's snapshot is made
   * (`snapshot`, one at most). Returns a function that removes the hook.
   */
  addHook (name: 'lockedLines', hook: LockedLines): () => void
  addHook (name: 'reconcile', hook: CartReconciler): () => void
  addHook (name: 'snapshot', hook: CartSnapshotter): () => void
  addHook (name: 'rewards', hook: CartRewards): () => void
  addHook (name: CartHookName, hook: LockedLines | CartReconciler | CartSnapshotter | CartRewards): () => void {
    return this.#hooks.add(name as 'lockedLines', hook as LockedLines)
  }

  /**
   * The reward tiers' adjustments for a viewer (the drawer's `rewards` hook: `adjust`), or null without the hook:
   * every pricing passes it.
   */
  tierAdjuster (viewer: Viewer): TierAdjuster | null {
    const rewards = this.#hooks.rewards
    if (rewards === undefined) return null
    const now = this.#now()
    return (view) => rewards.adjust(view, viewer, now)
  }

  /** Whether a reward tier is configured for the viewer (the hook answers null for any cart while none is). */
  #tiersConfigured (viewer: Viewer): boolean {
    return this.#hooks.rewards?.adjust(NO_LINES, viewer, this.#now()) != null
  }

  /** The drawer's line adjustments for a viewer (bundles; the drawer's `rewards` hook), or null: every pricing passes it. */
  lineAdjuster (viewer: Viewer): LineAdjuster | null {
    return this.#hooks.rewards?.lineAdjuster(viewer, this.#now()) ?? null
  }

  /** Brings the reward tiers to the settings version a read or write saw (the last known without one). */
  async prepareRewards (settingsVersion?: number): Promise<void> {
    await this.#hooks.rewards?.prepare(settingsVersion)
  }

  /** Grows whenever a `lockedLines` hook is added or removed (0: none ever): what a snapshot with locks depends on. */
  get lockedLinesGeneration (): number {
    return this.#hooks.lockedLinesGeneration
  }

  #lockedLines (data: CartData): ReadonlySet<string> {
    return this.#hooks.lockedLines(data)
  }

  /** The snapshot key reads ask for (undefined: no snapshots). */
  get snapshotKey (): string | undefined {
    return this.#hooks.snapshotter?.key()
  }

  /** The cart as stored with its products and coupons and the settings' version (`Storage.readCart`). */
  async read (key: string): Promise<CartRead> {
    const read = await this.#storage.readCart(key)
    this.#sawSettings(read.settingsVersion)
    await this.prepareRewards(read.settingsVersion)
    return read
  }

  #sawSettings (version: number | undefined): void {
    if (version !== undefined && version > this.#settingsVersion) this.#settingsVersion = version
  }

  /** The user a read cart is bound to, or null (a guest's cart, or none stored). */
  ownerOf (read: CartRead): number | null {
    return read.cart?.userId ?? null
  }

  /**
   * The cart's stored snapshot while it is current, else null; null without snapshots. One storage statement
   * (`Storage.getCartSnapshot`) brings the stamp the snapshot was stored with and the versions as they are now: it is
   * current when the stamp is the one `storeSnapshot` would make now.
   */
  async readSnapshot (key: string): Promise<string | null> {
    const snapshotKey = this.snapshotKey
    if (snapshotKey === undefined) return null
    const stored = await this.#storage.getCartSnapshot(key)
    return stored !== null && stored.stamp === snapshotStamp(snapshotKey, stored) ? stored.snapshot : null
  }

  /**
   * Stores the state's snapshot, stamped with the versions it was computed at, if the cart is stored, the viewer is
   * a guest and the snapshotter makes one. Returns the snapshot, or null.
   */
  async storeSnapshot (state: CartState, versions: WriteVersions, viewer: Viewer): Promise<string | null> {
    const snapshotter = this.#hooks.snapshotter
    if (snapshotter === undefined || state.stored === null || !isGuest(viewer)) return null
    const snapshot = await snapshotter.make(state)
    if (snapshot === null) return null
    await this.#storage.saveCartSnapshot(state.key, state.stored.version, snapshotStamp(snapshotter.key(), versions), snapshot)
    return snapshot
  }

  /**
   * A rendered view of a guest's cart other than the snapshot (the Store API cart, the drawer data) as the storage's
   * view cache keeps it, while it is current; null when there is none, it is stale, or the storage keeps no views.
   * No database round trip when the cache has it.
   */
  async readView (key: string, view: string): Promise<string | null> {
    const snapshotKey = this.snapshotKey
    if (snapshotKey === undefined || this.#storage.getCartView === undefined) return null
    const stored = await this.#storage.getCartView(key, view)
    return stored !== null && stored.stamp === snapshotStamp(`${view}/${snapshotKey}`, stored) ? stored.snapshot : null
  }

  /**
   * Keeps a rendered view of a guest's cart (`readView`), when the storage keeps views and the snapshotter says the
   * state may be kept: stamped with the versions of the read it was computed from.
   */
  async storeView (view: string, state: CartState, read: CartRead, viewer: Viewer, body: string): Promise<void> {
    const snapshotter = this.#hooks.snapshotter
    if (snapshotter?.cacheable === undefined || this.#storage.saveCartView === undefined) return
    if (state.stored === null || read.cart === null || !isGuest(viewer) || this.#partial.has(state) || !(await snapshotter.cacheable(state))) return
    const versions = { catalogVersion: read.catalogVersion, settingsVersion: read.settingsVersion }
    await this.#storage.saveCartView(state.key, state.stored.version, view, snapshotStamp(`${view}/${snapshotter.key()}`, versions), body, versions)
  }

  /** The locked lines of a cart's data. */
  lockedLines (data: CartData): ReadonlySet<string> {
    return this.#lockedLines(data)
  }

  /** The cart as stored, priced: one storage round trip (`Storage.readCart`). */
  async get (key: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.priceRead(key, await this.read(key), viewer)
  }

  /** Prices a cart read with its products and coupons (`Storage.readCart`): no storage call. */
  priceRead (key: string, read: CartRead, viewer: Viewer = GUEST): CartState {
    const data = read.cart?.data ?? EMPTY
    return {
      ...this.#priced(key, read.cart, read.products, read.coupons, cartProductIds(data), viewer),
      settingsVersion: read.settingsVersion,
      catalogVersion: read.catalogVersion
    }
  }

  async addItem (key: string, input: AddItemInput, viewer: Viewer = GUEST): Promise<CartState> {
    return (await this.addItemWithKey(key, input, viewer)).state
  }

  /**
   * `addItem`, also naming the line the product went to (`cart/items` answers that line). With `normaliseQuantity`
   * (the Store API's adds) a new line's quantity is brought within the product's rules instead of refused.
   */
  async addItemWithKey (
    key: string, input: AddItemInput, viewer: Viewer = GUEST, { normaliseQuantity = false, newKey = false } = {}
  ): Promise<{ state: CartState, itemKey: string }> {
    if (newKey) {
      const added = await this.#addToNewCart(key, input, viewer, normaliseQuantity)
      if (added !== null) return added
    }
    // The product and the cart are read side by side: two round trips in the time of one.
    const [{ product, parent, variation }, read] = await Promise.all([this.#resolveProduct(input), this.read(key)])
    let itemKey = ''
    const state = await this.#change(key, viewer, (data) => {
      const added = unwrap(addToCart(data, { product, parent, quantity: input.quantity, variation, normaliseQuantity, ...(input.mark === undefined ? {} : { mark: input.mark }) }, viewer))
      itemKey = added.key
      return added.cart
    }, [product, parent], read)
    return { state, itemKey }
  }

  /**
   * The first add to a cart whose key was made for this request (`newKey`: never given out, so nothing is stored under
   * it): no read at all. The product comes from those this instance holds at the newest catalog version it has seen
   * (`Storage.knownProducts`), the settings' version is the newest this service saw, and the cart is stored by one
   * statement that lands only while the catalog is still at that version (`newCartAt`). Null, with nothing stored,
   * when the product is not held or is a variable product's parent, when no settings version was seen yet, or when the
   * catalog moved: the caller then adds the usual way, from fresh reads.
   */
  async #addToNewCart (key: string, input: AddItemInput, viewer: Viewer, normaliseQuantity: boolean): Promise<{ state: CartState, itemKey: string } | null> {
    if (this.#settingsVersion < 0 || this.#storage.knownProducts === undefined) return null
    const chosen = this.#storage.knownProducts([input.id])?.products.get(input.id)
    if (chosen === undefined || chosen.type === 'variable') return null
    const ids = chosen.type === 'variation' ? [chosen.id, chosen.parentId] : [chosen.id]
    const known = this.#storage.knownProducts(ids)
    if (known === null) return null
    const product = known.products.get(chosen.id)!
    const parent = product.type === 'variation' ? known.products.get(product.parentId)! : product
    const read: CartRead = {
      cart: null, products: new Map(), coupons: new Map(), catalogVersion: known.catalogVersion, settingsVersion: this.#settingsVersion
    }
    let itemKey = ''
    try {
      const variation = product.type === 'variation' ? unwrap(variationChoice(parent, product, input.variation)) : {}
      await this.prepareRewards(read.settingsVersion)
      const state = await this.#change(key, viewer, (data) => {
        const added = unwrap(addToCart(data, { product, parent, quantity: input.quantity, variation, normaliseQuantity, ...(input.mark === undefined ? {} : { mark: input.mark }) }, viewer))
        itemKey = added.key
        return added.cart
      }, [product, parent], read, known.catalogVersion)
      return { state, itemKey }
    } catch (error) {
      // A refusal is given only from fresh reads: the held product may be older than the catalog.
      if (error instanceof StaleReadError || error instanceof CartActionError) return null
      throw error
    }
  }

  /** Sets a line's quantity; without a quantity nothing changes and the cart is answered as it is (as WooCommerce). */
  async updateItem (key: string, itemKey: string, quantity: number | undefined, viewer: Viewer = GUEST): Promise<CartState> {
    if (quantity === undefined) return this.get(key, viewer)
    const current = await this.#storage.getCart(key)
    const line = current?.data.lines.find((candidate) => candidate.key === itemKey)
    const product = line ? await this.#storage.getProduct(line.variationId || line.productId) : null
    // Read outside the write lock: a storage call inside `updateCart` could wait on the lock it is holding.
    return this.#change(key, viewer, (data) => {
      this.#refuseLocked(data, [itemKey])
      return unwrap(setLineQuantity(data, itemKey, quantity, product))
    })
  }

  async removeItem (key: string, itemKey: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.#change(key, viewer, (data) => {
      this.#refuseLocked(data, [itemKey])
      return unwrap(removeLine(data, itemKey))
    })
  }

  /**
   * Removes every given line in one write, or none (unknown or locked keys: 409). `read`: the cart as the caller read
   * it (`read`), which the change starts from instead of reading again.
   */
  async removeItems (key: string, itemKeys: readonly string[], viewer: Viewer = GUEST, read?: CartRead): Promise<CartState> {
    return this.#change(key, viewer, (data) => unwrap(removeLines(data, itemKeys, this.#lockedLines(data))), [], read)
  }

  /**
   * `removeItems` for a guest whose cart was not read first (the drawer's `remove-items`): one statement removes the
   * lines inside the database (`Storage.removeCartLines`) when the cart is a guest's, has no coupon and no reward line
   * and holds every key, and the changed cart is priced from the products this instance holds. What the statement
   * cannot know is checked after it, on the cart as it was: a locked line puts the removed lines back, and the change
   * is then refused as `removeItems` refuses it; a gift the change earns, or a reconciler's follow-up, is a second
   * write, as after any change. Any other cart (a user's, with coupons, missing a key, not stored) is changed the usual
   * way, by `removeItems`.
   */
  async removeItemsUnread (key: string, itemKeys: readonly string[], viewer: Viewer = GUEST): Promise<CartState> {
    const storage = this.#storage
    if (storage.removeCartLines === undefined || !isGuest(viewer) || itemKeys.length === 0) return this.removeItems(key, itemKeys, viewer)
    const outcome = await storage.removeCartLines(key, itemKeys, (removed) => this.#finishRemoval(removed, itemKeys, viewer))
    if (outcome === null) return this.removeItems(key, itemKeys, viewer)
    const { result } = outcome
    if (result.kind === 'done') return result.state
    if (result.kind === 'locked') {
      await this.#storage.updateCart(key, (current) => ({ data: restoreLines(current.data, result.before, itemKeys), result: null }))
      return this.removeItems(key, itemKeys, viewer)
    }
    // The gifts and the reconcilers' follow-up brought in step by a write of the cart as it stands.
    return this.#change(key, viewer, (data) => data)
  }

  /** After `removeCartLines`' statement: its checks on the cart as it was, then the new version priced, with its snapshot. */
  async #finishRemoval (removed: RemovedCartLines, itemKeys: readonly string[], viewer: Viewer): Promise<RemovalFinish<UnreadRemoval>> {
    const { before, cart, versions } = removed
    const locked = this.#lockedLines(before.data)
    if (itemKeys.some((itemKey) => locked.has(itemKey))) return { result: { kind: 'locked', before: before.data } }
    this.#sawSettings(versions.settingsVersion)
    await this.prepareRewards(versions.settingsVersion)
    const ids = cartProductIds(cart.data)
    const known = this.#storage.knownProducts?.([...ids])
    const products = known != null && known.catalogVersion === versions.catalogVersion ? known.products : await this.#storage.getProducts([...ids])
    if (this.#tiersConfigured(viewer)) {
      const synced = await this.#syncGifts(cart.data, viewer, products)
      if (JSON.stringify(synced.lines) !== JSON.stringify(cart.data.lines)) return { result: { kind: 'again' } }
    }
    const state: CartState = { ...this.#priced(cart.key, cart, products, new Map(), ids, viewer), ...versions }
    if ((await this.#hooks.reconcile(state, viewer)) !== null) return { result: { kind: 'again' } }
    const snapshotter = this.#hooks.snapshotter
    const snapshot = snapshotter === undefined ? null : await snapshotter.make(state)
    if (snapshotter === undefined || snapshot === null) return { result: { kind: 'done', state } }
    return { result: { kind: 'done', state: { ...state, snapshot } }, snapshot: { stamp: snapshotStamp(snapshotter.key(), versions), snapshot } }
  }

  /**
   * The port's one cart change: a list applied in order in one transaction, together or not at all
   * (`applyCartChanges`). The products it adds and the coupons it applies are read before the write; the cart's items
   * total a coupon's minimum spend is held against is priced inside it, from reads that join the write. `service`: the
   * drawer's own change, which the locked lines do not refuse.
   */
  async change (key: string, changes: readonly CartChange[], viewer: Viewer = GUEST, { service = false, read }: CartChangeOptions = {}): Promise<CartState> {
    const resolved = new Map<number, { product: Product, parent: Product, variation: Record<string, string> }>()
    const adds = changes.flatMap((change) => change.type === 'add' ? [change] : [])
    await Promise.all(adds.map(async (add) => {
      try {
        resolved.set(add.id, await this.#resolveProduct({ id: add.id, quantity: add.quantity, variation: add.variation ?? {} }))
      } catch (error) {
        if (error instanceof CartActionError) throw new CartActionError(error.domainError, changes.indexOf(add))
        throw error
      }
    }))
    const codes = appliedCouponCodes(changes)
    const coupons = new Map(await Promise.all(codes.map(async (code) => [code, await this.#storage.getCoupon(code)] as const)))
    const known = [...resolved.values()].flatMap(({ product, parent }) => [product, parent])
    // The products of the lines whose quantity is set, read outside the write's lock as `updateItem` reads them.
    const setKeys = new Set(quantityLineKeys(changes))
    const lineProducts = new Map<number, Product>()
    if (setKeys.size > 0) {
      const current = (read as CartRead | undefined)?.cart ?? await this.#storage.getCart(key)
      const ids = (current?.data.lines ?? []).filter((line) => setKeys.has(line.key)).map((line) => line.variationId || line.productId)
      for (const [id, product] of await this.#storage.getProducts(ids)) lineProducts.set(id, product)
    }
    return this.#change(key, viewer, async (data) => {
      let subtotal = (_cart: CartData): number => 0
      if (codes.length > 0) {
        // Priced under the write, from reads that join it, as `applyCoupon` does.
        const ids = new Set([...cartProductIds(data), ...known.map((product) => product.id)])
        const [products, applied] = await Promise.all([this.#storage.getProducts([...ids]), this.#storage.getCoupons(data.coupons)])
        subtotal = (cart) => priceCart(cart, products, applied, this.#config, this.#now(), viewer).totals.totalItems
      }
      return applyCartChanges(data, changes, { ...this.#changeContext(resolved, coupons, viewer, service, subtotal), lineProducts })
    }, known, read as CartRead | undefined)
  }

  #changeContext (
    resolved: CartChangeContext['resolved'], coupons: CartChangeContext['coupons'], viewer: Viewer, service: boolean, subtotal: (data: CartData) => number
  ): CartChangeContext {
    return {
      resolved,
      coupons,
      subtotal,
      locked: service ? () => new Set() : (data) => this.#lockedLines(data),
      now: this.#now(),
      currency: this.#config.currency,
      viewer
    }
  }

  #refuseLocked (data: CartData, keys: readonly string[]): void {
    const locked = this.#lockedLines(data)
    const refused = keys.filter((itemKey) => locked.has(itemKey))
    if (refused.length > 0) {
      throw new CartActionError(domainError('item_locked', 'This cart item is locked: it can only be changed by the drawer\'s own controls.', { keys: refused }))
    }
  }

  /** Empties the cart: every line and every coupon go (WooCommerce's `empty_cart`); the customer stays. */
  async emptyCart (key: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.#change(key, viewer, (data) => withLines(data, [], []))
  }

  /** Removes every applied coupon. */
  async removeAllCoupons (key: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.#change(key, viewer, (data) => withLines(data, data.lines.map((line) => ({ ...line, variation: { ...line.variation } })), []))
  }

  /** Stores the shopper's addresses with the cart (`cart/update-customer`); `update` gets the current ones. */
  async updateCustomer (key: string, update: (current: CartCustomer | undefined) => CartCustomer, viewer: Viewer = GUEST): Promise<CartState> {
    return this.#change(key, viewer, (data) => ({ ...withLines(data, data.lines.map((line) => ({ ...line, variation: { ...line.variation } }))), customer: update(data.customer) }))
  }

  /** Keeps the chosen shipping rate of a package (`cart/select-shipping-rate`). */
  async selectShippingRate (key: string, packageId: string, rateId: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.#change(key, viewer, (data) => ({
      ...withLines(data, data.lines.map((line) => ({ ...line, variation: { ...line.variation } }))),
      shippingRates: { ...data.shippingRates, [packageId]: rateId }
    }))
  }

  async applyCoupon (key: string, code: string, viewer: Viewer = GUEST): Promise<CartState> {
    const normalised = normaliseCouponCode(code)
    const coupon = await this.#storage.getCoupon(normalised)
    return this.#change(key, viewer, async (data) => {
      // The minimum spend is checked against the cart as it is under the write lock, not a copy read before it: a
      // removal that lands first leaves a subtotal the coupon must be held against (these reads join the write's
      // transaction).
      const ids = cartProductIds(data)
      const [products, applied] = await Promise.all([this.#storage.getProducts([...ids]), this.#storage.getCoupons(data.coupons)])
      const subtotal = priceCart(data, products, applied, this.#config, this.#now(), viewer).totals.totalItems
      return unwrap(applyCoupon(data, coupon, {
        code: normalised,
        subtotal,
        now: this.#now(),
        appliedCodes: data.coupons,
        currency: this.#config.currency
      }))
    })
  }

  /**
   * Removes an applied coupon. With `refuseUnknown` (the Store API, as WooCommerce's CartRemoveCoupon), a code no
   * coupon has is refused before the cart is looked at; otherwise it is simply not applied (`svc/v1`'s answer).
   */
  async removeCoupon (key: string, code: string, viewer: Viewer = GUEST, { refuseUnknown = false } = {}): Promise<CartState> {
    if (refuseUnknown && await this.#storage.getCoupon(normaliseCouponCode(code)) === null) {
      throw new CartActionError(domainError('coupon_not_found', 'Invalid coupon code.'))
    }
    return this.#change(key, viewer, (data) => unwrap(removeCoupon(data, normaliseCouponCode(code))))
  }

  /**
   * On login: the guest's cart and the user's saved cart become one. A guest cart joins the user's cart line by
   * line under the platform's rules (a line that no longer fits, such as a second sold-individually item, is left
   * out) and is then deleted; without a saved cart the guest cart is simply bound to the user. Returns the key of
   * the user's cart, or null when there is none.
   */
  async adoptOnLogin (userId: number, guestKey: string | null): Promise<string | null> {
    const [saved, guestCart] = await Promise.all([
      this.#storage.findUserCart(userId),
      guestKey === null ? null : this.#storage.getCart(guestKey)
    ])
    // Another user's cart is never merged, whoever holds its key.
    const guest = guestCart !== null && (guestCart.userId === null || guestCart.userId === userId) ? guestCart : null
    if (saved === null) {
      if (guest === null) return null
      await this.#storage.setCartUser(guest.key, userId)
      return guest.key
    }
    if (guest === null || guest.key === saved.key) return saved.key

    const ids = guest.data.lines.flatMap((line) => line.variationId ? [line.productId, line.variationId] : [line.productId])
    const products = await this.#storage.getProducts(ids)
    const viewer: Viewer = { canReadPrivate: false, userId }
    const locked = this.#lockedLines(guest.data)
    await this.#storage.updateCart(saved.key, (current) => {
      let data = current.data
      for (const line of guest.data.lines) {
        // Gift lines are not carried over: the merged cart's next change adds the gifts it earns.
        if (giftTierOf(line.mark) !== undefined) continue
        const product = products.get(line.variationId || line.productId)
        const parent = products.get(line.productId)
        if (!product || !parent) continue
        // A line keeps its mark (an add-on stays a locked add-on line); a locked line the saved
        // cart already has is not doubled.
        if (locked.has(line.key) && data.lines.some((existing) => existing.key === line.key)) continue
        const added = addToCart(data, {
          product,
          parent,
          quantity: line.quantity,
          variation: line.variation,
          ...(line.mark === undefined ? {} : { mark: line.mark })
        }, viewer)
        if (added.ok) data = added.value.cart
      }
      const coupons = [...data.coupons, ...guest.data.coupons.filter((code) => !data.coupons.includes(code))]
      return { data: { ...data, coupons }, result: null }
    })
    await this.#storage.deleteCart(guest.key)
    return saved.key
  }

  /**
   * WooCommerce's check_cart_coupons, inside the write: every applied coupon is validated against the cart as the
   * change leaves it (these reads join the write's transaction), and one that no longer holds (its minimum spend
   * after a removal, an expiry, a usage limit, a deleted coupon) is removed, with the notice the cart then shows.
   */
  async #dropInvalidCoupons (data: CartData, viewer: Viewer): Promise<{ data: CartData, removed: Array<{ reason: DomainReason, message: string }> }> {
    if (data.coupons.length === 0) return { data, removed: [] }
    const [products, coupons] = await Promise.all([this.#storage.getProducts([...cartProductIds(data)]), this.#storage.getCoupons(data.coupons)])
    const now = this.#now()
    const subtotal = priceCart({ ...data, coupons: [] }, products, new Map(), this.#config, now, viewer).totals.totalItems
    const removed: Array<{ reason: DomainReason, message: string }> = []
    const kept = data.coupons.filter((code) => {
      const error = validateCoupon(coupons.get(code), { code, subtotal, now, appliedCodes: [], currency: this.#config.currency })
      if (error === null) return true
      removed.push({ reason: error.reason, message: couponRemovedMessage(code, error.message) })
      return false
    })
    return removed.length === 0 ? { data, removed } : { data: { ...data, coupons: kept }, removed }
  }

  /**
   * Inside the write: the gift lines of the reward tiers the changed cart reaches are added, and those of tiers it no
   * longer reaches removed (these reads join the write's transaction).
   */
  async #syncGifts (data: CartData, viewer: Viewer, known?: Map<number, Product>): Promise<CartData> {
    const rewards = this.#hooks.rewards
    const tiers = this.tierAdjuster(viewer)
    if (rewards === undefined || tiers === null || !this.#tiersConfigured(viewer)) {
      return data.lines.some((line) => giftTierOf(line.mark) !== undefined) ? syncRewardGifts(data, null, new Map(), viewer).data : data
    }
    // `known`: the cart's products, already at hand (a cart without coupons needs no coupon read).
    const [products, coupons] = known !== undefined && data.coupons.length === 0
      ? [known, new Map<string, Coupon>()]
      : await Promise.all([this.#storage.getProducts([...cartProductIds(data)]), this.#storage.getCoupons(data.coupons)])
    const earned = tierAdjustments(data, products, coupons, this.#config, this.#now(), viewer, tiers, this.lineAdjuster(viewer))
    const wanted = (earned?.gifts ?? []).filter((gift) => !data.lines.some((line) => giftTierOf(line.mark) === gift.id)).map((gift) => gift.productId)
    const gifts = wanted.length === 0 ? new Map<number, Product>() : await this.#storage.getProducts(wanted)
    const synced = syncRewardGifts(data, earned, gifts, viewer)
    for (const tierId of synced.unavailable) rewards.report(tierId, 'gift_unavailable')
    return synced.data
  }

  /**
   * A change in two round trips: one read brings the cart with what pricing it needs (its products and coupons, the
   * catalog's and settings' versions); the change is computed and priced from it, and stored with the new state's
   * snapshot in one statement that lands only if the cart is still as read (`seen`). A cart changed meanwhile is
   * changed again under its lock. `known`: products the change brings into the cart (an add's product and parent);
   * `read`: the cart's read when the caller made it.
   */
  async #change (
    key: string, viewer: Viewer, change: (data: CartData) => CartData | Promise<CartData>, known: readonly Product[] = [], read?: CartRead,
    newCartAt?: number
  ): Promise<CartState> {
    read ??= await this.read(key)
    const before: { state?: CartState, snapshot?: string } = {}
    const { cart, versions, result: removed } = await this.#storage.updateCart(key, async (current) => {
      // A user's cart is changed for that user only (the routes never name it for anyone else: `mayUseCart`).
      if (current.userId !== null && current.userId !== (viewer.userId ?? null)) throw restError('svc_invalid_cart_token')
      const changed = await change(current.data)
      // A change that rebuilds the data keeps what it does not know of: the customer and the chosen rates.
      const next: CartData = { ...pickSession(current.data), ...changed }
      const checked = await this.#dropInvalidCoupons(next, viewer)
      const data = await this.#syncGifts(checked.data, viewer)
      const { state, snapshot } = await this.#priceBeforeWrite(current, data, read, known, viewer, checked.removed)
      before.state = state
      before.snapshot = snapshot?.snapshot
      return { data, result: checked.removed, ...(snapshot === undefined ? {} : { snapshot }) }
    }, { seen: read.cart, ...(newCartAt === undefined ? {} : { newCartAt }) })
    this.#sawSettings(versions?.settingsVersion)
    await this.prepareRewards(versions?.settingsVersion)
    // A guest's cart a logged-in user writes becomes theirs; a user's cart never moves to another user.
    if (viewer.userId && cart.userId === null) {
      await this.#storage.setCartUser(key, viewer.userId)
      cart.userId = viewer.userId
    }
    // The state priced before the write is the answer unless the catalog or the settings moved in between (the
    // snapshot stored with it is then stale by its stamp, and a fresh one is stored below).
    const current = before.state !== undefined && versions !== undefined &&
      versions.catalogVersion === read.catalogVersion && versions.settingsVersion === read.settingsVersion
    const state = current
      ? { ...before.state!, stored: cart }
      : { ...withNotices(await this.price(key, cart, viewer), removed), ...versions }
    // The drawer's reactions, as data: its hooks only read, and their follow-up is this service's own second write.
    const followUp = await this.#hooks.reconcile(state, viewer)
    if (followUp === null) {
      return current && before.snapshot !== undefined ? { ...state, snapshot: before.snapshot } : this.#snapshotAfterWrite(state, versions, viewer)
    }
    const { cart: reconciled, versions: reconciledVersions, result: removedAfter } = await this.#storage.updateCart(key, async (latest) => {
      // The follow-up changes what the cart is worth (a line gone, bundle lines re-priced): the coupons and the gifts
      // are brought in step with it as in any change.
      const checked = await this.#dropInvalidCoupons(applyFollowUp(latest.data, followUp), viewer)
      return { data: await this.#syncGifts(checked.data, viewer), result: checked.removed }
    })
    this.#sawSettings(reconciledVersions?.settingsVersion)
    const notices = [...removed, ...removedAfter]
    return this.#snapshotAfterWrite({ ...withNotices(await this.price(key, reconciled, viewer), notices), ...reconciledVersions }, reconciledVersions, viewer)
  }

  /**
   * Inside the write: the changed cart priced from the products and coupons its read brought (and `known`; others are
   * read, joining the write), and, for a guest, its snapshot, stamped with the read's versions: never newer than the
   * products it was computed from.
   */
  async #priceBeforeWrite (
    current: StoredCart, data: CartData, read: CartRead, known: readonly Product[], viewer: Viewer,
    notices: ReadonlyArray<{ reason: DomainReason, message: string }>
  ): Promise<{ state: CartState, snapshot?: { stamp: string, snapshot: string } }> {
    const ids = cartProductIds(data)
    const products = new Map(read.products)
    for (const product of known) products.set(product.id, product)
    const missing = [...ids].filter((id) => !products.has(id))
    if (missing.length > 0) for (const [id, product] of await this.#storage.getProducts(missing)) products.set(id, product)
    let coupons = read.coupons
    const unread = data.coupons.filter((code) => !coupons.has(code))
    if (unread.length > 0) coupons = new Map([...coupons, ...await this.#storage.getCoupons(unread)])
    const stored: StoredCart = { key: current.key, userId: current.userId, data, version: current.version + 1, updatedAt: this.#now().toISOString() }
    const versions = { settingsVersion: read.settingsVersion, catalogVersion: read.catalogVersion }
    const state = withNotices({ ...this.#priced(current.key, stored, products, coupons, ids, viewer), ...versions }, notices)
    const snapshotter = this.#hooks.snapshotter
    if (snapshotter === undefined || current.userId !== null || !isGuest(viewer)) return { state }
    const snapshot = await snapshotter.make(state)
    return snapshot === null ? { state } : { state, snapshot: { stamp: snapshotStamp(snapshotter.key(), versions), snapshot } }
  }

  /** After a write: the new state's snapshot is stored, so the next read sends it as it is. */
  async #snapshotAfterWrite (state: CartState, versions: WriteVersions | undefined, viewer: Viewer): Promise<CartState> {
    const snapshot = versions === undefined ? null : await this.storeSnapshot(state, versions, viewer)
    return snapshot === null ? state : { ...state, snapshot }
  }

  /**
   * The product an add names, its parent, and the line's attributes: a variation's own values with the shopper's
   * choice for the ones it leaves open (checked against the variation, as WooCommerce does); none for a simple product.
   */
  async #resolveProduct (input: AddItemInput): Promise<{ product: Product, parent: Product, variation: Record<string, string> }> {
    const chosen = await this.#storage.getProduct(input.id)
    if (chosen === null || chosen === undefined) throw new CartActionError(productNotFound(input.id))
    if (chosen.type === 'variation') {
      const parent = await this.#storage.getProduct(chosen.parentId)
      if (parent === null || parent === undefined) throw new CartActionError(notPurchasable(chosen))
      return { product: chosen, parent, variation: unwrap(variationChoice(parent, chosen, input.variation)) }
    }
    if (chosen.type === 'variable') {
      const variations = [...(await this.#storage.getProducts(chosen.variationIds)).values()]
      const product = unwrap(findVariation(chosen, variations, input.variation))
      return { product, parent: chosen, variation: unwrap(variationChoice(chosen, product, input.variation)) }
    }
    return { product: chosen, parent: chosen, variation: {} }
  }

  /** Prices a cart already read (for example by the security plugin, which reads it to start the session). */
  async price (key: string, stored: StoredCart | null, viewer: Viewer = GUEST): Promise<CartState> {
    await this.prepareRewards()
    const data = stored?.data ?? EMPTY
    const ids = cartProductIds(data)
    const [products, coupons] = await Promise.all([
      this.#storage.getProducts([...ids]),
      this.#storage.getCoupons(data.coupons)
    ])
    return this.#priced(key, stored, products, coupons, ids, viewer)
  }

  #priced (key: string, stored: StoredCart | null, products: Map<number, Product>, coupons: Map<string, Coupon>, ids: Set<number>, viewer: Viewer): CartState {
    const priced = priceCart(stored?.data ?? EMPTY, products, coupons, this.#config, this.#now(), viewer, this.tierAdjuster(viewer), this.lineAdjuster(viewer))
    let crossSells: Promise<Product[]> | undefined
    const state: CartState = { key, stored, priced, hash: cartHash(priced), crossSells: () => (crossSells ??= this.#crossSells(state, priced, ids)) }
    return state
  }

  /**
   * The cart's cross-sells: an optional part of an answer, read after the cart. When the storage cannot answer (the
   * database gone after a write committed), they are left out and the state is marked partial (`storeView` keeps no
   * view of it): an answer without them beats a 5xx for a change that was made.
   */
  async #crossSells (state: CartState, priced: PricedCart, inCart: Set<number>): Promise<Product[]> {
    const wanted = new Set<number>()
    for (const { parent } of priced.lines) {
      for (const id of parent.crossSellIds) if (!inCart.has(id)) wanted.add(id)
    }
    if (wanted.size === 0) return []
    let found: Map<number, Product>
    try {
      found = await this.#storage.getProducts([...wanted])
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      this.#partial.add(state)
      return []
    }
    return [...wanted].map((id) => found.get(id)).filter((product): product is Product =>
      product !== undefined && product.status === 'publish' && product.catalogVisibility !== 'hidden')
  }
}
