import type { CartData } from '../../kernel/domain/types.ts'
import { productPermalink } from '../../kernel/domain/product-url.ts'
import { DrawerFilters } from './filters.ts'
import type { CartsPort, CommercePort, FilterPort, LockedLines, Viewer } from './port.ts'
import { drawerSessions } from './sessions.ts'

/** The members of the port a host may leave out, each with its documented default. */
type Defaulted = 'restRoot' | 'siteUrl' | 'currency' | 'now' | 'canManageShop' | 'getProduct' | 'productUrl' | 'cartKeyOfToken' | 'verifyNonce' | 'restNonce'

/** The carts as the drawer uses them: every optional member with a default filled in. */
type CartsDefaulted = 'get' | 'addItem' | 'removeItems' | 'applyCoupon' | 'removeCoupon' | 'lockedLines' | 'lockedLinesGeneration'
export type ResolvedCartsPort = Omit<CartsPort, CartsDefaulted> & Required<Pick<CartsPort, CartsDefaulted>>

/** The port as the drawer uses it (`fastify.commerce`): a host's port with the defaults of its optional members. */
export type ResolvedCommercePort = Omit<CommercePort, Defaulted | 'carts' | 'filters'> & Required<Pick<CommercePort, Defaulted>> & {
  readonly carts: ResolvedCartsPort
  readonly filters: Required<FilterPort>
  /**
   * The drawer's own Cart-Tokens when the host has none (`cartKeyOfToken` left out): a token naming a cart key, which
   * the drawer's cart routes send and a host's own pages may hand out. Null when the host's tokens are used.
   */
  readonly issueToken: ((key: string) => string) | null
}

export interface ResolveOptions {
  /** The drawer's signing secrets, newest first: needed when the host leaves the Cart-Tokens or nonces to the drawer. */
  secrets?: readonly string[]
}

export const DEFAULT_REST_ROOT = '/wp-json/'
const MANAGE_SHOP = 'manage_shop'

function missingSecrets (): never {
  throw new Error('cartDrawer: the commerce port has no cartKeyOfToken or no nonces of its own, so the drawer signs its own: give it secrets')
}
const GUEST: Viewer = { canReadPrivate: false, userId: null }

/**
 * A host's port with the documented default of each optional member it left out. Every call goes to the host's own
 * object, with its `this` (a host's port may be a class with private fields). The drawer's own `lockedLines` hooks
 * are counted here as it adds them, so a host need not keep their union or their generation.
 */
