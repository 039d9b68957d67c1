import {
  appliedCouponCodes, applyCartChanges, applyFollowUp, CartActionError, CartHooks, cartHash, findVariation, priceCart,
  syncRewardGifts, tierAdjustments,
  type AddItemInput, type CartChange, type CartChangeOptions, type CartData, type CartReconciler, type CartRewards, type CartsPort, type CartSnapshotter, type CartState,
  type DomainError, type LockedLines, type PricedCart, type Product, type ShopConfig, type TierAdjuster, type Viewer
} from 'cart-drawer-service/drawer'
import type { CartRead, StoredCart } from 'cart-drawer-service/storage'
import type { Catalog } from './catalog.ts'

const EMPTY: CartData = { lines: [], coupons: [] }
const GUEST: Viewer = { canReadPrivate: false, userId: null }

/**
 * A refusal, thrown as the drawer expects it: the package's `CartActionError` with the domain's reason (the drawer's
 * routes catch that class and no other: docs/decisions/cart-drawer-plugin.md).
 */
function refuse (error: DomainError): never {
  throw new CartActionError(error)
}

function unwrap<T> (result: { ok: true, value: T } | { ok: false, error: DomainError }): T {
  if (!result.ok) refuse(result.error)
  return result.value
}

const notPurchasable = (): DomainError => ({ reason: 'product_not_purchasable', message: 'This product cannot be added to the cart.' })

function productIds (data: CartData): Set<number> {
  const ids = new Set<number>()
  for (const line of data.lines) {
    ids.add(line.productId)
    if (line.variationId !== 0) ids.add(line.variationId)
  }
  return ids
}

export interface ShopCartsOptions {
  catalog: Catalog
  config: ShopConfig
  now: () => Date
  /**
   * The drawer's settings version, which `CartRead` must carry (the drawer checks its settings cache against it): the
   * host passes its own settings store's version.
   */
  settingsVersion: () => Promise<number>
}

/**
 * One lock per cart key: `run` waits for the key's earlier holders, then runs `task` alone for that key. A dozen lines
 * written here rather than a mutex package, so the example depends on the drawer's package alone and shows all of
 * what a host's lock must do. Not re-entrant, like most shops' locks (a database row lock, a Redis lock): a task that
 * waited on its own key would wait forever, which is why the drawer never calls back into a cart operation from
 * inside one (its hooks answer data, see `CartReconciler`).
 */
class CartLocks {
  /** The tail of each key's queue: settles once the last task queued for the key has finished. */
  readonly #tails = new Map<string, Promise<void>>()

  async run<T> (key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const tail = new Promise<void>((resolve) => { release = resolve })
    this.#tails.set(key, tail)
    await previous
    try {
      return await task()
    } finally {
      release()
      // The last holder leaves no entry behind.
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    }
  }
}

/**
 * The tea shop's carts, kept in a Map by cart key, and its side of the port's `CartsPort`. Every change holds the
 * cart's lock from its read to its follow-up write, the drawer's hooks included (`#change`): the place a shop with a
 * database would hold its row lock or transaction. Snapshots are not kept (the port allows that).
 */
export class ShopCarts implements CartsPort {
  readonly #carts = new Map<string, StoredCart>()
  readonly #catalog: Catalog
  readonly #config: ShopConfig
  readonly #now: () => Date
  readonly #settingsVersion: () => Promise<number>
  readonly #hooks = new CartHooks()
  readonly #locks = new CartLocks()

  constructor (options: ShopCartsOptions) {
    this.#catalog = options.catalog
    this.#config = options.config
    this.#now = options.now
    this.#settingsVersion = options.settingsVersion
  }

  ownerOf (read: CartRead): number | null {
    return read.cart?.userId ?? null
  }

  async read (key: string): Promise<CartRead> {
    const cart = this.#stored(key)
    const data = cart?.data ?? EMPTY
    const settingsVersion = await this.#settingsVersion()
    // The drawer's reward tiers as saved at the version this read saw (the totals apply them).
    await this.#hooks.rewards?.prepare(settingsVersion)
    return {
      cart,
      products: this.#catalog.getMany(productIds(data)),
      coupons: this.#catalog.coupons(data.coupons),
      settingsVersion,
      catalogVersion: this.#catalog.version
    }
  }

