import type { PricedLine } from '../../../domain/types.ts'
import type { CartState, Viewer } from '../cart/cart-service.ts'

/**
 * Store API extension data, as WooCommerce's ExtendSchema: a namespace registers a callback for the cart and one
 * for each cart item, and their results appear under `extensions[namespace]` of every cart response.
 */
export interface CartExtension {
  namespace: string
  cart?: (state: CartState) => unknown | Promise<unknown>
  item?: (line: PricedLine, state: CartState) => unknown | Promise<unknown>
}

/**
 * What `cart/extensions` runs for a namespace (WooCommerce's `woocommerce_store_api_register_update_callback`): it may
 * change the cart through the platform; the route then answers the cart.
 */
export interface CartUpdateCallback {
  namespace: string
  callback: (input: { cartKey: string, viewer: Viewer, data: Record<string, unknown> }) => void | Promise<void>
}

export class ExtendSchema {
  readonly #extensions = new Map<string, CartExtension>()
  readonly #updateCallbacks = new Map<string, CartUpdateCallback>()

  /** Registers the `cart/extensions` callback of a namespace (one per namespace). */
  registerUpdateCallback (update: CartUpdateCallback): void {
    if (this.#updateCallbacks.has(update.namespace)) {
      throw new Error(`Store API update callback namespace "${update.namespace}" is already registered`)
    }
    this.#updateCallbacks.set(update.namespace, update)
  }

  /** The `cart/extensions` callback of a namespace, if one is registered. */
  updateCallback (namespace: string): CartUpdateCallback['callback'] | undefined {
    return this.#updateCallbacks.get(namespace)?.callback
  }

  register (extension: CartExtension): void {
    if (this.#extensions.has(extension.namespace)) {
      throw new Error(`Store API extension namespace "${extension.namespace}" is already registered`)
    }
    this.#extensions.set(extension.namespace, extension)
  }

  get size (): number {
    return this.#extensions.size
  }

  async cartData (state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const extension of this.#extensions.values()) {
      if (extension.cart) data[extension.namespace] = await extension.cart(state)
    }
    return data
  }

  async itemData (line: PricedLine, state: CartState): Promise<Record<string, unknown>> {
    const data: Record<string, unknown> = {}
    for (const extension of this.#extensions.values()) {
      if (extension.item) data[extension.namespace] = await extension.item(line, state)
    }
    return data
  }
}