export function resolveCommercePort (port: CommercePort, { secrets = [] }: ResolveOptions = {}): ResolvedCommercePort {
  const { carts } = port
  const filters: FilterPort = port.filters ?? new DrawerFilters()
  if ((port.verifyNonce === undefined) !== (port.restNonce === undefined)) {
    throw new Error('cartDrawer: the commerce port gives verifyNonce and restNonce together, or neither (the drawer then makes its own)')
  }
  const own = port.cartKeyOfToken === undefined || port.verifyNonce === undefined
    ? (secrets.length > 0 ? drawerSessions(secrets) : missingSecrets())
    : null
  const lockers = new Set<LockedLines>()
  let generation = 0
  const resolvedCarts: ResolvedCartsPort = {
    read: (key) => carts.read(key),
    ownerOf: (read) => carts.ownerOf(read),
    priceRead: (key, read, viewer) => carts.priceRead(key, read, viewer),
    get: carts.get === undefined
      ? async (key, viewer) => carts.priceRead(key, await carts.read(key), viewer)
      : (key, viewer) => carts.get!(key, viewer),
    change: (key, changes, viewer, options) => carts.change(key, changes, viewer, options),
    addItem: carts.addItem === undefined
      ? (key, input, viewer = GUEST) => carts.change(key, [{ type: 'add', ...input }], viewer)
      : (key, input, viewer) => carts.addItem!(key, input, viewer),
    removeItems: carts.removeItems === undefined
      ? (key, keys, viewer = GUEST, read) => carts.change(key, [{ type: 'remove', keys }], viewer, read === undefined ? {} : { read })
      : (key, itemKeys, viewer, read) => carts.removeItems!(key, itemKeys, viewer, read),
    applyCoupon: carts.applyCoupon === undefined
      ? (key, code, viewer = GUEST) => carts.change(key, [{ type: 'applyCoupon', code }], viewer)
      : (key, code, viewer) => carts.applyCoupon!(key, code, viewer),
    removeCoupon: carts.removeCoupon === undefined
      ? (key, code, viewer = GUEST) => carts.change(key, [{ type: 'removeCoupon', code }], viewer)
      : (key, code, viewer) => carts.removeCoupon!(key, code, viewer),
    lockedLines: carts.lockedLines === undefined
      ? (data: CartData) => lockers.size === 1 ? [...lockers][0]!(data) : new Set([...lockers].flatMap((locker) => [...locker(data)]))
      : (data: CartData) => carts.lockedLines!(data),
    get lockedLinesGeneration () {
      return carts.lockedLinesGeneration ?? generation
    },
    addHook: ((name: string, hook: never) => {
      const remove = carts.addHook(name as 'lockedLines', hook)
      if (name !== 'lockedLines') return remove
      lockers.add(hook as LockedLines)
      generation++
      return () => {
        remove()
        if (lockers.delete(hook as LockedLines)) generation++
      }
    }) as CartsPort['addHook'],
    ...(carts.removeItemsUnread === undefined ? {} : { removeItemsUnread: (key: string, itemKeys: readonly string[], viewer: Parameters<NonNullable<CartsPort['removeItemsUnread']>>[2]) => carts.removeItemsUnread!(key, itemKeys, viewer) }),
    ...(carts.readSnapshot === undefined ? {} : { readSnapshot: (key: string) => carts.readSnapshot!(key) }),
    ...(carts.storeSnapshot === undefined ? {} : { storeSnapshot: (...args: Parameters<NonNullable<CartsPort['storeSnapshot']>>) => carts.storeSnapshot!(...args) }),
    ...(carts.readView === undefined ? {} : { readView: (key: string, view: string) => carts.readView!(key, view) }),
    ...(carts.storeView === undefined ? {} : { storeView: (...args: Parameters<NonNullable<CartsPort['storeView']>>) => carts.storeView!(...args) })
  }
  const resolvedFilters: Required<FilterPort> = {
    add: (name, callback, priority) => filters.add(name, callback, priority),
    apply: (name, value, ...args) => filters.apply(name, value, ...args),
    has: filters.has === undefined ? () => true : (name) => filters.has!(name),
    setErrorReporter: filters.setErrorReporter === undefined ? () => {} : (report) => filters.setErrorReporter!(report)
  }
  return {
    restRoot: port.restRoot ?? DEFAULT_REST_ROOT,
    homeUrl: port.homeUrl,
    siteUrl: port.siteUrl ?? port.homeUrl,
    currency: port.currency ?? port.config.currency,
    urls: port.urls,
    config: port.config,
    now: port.now === undefined ? () => new Date() : () => port.now!(),
    cartKeyOfToken: port.cartKeyOfToken === undefined ? (token) => own!.cartKeyOfToken(token) : (token) => port.cartKeyOfToken!(token),
    issueToken: port.cartKeyOfToken === undefined ? (key) => own!.issueToken(key) : null,
    login: (request) => port.login(request),
    verifyNonce: port.verifyNonce === undefined ? (nonce, login) => own!.verifyNonce(nonce, login) : (nonce, login) => port.verifyNonce!(nonce, login),
    restNonce: port.restNonce === undefined ? (login) => own!.restNonce(login) : (login) => port.restNonce!(login),
    canManageShop: port.canManageShop === undefined ? (user) => user.capabilities.includes(MANAGE_SHOP) : (user) => port.canManageShop!(user),
    ...(port.countCartStart === undefined ? {} : { countCartStart: (...args: Parameters<NonNullable<CommercePort['countCartStart']>>) => port.countCartStart!(...args) }),
    carts: resolvedCarts,
    getProduct: port.getProduct === undefined
      ? async (id) => (await port.getProducts([id])).get(id) ?? null
      : (id) => port.getProduct!(id),
    getProducts: (ids) => port.getProducts(ids),
    listProducts: (query) => port.listProducts(query),
    ...(port.bestSellers === undefined ? {} : { bestSellers: (limit: number) => port.bestSellers!(limit) }),
    ...(port.orderAttribution === undefined ? {} : { orderAttribution: (from: string, to: string, topProducts: number) => port.orderAttribution!(from, to, topProducts) }),
    productUrl: port.productUrl === undefined
      ? (product, parent, variation) => productPermalink(product, parent, port.homeUrl, variation)
      : (product, parent, variation) => port.productUrl!(product, parent, variation),
    extendCart: (extension) => port.extendCart(extension),
    filters: resolvedFilters
  }
}