  priceRead (key: string, read: CartRead, viewer: Viewer = GUEST): CartState {
    const priced = priceCart(read.cart?.data ?? EMPTY, read.products, read.coupons, this.#config, this.#now(), viewer, this.#rewards(viewer), this.#adjuster(viewer))
    let crossSells: Promise<Product[]> | undefined
    return {
      key,
      stored: read.cart,
      priced,
      hash: cartHash(priced),
      crossSells: () => (crossSells ??= Promise.resolve(this.#crossSells(priced, productIds(read.cart?.data ?? EMPTY)))),
      settingsVersion: read.settingsVersion
    }
  }

  async get (key: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.priceRead(key, await this.read(key), viewer)
  }

  /** The shop's own add (its cart API's `add-item`). */
  async addItem (key: string, input: AddItemInput, viewer: Viewer = GUEST): Promise<CartState> {
    return this.change(key, [{ type: 'add', ...input }], viewer)
  }

  /**
   * The port's one cart change: the list applied together or not at all, by the package's `applyCartChanges` over
   * this shop's data (which is the package's `CartData`), with the products and coupons it names from the catalog.
   */
  async change (key: string, changes: readonly CartChange[], viewer: Viewer = GUEST, options: CartChangeOptions = {}): Promise<CartState> {
    const resolved = new Map(changes.flatMap((change, index) => {
      if (change.type !== 'add') return []
      try {
        return [[change.id, { ...this.#resolve({ id: change.id, quantity: change.quantity, variation: change.variation ?? {} }), variation: change.variation ?? {} }] as const]
      } catch (error) {
        throw error instanceof CartActionError ? new CartActionError(error.domainError, index) : error
      }
    }))
    const coupons = new Map(appliedCouponCodes(changes).map((code) => [code, this.#catalog.coupon(code)]))
    return this.#change(key, viewer, (data) => applyCartChanges(data, changes, {
      resolved,
      lineProducts: this.#catalog.getMany(productIds(data)),
      coupons,
      subtotal: (cart) => this.#price(cart, viewer).totals.totalItems,
      locked: options.service === true ? () => new Set() : (cart) => this.#hooks.lockedLines(cart),
      now: this.#now(),
      currency: this.#config.currency,
      viewer
    }))
  }

  /** The shop's own quantity change (its cart API's `update-item`): a locked line is refused, 0 removes the line. */
  async setQuantity (key: string, itemKey: string, quantity: number, viewer: Viewer = GUEST): Promise<CartState> {
    return this.change(key, [{ type: 'setQuantity', key: itemKey, quantity }], viewer)
  }

  lockedLines (data: CartData): ReadonlySet<string> {
    return this.#hooks.lockedLines(data)
  }

  get lockedLinesGeneration (): number {
    return this.#hooks.lockedLinesGeneration
  }

  // The declared hooks, kept by the package's CartHooks. Snapshots are not kept: every read prices the cart, which in
  // memory costs next to nothing, so a snapshot hook is held but never asked.
  addHook (name: 'lockedLines', hook: LockedLines): () => void
  addHook (name: 'reconcile', hook: CartReconciler): () => void
  addHook (name: 'snapshot', hook: CartSnapshotter): () => void
  addHook (name: 'rewards', hook: CartRewards): () => void
  addHook (name: 'lockedLines' | 'reconcile' | 'snapshot' | 'rewards', hook: LockedLines | CartReconciler | CartSnapshotter | CartRewards): () => void {
    return this.#hooks.add(name, hook)
  }

  /** The reward tiers' adjustments (`CartRewards.adjust`): every pricing applies them to the cart priced without them. */
  #rewards (viewer: Viewer): TierAdjuster | null {
    const rewards = this.#hooks.rewards
    if (rewards === undefined) return null
    const now = this.#now()
    return (view) => rewards.adjust(view, viewer, now)
  }

  /** The drawer's line adjustments (bundle discounts): every pricing takes them off their lines before the coupons. */
  #adjuster (viewer: Viewer) {
    return this.#hooks.rewards?.lineAdjuster(viewer, this.#now()) ?? null
  }

  #stored (key: string): StoredCart | null {
    const cart = this.#carts.get(key)
    return cart === undefined ? null : structuredClone(cart)
  }

  /**
   * One change, under the cart's lock from start to end: the new data is stored with the next version, the drawer's
   * `reconcile` hooks are told of it, and their follow-up (lines to remove, the bundle lines re-priced) is applied in a
   * second write, with the gifts brought in step again. The hooks only answer data, never call back into these
   * operations, so running them under the lock is safe.
   */
  async #change (key: string, viewer: Viewer, change: (data: CartData) => CartData): Promise<CartState> {
    await this.#hooks.rewards?.prepare(await this.#settingsVersion())
    return this.#locks.run(key, async () => {
      const state = await this.#priceStored(key, this.#write(key, viewer, change), viewer)
      const followUp = await this.#hooks.reconcile(state, viewer)
      if (followUp === null) return state
      return this.#priceStored(key, this.#write(key, viewer, (data) => applyFollowUp(data, followUp)), viewer)
    })
  }

