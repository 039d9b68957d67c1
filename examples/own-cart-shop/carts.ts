import { randomBytes } from 'node:crypto'
import {
  applyFollowUp, CartActionError, CartHooks,
  type AddItemInput, type CartChange, type CartChangeOptions, type CartData, type CartReading, type CartReconciler, type CartRewards, type CartsPort,
  type CartSnapshotter, type CartState, type DomainError, type LockedLines, type Product, type Viewer
} from 'cart-drawer-service/drawer'
import type { Catalog } from './catalog.ts'
import { CartLock } from './lock.ts'
import { emptyCart, type ShopCart } from './model.ts'
import { fromCartData, toCartData, toCartState, toPricedCart } from './port-glue.ts'
import { syncGifts, totalsWithTiers, type Context } from './tiers.ts'
import { computeTotals, sellable, type Totals } from './totals.ts'

const GUEST: Viewer = { canReadPrivate: false, userId: null }
const MAX_QTY = 99

/** A read: the cart as stored (null: not yet) and the drawer's settings version seen with it. */
interface ShopRead {
  cart: ShopCart | null
  settingsVersion: number
}

function refuse (reason: DomainError['reason'], message: string, data?: Record<string, unknown>): never {
  throw new CartActionError({ reason, message, ...(data === undefined ? {} : { data }) })
}

const newId = () => randomBytes(16).toString('hex')
const normalise = (code: string) => code.trim().toLowerCase()

export interface ShopCartsOptions {
  catalog: Catalog
  now: () => Date
  /** The drawer's settings version (its settings store's), read with every cart. */
  settingsVersion: () => Promise<number>
}

/**
 * The shop's carts in a Map, and its side of the port's `CartsPort`. Every write goes through `#commit`: under the
 * cart's lock it applies the edit, brings the gift lines in step, stores the next version, asks the drawer's
 * `reconcile` hooks and applies their follow-up in a second write before the lock is released. `change` (a list of
 * changes, all or none) is the one operation the port needs; `addItem` wraps it for the shop's own add route.
 */
export class ShopCarts implements CartsPort {
  readonly #carts = new Map<string, ShopCart>()
  readonly #lock = new CartLock()
  readonly #hooks = new CartHooks()
  readonly #catalog: Catalog
  readonly #now: () => Date
  readonly #settingsVersion: () => Promise<number>

  constructor (options: ShopCartsOptions) {
    this.#catalog = options.catalog
    this.#now = options.now
    this.#settingsVersion = options.settingsVersion
  }

  async read (key: string): Promise<ShopRead> {
    const settingsVersion = await this.#settingsVersion()
    await this.#hooks.rewards?.prepare(settingsVersion)
    const cart = this.#carts.get(key)
    return { cart: cart === undefined ? null : structuredClone(cart), settingsVersion }
  }

  ownerOf (read: CartReading): number | null {
    return (read as ShopRead).cart?.owner ?? null
  }

  priceRead (key: string, read: CartReading, viewer: Viewer = GUEST): CartState {
    const { cart, settingsVersion } = read as ShopRead
    return this.#state(key, cart, viewer, settingsVersion)
  }

  async get (key: string, viewer: Viewer = GUEST): Promise<CartState> {
    return this.priceRead(key, await this.read(key), viewer)
  }

