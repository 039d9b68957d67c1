import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CartState, Viewer } from '../../port/index.ts'

/**
 * Who serves the cart routes the drawer's script reads and changes the cart through: `host` (default), the host's own
 * Store API (`{restRoot}wc/store/v1/cart`, `cart/update-item`, `cart/add-item`); `drawer`, the drawer itself, under
 * `{restRoot}svc/v1/store/`, over the port and the `carts` option (`DrawerCartCapability`).
 */
export type StoreApiMode = 'host' | 'drawer'

/**
 * What the drawer's own cart routes (`storeApi: 'drawer'`) need of a host beyond the commerce port: the host's own
 * quantity change, and its cart session (which cart a request without a Cart-Token means, and the Cart-Tokens the
 * port's `cartKeyOfToken` accepts). Passed to `cartDrawer` as its `carts` option; required with `storeApi: 'drawer'`.
 */
export interface DrawerCartCapability {
  /**
   * Optional: sets a line's quantity in one atomic change (0 removes the line), as the host's own cart routes do: it
   * refuses a line the `lockedLines` hooks name (`CartActionError` with reason `item_locked`) and an unknown key
   * (`item_not_found`), runs the `reconcile` hooks after the change and answers the cart as it then stands, like every
   * port change. Default: the port's `carts.change` with one `setQuantity`.
   */
  setQuantity? (key: string, itemKey: string, quantity: number, viewer: Viewer): Promise<CartState>
  /**
   * The cart a request that sends no Cart-Token means: the host's own session's (its cart cookie), else a new key.
   * The drawer still refuses a cart bound to a user other than the request's login.
   */
  sessionCartKey (request: FastifyRequest): string | Promise<string>
  /**
   * A Cart-Token naming `key` that the port's `cartKeyOfToken` accepts, sent in the `Cart-Token` header of every
   * answer of the drawer's cart routes. A host that also keeps the cart in a cookie of its own sets it on `reply` here.
   * Optional when the port leaves `cartKeyOfToken` to the drawer: its own tokens are sent then.
   */
  issueToken? (key: string, reply: FastifyReply): string
}

/**
 * Checks the `storeApi` and `carts` options together: `drawer` needs `carts.sessionCartKey`, and `carts.issueToken`
 * unless the drawer makes the Cart-Tokens (`ownTokens`: the port has no `cartKeyOfToken`).
 */
export function checkStoreApiOptions (storeApi: unknown, carts: Partial<DrawerCartCapability> | undefined, ownTokens = false): StoreApiMode {
  if (storeApi === undefined || storeApi === 'host') return 'host'
  if (storeApi !== 'drawer') throw new Error(`cartDrawer: storeApi must be 'host' or 'drawer', not ${JSON.stringify(storeApi)}`)
  const needed = ownTokens ? ['sessionCartKey'] as const : ['sessionCartKey', 'issueToken'] as const
  const missing = needed.filter((name) => typeof carts?.[name] !== 'function')
  if (missing.length > 0) {
    throw new Error(`cartDrawer: storeApi 'drawer' serves the cart routes itself and needs the carts option with ${missing.map((name) => `carts.${name}`).join(', ')} (see DrawerCartCapability)`)
  }
  return 'drawer'
}