  #write (key: string, viewer: Viewer, change: (data: CartData) => CartData): StoredCart {
    const current = this.#carts.get(key)
    const data = this.#withGifts(change(structuredClone(current?.data ?? EMPTY)), viewer)
    const stored: StoredCart = {
      key,
      // A guest's cart becomes the user's who writes it; a user's cart never moves to another user.
      userId: current?.userId ?? viewer.userId ?? null,
      data: structuredClone(data),
      version: (current?.version ?? 0) + 1,
      updatedAt: this.#now().toISOString()
    }
    this.#carts.set(key, stored)
    return structuredClone(stored)
  }

  async #priceStored (key: string, stored: StoredCart, viewer: Viewer): Promise<CartState> {
    const read: CartRead = {
      cart: stored,
      products: this.#catalog.getMany(productIds(stored.data)),
      coupons: this.#catalog.coupons(stored.data.coupons),
      settingsVersion: await this.#settingsVersion(),
      catalogVersion: this.#catalog.version
    }
    return this.priceRead(key, read, viewer)
  }

  #price (data: CartData, viewer: Viewer): PricedCart {
    return priceCart(data, this.#catalog.getMany(productIds(data)), this.#catalog.coupons(data.coupons), this.#config, this.#now(), viewer, this.#rewards(viewer), this.#adjuster(viewer))
  }

  /** The change's data with the gift lines of the reward tiers it reaches (and without those it no longer does). */
  #withGifts (data: CartData, viewer: Viewer): CartData {
    const rewards = this.#hooks.rewards
    const tiers = this.#rewards(viewer)
    if (rewards === undefined || tiers === null) return syncRewardGifts(data, null, new Map(), viewer).data
    const earned = tierAdjustments(data, this.#catalog.getMany(productIds(data)), this.#catalog.coupons(data.coupons), this.#config, this.#now(), viewer, tiers, this.#adjuster(viewer))
    const gifts = this.#catalog.getMany(new Set(earned?.gifts.map((gift) => gift.productId) ?? []))
    const synced = syncRewardGifts(data, earned, gifts, viewer)
    for (const tierId of synced.unavailable) rewards.report(tierId, 'gift_unavailable')
    return synced.data
  }

  #resolve (input: AddItemInput): { product: Product, parent: Product } {
    const chosen = this.#catalog.get(input.id) ?? refuse(notPurchasable())
    if (chosen.type === 'variation') return { product: chosen, parent: this.#catalog.get(chosen.parentId) ?? refuse(notPurchasable()) }
    if (chosen.type === 'variable') {
      const variations = [...this.#catalog.getMany(chosen.variationIds).values()]
      return { product: unwrap(findVariation(chosen, variations, input.variation)), parent: chosen }
    }
    return { product: chosen, parent: chosen }
  }

  /** The cross-sells of the cart's lines that are not in it, published and not hidden. */
  #crossSells (priced: PricedCart, inCart: Set<number>): Product[] {
    const wanted = new Set<number>()
    for (const { parent } of priced.lines) for (const id of parent.crossSellIds) if (!inCart.has(id)) wanted.add(id)
    return [...this.#catalog.getMany(wanted).values()]
      .filter((item) => item.status === 'publish' && item.catalogVisibility !== 'hidden')
  }
}