  /** The checkout's figures for the cart: the shop's own totals, tiers applied, as the drawer's cart shows them. */
  async checkoutTotals (key: string, viewer: Viewer = GUEST): Promise<Totals> {
    const { cart } = await this.read(key)
    return totalsWithTiers(cart ?? emptyCart(key), this.#context(viewer)).totals
  }

  /** The one cart change: the list applied in order, together or not at all; a refusal names the change's index. */
  async change (key: string, changes: readonly CartChange[], viewer: Viewer = GUEST, options: CartChangeOptions = {}): Promise<CartState> {
    return this.#commit(key, viewer, (cart) => changes.reduce((draft, change, index) => {
      try {
        return this.#apply(draft, change, viewer, options.service === true)
      } catch (error) {
        throw error instanceof CartActionError ? new CartActionError(error.domainError, index) : error
      }
    }, cart))
  }

  addItem (key: string, input: AddItemInput, viewer: Viewer = GUEST): Promise<CartState> {
    const { id, quantity, variation, mark } = input
    return this.change(key, [{ type: 'add', id, quantity, variation, ...(mark === undefined ? {} : { mark }) }], viewer)
  }

  lockedLines (data: CartData): ReadonlySet<string> {
    return this.#hooks.lockedLines(data)
  }

  get lockedLinesGeneration (): number {
    return this.#hooks.lockedLinesGeneration
  }

  // Snapshots are not kept: every read prices the cart (in memory that costs next to nothing).
  addHook (name: 'lockedLines', hook: LockedLines): () => void
  addHook (name: 'reconcile', hook: CartReconciler): () => void
  addHook (name: 'snapshot', hook: CartSnapshotter): () => void
  addHook (name: 'rewards', hook: CartRewards): () => void
  addHook (name: 'lockedLines' | 'reconcile' | 'snapshot' | 'rewards', hook: LockedLines | CartReconciler | CartSnapshotter | CartRewards): () => void {
    return this.#hooks.add(name, hook)
  }

  /** Where every write happens: under the cart's lock, the edit, the gifts, the store, the reconcilers and their follow-up. */
  async #commit (key: string, viewer: Viewer, edit: (cart: ShopCart) => ShopCart): Promise<CartState> {
    const settingsVersion = await this.#settingsVersion()
    await this.#hooks.rewards?.prepare(settingsVersion)
    return this.#lock.run(key, async () => {
      const current = this.#carts.get(key)
      const written = this.#write(key, edit(structuredClone(current ?? emptyCart(key))), viewer)
      const state = this.#state(key, written, viewer, settingsVersion)
      const followUp = await this.#hooks.reconcile(state, viewer)
      if (followUp === null) return state
      const followed = this.#write(key, fromCartData(applyFollowUp(toCartData(written), followUp), written), viewer)
      return this.#state(key, followed, viewer, settingsVersion)
    })
  }

  #write (key: string, draft: ShopCart, viewer: Viewer): ShopCart {
    const current = this.#carts.get(key)
    const stored: ShopCart = {
      ...syncGifts(draft, this.#context(viewer), newId),
      key,
      // A guest's cart becomes the user's who writes it; a user's cart never moves to another user.
      owner: current?.owner ?? viewer.userId ?? null,
      version: (current?.version ?? 0) + 1,
      updatedAt: this.#now().toISOString()
    }
    this.#carts.set(key, stored)
    return structuredClone(stored)
  }

  #context (viewer: Viewer): Context {
    const rewards = this.#hooks.rewards
    const now = this.#now()
    return { catalog: this.#catalog, rewards, adjuster: rewards?.lineAdjuster(viewer, now) ?? null, viewer, now }
  }

  #state (key: string, cart: ShopCart | null, viewer: Viewer, settingsVersion: number): CartState {
    const priceable = cart ?? emptyCart(key)
    const { totals, outcome } = totalsWithTiers(priceable, this.#context(viewer))
    const priced = toPricedCart(priceable, totals, outcome)
    let crossSells: Promise<Product[]> | undefined
    return toCartState(key, cart, priced, {
      crossSells: () => (crossSells ??= Promise.resolve(this.#crossSells(priceable))),
      settingsVersion,
      catalogVersion: this.#catalog.version
    })
  }

  #crossSells (cart: ShopCart): Product[] {
    const inCart = new Set(cart.lines.map((line) => line.productId))
    const wanted = new Set(cart.lines.flatMap((line) => this.#catalog.get(line.productId)?.crossSellIds ?? []).filter((id) => !inCart.has(id)))
    return [...this.#catalog.getMany(wanted).values()].filter((item) => item.status === 'publish' && item.catalogVisibility !== 'hidden')
  }

  #apply (cart: ShopCart, change: CartChange, viewer: Viewer, service: boolean): ShopCart {
    switch (change.type) {
      case 'add': {
        const { product, parent } = this.#resolve(change.id, change.variation ?? {}, viewer)
        if (!Number.isInteger(change.quantity) || change.quantity < 1) refuse('quantity_not_whole', 'The quantity must be a whole number of at least 1.')
        const mark = change.mark
        if (change.ifAbsent === true && mark !== undefined && cart.lines.some((line) => line.mark === mark)) return cart
        const variantId = product.id === parent.id ? 0 : product.id
        const same = cart.lines.find((line) => line.productId === parent.id && line.variantId === variantId && line.mark === mark)
        const qty = (same?.qty ?? 0) + change.quantity
        if (product.soldIndividually && qty > 1) refuse('product_sold_individually', `Only one "${product.name}" can be bought at a time.`)
        if (qty > MAX_QTY) refuse('quantity_above_maximum', 'That is more than can be bought at once.')
        if (same !== undefined) return { ...cart, lines: cart.lines.map((line) => line === same ? { ...line, qty } : line) }
        const attrs = variantId === 0 ? {} : { ...product.variationAttributes, ...change.variation }
        const line = { id: newId(), productId: parent.id, variantId, attrs, qty, ...(mark === undefined ? {} : { mark }) }
        return { ...cart, lines: [...cart.lines, line] }
      }
      case 'remove': {
        const unknown = change.keys.filter((key) => !cart.lines.some((line) => line.id === key))
        if (unknown.length > 0) refuse('item_not_found', 'This cart item no longer exists.', { keys: unknown })
        const locked = service ? [] : change.keys.filter((key) => this.lockedLines(toCartData(cart)).has(key))
        if (locked.length > 0) refuse('item_locked', 'This cart item can only be changed by the drawer.', { keys: locked })
        return { ...cart, lines: cart.lines.filter((line) => !change.keys.includes(line.id)) }
      }
      case 'setQuantity': {
        const qty = change.quantity
        const line = cart.lines.find((candidate) => candidate.id === change.key) ?? refuse('item_not_found', 'This cart item no longer exists.', { keys: [change.key] })
        if (!service && this.lockedLines(toCartData(cart)).has(change.key)) refuse('item_locked', 'This cart item can only be changed by the drawer.', { keys: [change.key] })
        if (!Number.isInteger(qty) || qty < 0) refuse('quantity_not_whole', 'The quantity must be a whole number.')
        if (qty === 0) return { ...cart, lines: cart.lines.filter((candidate) => candidate !== line) }
        if (qty > (this.#catalog.get(line.variantId || line.productId)?.soldIndividually === true ? 1 : MAX_QTY)) refuse('quantity_above_maximum', 'That is more than can be bought at once.')
        return { ...cart, lines: cart.lines.map((candidate) => candidate === line ? { ...line, qty } : candidate) }
      }
      case 'removeMarked':
        return { ...cart, lines: cart.lines.filter((line) => line.mark !== change.mark) }
      case 'applyCoupon': {
        const code = normalise(change.code)
        const coupon = this.#catalog.coupon(code) ?? refuse('coupon_not_found', `Coupon "${code}" does not exist!`)
        if (cart.coupons.includes(code)) refuse('coupon_already_applied', `Coupon code "${code}" has already been applied.`)
        if (computeTotals(cart, this.#catalog, viewer.canReadPrivate, null, null).items < coupon.minSpend) {
          refuse('coupon_minimum_spend', `The coupon "${code}" needs a cart of at least ${(coupon.minSpend / 100).toFixed(2)} €.`)
        }
        return { ...cart, coupons: [...cart.coupons, code] }
      }
      case 'removeCoupon': {
        const code = normalise(change.code)
        if (!cart.coupons.includes(code)) refuse('coupon_not_applied', `Coupon "${code}" is not applied to the cart.`)
        return { ...cart, coupons: cart.coupons.filter((applied) => applied !== code) }
      }
    }
  }

  /** The product an add buys (a variable product's variant chosen by its attributes) and the product it belongs to. */
  #resolve (id: number, chosen: Record<string, string>, viewer: Viewer): { product: Product, parent: Product } {
    const item = this.#catalog.get(id) ?? refuse('product_not_found', 'This product does not exist.')
    const unsellable = () => refuse('product_not_purchasable', 'This product cannot be added to the cart.')
    if (item.type === 'simple') return sellable(item, viewer.canReadPrivate) ? { product: item, parent: item } : unsellable()
    const parent = item.type === 'variable' ? item : this.#catalog.get(item.parentId) ?? unsellable()
    const variant = item.type === 'variation'
      ? item
      : [...this.#catalog.getMany(item.variationIds).values()].find((candidate) =>
          Object.entries(candidate.variationAttributes).every(([name, value]) => value === '' ? chosen[name] !== undefined : chosen[name] === value)) ??
        refuse('variation_not_found', 'Choose the product\'s options first.')
    if (parent.status !== 'publish' && !(parent.status === 'private' && viewer.canReadPrivate)) unsellable()
    return sellable(variant, viewer.canReadPrivate) ? { product: variant, parent } : unsellable()
  }
}
